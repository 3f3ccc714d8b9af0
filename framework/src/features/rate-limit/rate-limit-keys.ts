import { createHash } from 'node:crypto';
import { errors, type RoutingContext } from '../../plugin';

/**
 * Whose requests a rule counts together: a key per request, or undefined when the request has none of
 * its kind (no API key, no user), which then counts by the client's address.
 */
export type RateLimitKey = (ctx: RoutingContext) => string | undefined;

/** By the client's address (`ctx.request.remoteAddress()`, proxy-aware when the app trusts its proxies). */
export const byAddress: RateLimitKey = (ctx) => ctx.request.remoteAddress();

/** By a request header (an API key), e.g. `byHeader('X-Api-Key')`; requests without it count by address. */
export function byHeader(name: string): RateLimitKey {
  if (typeof name !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name))
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(`rest.uws: byHeader needs a header name, got ${JSON.stringify(name)}`);
  const lower = name.toLowerCase();
  return (ctx) => {
    const value = ctx.request.getHeader(lower);
    return value === undefined || value === '' ? undefined : value;
  };
}

/** By the authenticated user's name (after `@Authenticate`); anonymous requests count by address. */
export const byUser: RateLimitKey = (ctx) => ctx.user()?.name;

/** The key a request counts under: kind-prefixed, so an API key can never share a bucket with an address. */
export function requestKey(key: RateLimitKey, ctx: RoutingContext): string {
  const own = key === byAddress ? undefined : key(ctx);
  // A long key is kept as its hash: memory per key stays small whatever a client sends.
  if (own !== undefined)
    return own.length > 128 ? `h:${createHash('sha256').update(own).digest('base64url')}` : `k:${own}`;
  return `a:${ctx.request.remoteAddress()}`;
}
