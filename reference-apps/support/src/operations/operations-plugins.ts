import {
  compression,
  health,
  MemoryRateLimitStore,
  requestId,
  trustProxy,
  type RateLimitOptions,
  type ReadinessCheck,
  type RestBuilder,
} from 'rest.uws';
import type { TrustProxySetting } from './operations-settings';

/** What `useOperations` plugs in: whom to trust as a proxy, what readiness checks. */
export interface OperationsOptions {
  /** Which proxies' X-Forwarded-* headers count (client address, protocol, host): default off. */
  trustProxy?: TrustProxySetting;
  /** What `/ready` checks (the database); none: ready while not shutting down. */
  readiness?: readonly ReadinessCheck[];
}

/**
 * The operational plugins of the reference apps, in their order: `requestId()` first (every answer, the probes' too,
 * carries `X-Request-Id`), `trustProxy(setting)`, `health({ checks })` (`/health`, `/ready`), `compression()`, and
 * the access log (`logRequests()`: a line per request with its `reqId`, when the app's logger has `info` on).
 */
export function useOperations(builder: RestBuilder, options: OperationsOptions = {}): RestBuilder {
  return builder
    .use(requestId())
    .use(trustProxy(options.trustProxy ?? false))
    .use(health({ checks: options.readiness ?? [] }))
    .use(compression())
    .logRequests();
}

/** An app's rate limit: `limit` requests per `windowSeconds` per key (a token bucket: bursts up to `limit`). */
export interface AppRateLimit {
  limit: number;
  /** Default 60: `limit` is per minute. */
  windowSeconds?: number;
  /** Where requests are counted (default: memory, this process); PostgreSQL shares the limits between instances. */
  store?: RateLimitOptions['store'];
  /** What a failing store does (default 'refuse': 503 with Retry-After: 1; with the memory store, 'allow'). */
  onStoreError?: RateLimitOptions['onStoreError'];
}

/**
 * `store` and `onStoreError` for rest.uws `rateLimit(...)` from an app's limit: its own store (refusing while it
 * fails, unless it says otherwise), or memory, which cannot fail, so that no 503 is documented for it.
 */
export function rateLimitStoreOptions(
  limit: Pick<AppRateLimit, 'store' | 'onStoreError'>,
): Required<Pick<RateLimitOptions, 'store' | 'onStoreError'>> {
  if (limit.store === undefined) return { store: new MemoryRateLimitStore(), onStoreError: 'allow' };
  return { store: limit.store, onStoreError: limit.onStoreError ?? 'refuse' };
}
