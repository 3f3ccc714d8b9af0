/** Rate limiting as a plugin: token buckets per key, in memory or in PostgreSQL. */
export { rateLimit, type RateLimitOptions } from './rate-limit-plugin';
export {
  RateLimit,
  SkipRateLimit,
  type RateLimitRule,
} from './rate-limit-rule';
export { byAddress, byHeader, byUser, type RateLimitKey } from './rate-limit-keys';
export type { RateLimitStore } from './store';
export type { RateLimitState, RateLimitWindow } from './gcra';
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './memory-store';
export {
  PostgresRateLimitStore,
  type PostgresRateLimitStoreOptions,
  type SqlQueryable,
  type SqlResult,
} from './postgres-store';
