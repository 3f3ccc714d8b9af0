import { SetMetadata, errors } from '../../plugin';
import type { RateLimitWindow } from './gcra';
import type { RateLimitKey } from './rate-limit-keys';

/** A limit: `limit` requests per `windowSeconds` for each key (a token bucket: bursts up to `limit`). */
export interface RateLimitRule {
  /** Requests allowed per window (and the largest burst). A whole number, at least 1. */
  limit: number;
  /** The window, in seconds (fractions allowed). */
  windowSeconds: number;
  /** Whose requests count together (default: the plugin's `key`, else the client address). */
  key?: RateLimitKey;
  /**
   * Routes naming the same bucket share its counts. Default: each decorated method has its own, a
   * decorated class one for all its routes, and the global rule one for the whole app.
   */
  bucket?: string;
  /**
   * Count after authentication instead of before it (default: only for `byUser`, which needs the user). Counting
   * first refuses floods before they cost a credential check, and counts requests that fail authentication too.
   */
  afterAuthentication?: boolean;
}

/** Metadata key of `@RateLimit`. */
export const RATE_LIMIT = Symbol('rest.uws:rate-limit');
/** Metadata key of `@SkipRateLimit`. */
export const SKIP_RATE_LIMIT = Symbol('rest.uws:skip-rate-limit');

/** Checks a rule where it is written (a decorator, the plugin's options): mistakes fail at startup. */
export function checkRule(rule: RateLimitRule, where: string): RateLimitRule {
  if (rule === null || typeof rule !== 'object')
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(`rest.uws: ${where} takes { limit, windowSeconds }`);
  const { limit, windowSeconds, key, bucket, afterAuthentication } = rule;
  if (!Number.isInteger(limit) || limit < 1)
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
      `rest.uws: ${where}: limit must be a whole number of requests, at least 1 (got ${limit})`,
    );
  if (typeof windowSeconds !== 'number' || !Number.isFinite(windowSeconds) || windowSeconds <= 0) {
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
      `rest.uws: ${where}: windowSeconds must be a positive number of seconds (got ${windowSeconds})`,
    );
  }
  if (key !== undefined && typeof key !== 'function')
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
      `rest.uws: ${where}: key must be a function of the request (byAddress, byHeader(name), byUser or your own)`,
    );
  if (bucket !== undefined && (typeof bucket !== 'string' || bucket.length === 0))
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(`rest.uws: ${where}: bucket must be a non-empty name`);
  if (afterAuthentication !== undefined && typeof afterAuthentication !== 'boolean')
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(`rest.uws: ${where}: afterAuthentication must be true or false`);
  return rule;
}

/** The numbers the stores use. */
export function windowOf(rule: RateLimitRule): RateLimitWindow {
  return { limit: rule.limit, windowMs: rule.windowSeconds * 1000 };
}

/** A rule's name as `@RateLimit('name')` gives it: the numbers come from the plugin's `rules` (set at startup). */
export interface NamedRateLimitRule {
  readonly name: string;
}

/** Checks a rule's name where it is written: letters, digits and `._:-`, 1 to 64 characters. */
export function checkRuleName(name: string, where: string): string {
  if (typeof name !== 'string' || !/^[A-Za-z0-9._:-]{1,64}$/.test(name)) {
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
      `rest.uws: ${where}: a rule name is 1 to 64 letters, digits and ._:- (got ${JSON.stringify(name)})`,
    );
  }
  return name;
}

/**
 * Limits a route, or every route of a class (one bucket for the class), to `limit` requests per
 * `windowSeconds` per key. Takes effect in apps that use the `rateLimit()` plugin.
 *
 * With a name instead of a rule, the numbers come from the plugin's `rules` option, so they can be set at
 * startup (a flag, an environment variable); every route naming the rule shares one bucket unless the rule
 * names its own `bucket`. A name the plugin does not define fails when the app is built.
 *
 * ```ts
 * @POST @Path('/login') @RateLimit({ limit: 5, windowSeconds: 60 })
 * login(body: Credentials) { ... }
 *
 * @POST @Path('/exports') @RateLimit('exports')       // rateLimit({ rules: { exports: { limit: config.exportsPerMinute, windowSeconds: 60 } } })
 * createExport(body: ExportRequest) { ... }
 * ```
 */
export function RateLimit(rule: RateLimitRule | string): ClassDecorator & MethodDecorator {
  if (typeof rule === 'string')
    return SetMetadata<NamedRateLimitRule>(RATE_LIMIT, { name: checkRuleName(rule, '@RateLimit') });
  return SetMetadata(RATE_LIMIT, checkRule(rule, '@RateLimit'));
}

/** Exempts a route (or a class) from the plugin's global rule; its own `@RateLimit` still applies. */
export function SkipRateLimit(): ClassDecorator & MethodDecorator {
  return SetMetadata(SKIP_RATE_LIMIT, true);
}
