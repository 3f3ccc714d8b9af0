import type { LRUCache } from 'lru-cache';
import { boundedCache } from './bounded-cache';

/**
 * Cached GraphQL results (the serialized JSON), per schema, query, variables and operation name.
 * Entries are dropped all at once on any content, structure or schema change (as the CMS did up to 3.4),
 * and no entry outlives `expiresAt` (the next moment an entry's status changes by the clock: a post date or
 * expiry date passing). Bounded by count and by size: the least recently used entries go first.
 */
export class ResultCache {
  private readonly entries: LRUCache<string, string>;
  private expiresAt = Number.POSITIVE_INFINITY;

  constructor(maxEntries = 5000, maxChars = 64 * 1024 * 1024) {
    this.entries = boundedCache<string>(maxEntries, maxChars, (key, json) => key.length + json.length);
  }

  static key(schemaUid: string, siteId: number, query: string, variables: unknown, operationName: string | null | undefined): string {
    return `${schemaUid}\u0000${siteId}\u0000${operationName ?? ''}\u0000${variables ? JSON.stringify(variables) : ''}\u0000${query}`;
  }

  /** The same result under the raw JSON body it was asked with (see GraphqlService.cachedAnswer). */
  static rawBodyKey(schemaUid: string, siteId: number, rawBody: string): string {
    return `${schemaUid}\u0000${siteId}\u0000json\u0000${rawBody}`;
  }

  get(key: string, now = Date.now()): string | undefined {
    if (now >= this.expiresAt) this.clear();
    return this.entries.get(key);
  }

  set(key: string, json: string): void {
    this.entries.set(key, json);
  }

  /** Sets the time after which everything cached so far is stale. */
  expireAt(time: number): void {
    this.expiresAt = Math.min(this.expiresAt, time);
  }

  clear(): void {
    this.entries.clear();
    this.expiresAt = Number.POSITIVE_INFINITY;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Characters held (keys and answers). */
  get usedChars(): number {
    return this.entries.calculatedSize;
  }
}
