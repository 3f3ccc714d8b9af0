import { hitAt, type RateLimitState, type RateLimitWindow } from './gcra';
import type { RateLimitStore } from './store';
import { errors } from '../../plugin';

/** Settings of the in-memory store: how many keys it remembers, and its clock. */
export interface MemoryRateLimitStoreOptions {
  /**
   * Keys remembered at most (default 100,000, a few MB). Past it the key seen least recently is forgotten,
   * which gives it a full bucket again: bounded memory under a flood of keys, at the price of the oldest
   * keys' state.
   */
  maxKeys?: number;
  /** The clock, in milliseconds (default `Date.now`; tests pass their own). */
  now?: () => number;
}

/**
 * Rate limits counted in this process's memory: one number per key, kept in the order keys were last seen,
 * so keys whose bucket is full again are dropped from the front as requests come (a key forgotten and a
 * key with a full bucket are the same). Several processes (workers, instances) each count their own: use
 * a shared store (`PostgresRateLimitStore`) when they must share limits.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly tats = new Map<string, number>();
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    const maxKeys = options.maxKeys ?? 100_000;
    if (!Number.isInteger(maxKeys) || maxKeys < 1)
      throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
        `rest.uws: MemoryRateLimitStore maxKeys must be a whole number of at least 1, got ${maxKeys}`,
      );
    this.maxKeys = maxKeys;
    this.now = options.now ?? Date.now;
  }

  /** Keys remembered now. */
  get size(): number {
    return this.tats.size;
  }

  hit(key: string, window: RateLimitWindow): RateLimitState {
    const now = this.now();
    const tats = this.tats;
    const { state, tat } = hitAt(tats.get(key), now, window);
    // Deleted and set again: the map stays ordered by when each key was last seen.
    tats.delete(key);
    tats.set(key, tat);
    this.forgetOld(now);
    return state;
  }

  /** Drops full buckets from the front (at most two a hit: amortised), and the oldest keys past `maxKeys`. */
  private forgetOld(now: number): void {
    const tats = this.tats;
    let checked = 0;
    for (const [key, tat] of tats) {
      if (tats.size > this.maxKeys || (tat <= now && checked < 2)) tats.delete(key);
      else break;
      checked++;
    }
  }
}
