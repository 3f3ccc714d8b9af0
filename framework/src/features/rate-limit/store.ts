import type { RateLimitState, RateLimitWindow } from './gcra';

/**
 * Where rate limits are counted. `hit` counts one request of `key` under `window` atomically and says
 * whether it may go on; a store shared by several instances (PostgreSQL) makes them share limits.
 * A store of your own (Redis...) implements this one method.
 */
export interface RateLimitStore {
  /** Counts one request of `key` (a bucket name and the client's key) and returns the key's state after it. */
  hit(key: string, window: RateLimitWindow): RateLimitState | Promise<RateLimitState>;
}
