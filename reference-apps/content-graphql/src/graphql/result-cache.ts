import type { LRUCache } from 'lru-cache';
import { boundedCache } from './bounded-cache';

/**
 * Cached GraphQL results (the serialized JSON), per schema, query, variables and operation name.
 * Entries are dropped all at once on any content, structure or schema change (as the CMS did up to 3.4),
 * and no entry outlives `expiresAt` (the next moment an entry's status changes by the clock: a post date or
 * expiry date passing). Bounded by count and by size: the least recently used entries go first.
 *
 * Beside it, the same answers as bytes under the exact bytes of the JSON request body they were asked with
 * (`rawBodyAnswer`), so that a repeated request is answered without decoding, parsing or hashing its body.
 */
export class ResultCache {
  private readonly entries: LRUCache<string, string>;
  private readonly rawBodies: RawBodyAnswers;
  private expiresAt = Number.POSITIVE_INFINITY;

  constructor(maxEntries = 5000, maxChars = 64 * 1024 * 1024) {
    this.entries = boundedCache<string>(maxEntries, maxChars, (key, json) => key.length + json.length);
    this.rawBodies = new RawBodyAnswers(maxEntries, maxChars / 2);
  }

  static key(
    schemaUid: string,
    siteId: number,
    query: string,
    variables: unknown,
    operationName: string | null | undefined,
  ): string {
    return `${schemaUid}\u0000${siteId}\u0000${operationName ?? ''}\u0000${variables ? JSON.stringify(variables) : ''}\u0000${query}`;
  }

  get(key: string, now = Date.now()): string | undefined {
    this.expireBy(now);
    return this.entries.get(key);
  }

  set(key: string, json: string): void {
    this.entries.set(key, json);
  }

  /** The answer (UTF-8 bytes) cached for this very JSON body, with this schema on this site, if any. */
  rawBodyAnswer(schemaUid: string, siteId: number, body: Uint8Array, now = Date.now()): Buffer | undefined {
    this.expireBy(now);
    return this.rawBodies.get(schemaUid, siteId, body);
  }

  /** Keeps `json` as the answer to this very JSON body, with this schema on this site (see `rawBodyAnswer`). */
  setRawBodyAnswer(schemaUid: string, siteId: number, body: Uint8Array, json: string): void {
    this.rawBodies.set(schemaUid, siteId, body, json);
  }

  /** Sets the time after which everything cached so far is stale. */
  expireAt(time: number): void {
    this.expiresAt = Math.min(this.expiresAt, time);
  }

  clear(): void {
    this.entries.clear();
    this.rawBodies.clear();
    this.expiresAt = Number.POSITIVE_INFINITY;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Characters held (keys and answers). */
  get usedChars(): number {
    return this.entries.calculatedSize;
  }

  /** Answers held by request body, and their bytes (bodies and answers). */
  get rawBodyUsage(): { entries: number; bytes: number } {
    return { entries: this.rawBodies.count, bytes: this.rawBodies.bytes };
  }

  private expireBy(now: number): void {
    if (now >= this.expiresAt) this.clear();
  }
}

interface RawBodyEntry {
  schemaUid: string;
  siteId: number;
  body: Buffer;
  answer: Buffer;
}

/**
 * Answers by the exact bytes of a request body. Found by the body's length, then compared byte for byte: no string
 * is made or hashed per request (hashing a 600-byte body as a string costs more than the rest of the lookup).
 * Bounded: at most `PER_LENGTH` bodies of one length (the oldest goes: bodies crafted to share a length only evict
 * each other), and past `maxEntries` or `maxBytes` everything is dropped at once. It is only a shortcut: a dropped
 * answer is found again through the result cache, and kept here again, on its next request.
 */
class RawBodyAnswers {
  private static readonly PER_LENGTH = 4;
  private readonly byLength = new Map<number, RawBodyEntry[]>();
  count = 0;
  bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(schemaUid: string, siteId: number, body: Uint8Array): Buffer | undefined {
    const entries = this.byLength.get(body.length);
    if (entries === undefined) return undefined;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.siteId === siteId && entry.schemaUid === schemaUid && entry.body.equals(body)) return entry.answer;
    }
    return undefined;
  }

  set(schemaUid: string, siteId: number, body: Uint8Array, json: string): void {
    const size = body.length + Buffer.byteLength(json);
    // An entry over a quarter of the budget is not worth dropping everything else for (as the result cache).
    if (size > this.maxBytes / 4) return;
    if (this.count + 1 > this.maxEntries || this.bytes + size > this.maxBytes) this.clear();
    let entries = this.byLength.get(body.length);
    if (entries === undefined) this.byLength.set(body.length, (entries = []));
    const answer = Buffer.from(json, 'utf8');
    const existing = entries.findIndex(
      (entry) => entry.siteId === siteId && entry.schemaUid === schemaUid && entry.body.equals(body),
    );
    if (existing >= 0) this.remove(entries, existing);
    else if (entries.length >= RawBodyAnswers.PER_LENGTH) this.remove(entries, 0);
    // A copy of its own: the request's body may be a view of memory that is reused.
    entries.push({ schemaUid, siteId, body: Buffer.from(body), answer });
    this.count++;
    this.bytes += size;
  }

  clear(): void {
    this.byLength.clear();
    this.count = 0;
    this.bytes = 0;
  }

  private remove(entries: RawBodyEntry[], index: number): void {
    const [gone] = entries.splice(index, 1);
    this.count--;
    this.bytes -= gone!.body.length + gone!.answer.length;
  }
}
