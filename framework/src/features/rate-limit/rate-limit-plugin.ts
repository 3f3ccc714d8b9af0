import {
  ServiceUnavailableException,
  TooManyRequestsException,
  errors,
  isThenable,
  type HttpServerResponse,
  type Logger,
  type RestPlugin,
  type RouteAnswer,
  type RouteScope,
  type RoutingContext,
} from '../../plugin';
import type { RateLimitState, RateLimitWindow } from './gcra';
import { MemoryRateLimitStore } from './memory-store';
import { byAddress, byUser, requestKey, type RateLimitKey } from './rate-limit-keys';
import {
  checkRule,
  checkRuleName,
  RATE_LIMIT,
  SKIP_RATE_LIMIT,
  windowOf,
  type NamedRateLimitRule,
  type RateLimitRule,
} from './rate-limit-rule';
import type { RateLimitStore } from './store';

/** How `rateLimit()` counts: the store, the default key, a global rule, the headers, what a failing store does. */
export interface RateLimitOptions {
  /** Where hits are counted (default: a `MemoryRateLimitStore` of this app). */
  store?: RateLimitStore;
  /** Whose requests count together, for rules without their own `key` (default `byAddress`). */
  key?: RateLimitKey;
  /** A rule for every route and WebSocket upgrade of the app, except those marked `@SkipRateLimit()`. */
  global?: RateLimitRule;
  /**
   * Rules by name, for the routes marked `@RateLimit('name')`: the numbers set at startup (a flag, an
   * environment variable) while the decorator says where. The routes naming one rule share its bucket
   * (unless the rule names its own `bucket`).
   */
  rules?: Readonly<Record<string, RateLimitRule>>;
  /** Send `RateLimit-Limit`, `-Remaining` and `-Reset` on allowed answers too (default true; 429s always have them). */
  headers?: boolean;
  /**
   * When the store fails (its database is down): `'refuse'` answers 503 (default), `'allow'` lets the request
   * through. Either way the failure is logged.
   */
  onStoreError?: 'refuse' | 'allow';
}

/** A rule as one route runs it. */
interface RouteRule {
  bucket: string;
  key: RateLimitKey;
  window: RateLimitWindow;
  windowSeconds: number;
  afterAuthentication: boolean;
}

/**
 * Rate limiting: a token bucket per key (client address, API key, user, or a function of the request),
 * for the routes marked `@RateLimit(...)` and, with `global`, for every route. A request over the limit
 * gets 429 with `Retry-After`; answers carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
 * (seconds until the bucket is full again). Routes without a rule get no hook and pay nothing.
 *
 * ```ts
 * new RestBuilder().use(rateLimit({ key: byHeader('X-Api-Key'), global: { limit: 600, windowSeconds: 60 } }))
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): RestPlugin {
  if (options === null || typeof options !== 'object')
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS('rest.uws: rateLimit takes an options object');
  const global = options.global === undefined ? undefined : checkRule(options.global, 'rateLimit global');
  const defaultKey = options.key ?? byAddress;
  if (typeof defaultKey !== 'function')
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
      'rest.uws: rateLimit key must be a function of the request (byAddress, byHeader(name), byUser or your own)',
    );
  const store = options.store ?? new MemoryRateLimitStore();
  if (store === null || typeof store !== 'object' || typeof store.hit !== 'function')
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS('rest.uws: rateLimit store must have a hit(key, window) method');
  const onStoreError = options.onStoreError ?? 'refuse';
  if (onStoreError !== 'refuse' && onStoreError !== 'allow')
    throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
      `rest.uws: rateLimit onStoreError must be 'refuse' or 'allow', got ${JSON.stringify(onStoreError)}`,
    );
  const sendHeaders = options.headers !== false;
  const named = new Map<string, RateLimitRule>();
  if (options.rules !== undefined) {
    if (options.rules === null || typeof options.rules !== 'object')
      throw errors.RU_ERR_RATE_LIMIT_OPTIONS('rest.uws: rateLimit rules must be an object of rules by name');
    for (const [name, rule] of Object.entries(options.rules))
      named.set(checkRuleName(name, 'rateLimit rules'), checkRule(rule, `rateLimit rule ${JSON.stringify(name)}`));
  }

  const compile = (rule: RateLimitRule, bucket: string): RouteRule => {
    const key = rule.key ?? defaultKey;
    return {
      bucket: `${rule.bucket ?? bucket}\u0000`,
      key,
      window: windowOf(rule),
      windowSeconds: rule.windowSeconds,
      afterAuthentication: rule.afterAuthentication ?? key === byUser,
    };
  };
  const globalRule = global === undefined ? undefined : compile(global, 'global');

  const rulesOf = (route: RouteScope): RouteRule[] => {
    const { definition } = route;
    const rules: RouteRule[] = [];
    if (globalRule !== undefined && definition.extensions.get(SKIP_RATE_LIMIT) !== true) rules.push(globalRule);
    const own = definition.extensions.get(RATE_LIMIT) as RateLimitRule | NamedRateLimitRule | undefined;
    if (own === undefined) return rules;
    if ('name' in own) {
      const rule = named.get(own.name);
      if (rule === undefined) {
        const known = named.size > 0 ? `defined: ${[...named.keys()].join(', ')}` : 'it defines none';
        throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
          `rest.uws: ${definition.method} ${definition.path} is limited by @RateLimit(${JSON.stringify(own.name)}), a rule the rateLimit plugin's rules do not define (${known})`,
        );
      }
      rules.push(compile(rule, `rule ${own.name}`));
    } else {
      const onClass = definition.classExtensions.get(RATE_LIMIT) === own;
      rules.push(
        compile(own, onClass ? `class ${definition.resourceClass.name}` : `${definition.method} ${definition.path}`),
      );
    }
    return rules;
  };

  return {
    name: 'rate-limit',
    setup(app) {
      const health = new StoreHealth(() => app.logger);
      app.route((route) => {
        const rules = rulesOf(route);
        if (rules.length === 0) return undefined;
        const early = rules.filter((r) => !r.afterAuthentication);
        const late = rules.filter((r) => r.afterAuthentication);
        return {
          onMatch: early.length > 0 ? limiter(early, store, sendHeaders, onStoreError, health) : undefined,
          onRequest: late.length > 0 ? limiter(late, store, sendHeaders, onStoreError, health) : undefined,
          answers: answersOf(rules, onStoreError),
        };
      });
    },
  };
}

const LIMIT_HEADERS = {
  'Retry-After': 'Seconds until a request will be allowed again',
  'RateLimit-Limit': 'Requests allowed per window',
  'RateLimit-Remaining': 'Requests left now',
  'RateLimit-Reset': 'Seconds until the bucket is full again',
};

/** What a limited route may answer instead of itself, for the API document. */
function answersOf(rules: readonly RouteRule[], onStoreError: 'refuse' | 'allow'): RouteAnswer[] {
  const limits = rules.map((r) => `${r.window.limit} requests per ${r.windowSeconds} s`).join(', then ');
  const answers: RouteAnswer[] = [
    {
      status: 429,
      description: `Too many requests: over the rate limit (${limits})`,
      headers: LIMIT_HEADERS,
      error: TooManyRequestsException,
    },
  ];
  if (onStoreError === 'refuse')
    answers.push({
      status: 503,
      description: 'The rate limit cannot be checked right now (its store failed); retry shortly',
      headers: { 'Retry-After': 'Seconds to wait' },
      error: ServiceUnavailableException,
    });
  return answers;
}

/**
 * Logs the store's changes of state, not every failed hit: while its database is down every limited request
 * fails, and a line per request would bury the one that matters. One error when it starts failing, one info
 * line (with how many hits failed) once it works again.
 */
class StoreHealth {
  private failures = 0;

  constructor(private readonly logger: () => Logger) {}

  failed(err: unknown): void {
    if (this.failures++ === 0) this.logger().error({ err }, 'rate limit store failed');
  }

  worked(): void {
    if (this.failures === 0) return;
    this.logger().info({ failedHits: this.failures }, 'rate limit store works again');
    this.failures = 0;
  }
}

/**
 * A route's check: each rule in turn (the global one first); the first refusal answers 429 and counts
 * nothing further. With a synchronous store (memory) it stays synchronous.
 */
function limiter(
  rules: readonly RouteRule[],
  store: RateLimitStore,
  sendHeaders: boolean,
  onStoreError: 'refuse' | 'allow',
  health: StoreHealth,
): (ctx: RoutingContext) => void | Promise<void> {
  const storeFailed = (err: unknown): undefined => {
    health.failed(err);
    if (onStoreError === 'allow') return undefined;
    throw errors.RU_ERR_RATE_LIMIT_STORE('The rate limit cannot be checked right now; retry shortly', {
      headers: { 'Retry-After': '1' },
    });
  };
  const run = (ctx: RoutingContext, from: number, tightest: RateLimitState | undefined): void | Promise<void> => {
    for (let i = from; i < rules.length; i++) {
      const rule = rules[i]!;
      const key = rule.bucket + requestKey(rule.key, ctx);
      let out: RateLimitState | Promise<RateLimitState>;
      try {
        out = store.hit(key, rule.window);
      } catch (err) {
        storeFailed(err);
        continue;
      }
      if (isThenable(out)) {
        return Promise.resolve(out).then(
          (state) => {
            health.worked();
            return run(ctx, i + 1, judge(ctx.response, rule, state, tightest));
          },
          (err) => {
            storeFailed(err);
            return run(ctx, i + 1, tightest);
          },
        );
      }
      health.worked();
      tightest = judge(ctx.response, rule, out, tightest);
    }
    if (sendHeaders && tightest !== undefined) putHeaders(ctx.response, tightest);
  };
  return (ctx) => run(ctx, 0, undefined);
}

/** Refuses when the state says so; otherwise returns the state with the fewest requests left. */
function judge(
  response: HttpServerResponse,
  rule: RouteRule,
  state: RateLimitState,
  tightest: RateLimitState | undefined,
): RateLimitState {
  if (!state.allowed) {
    putHeaders(response, state);
    const retryAfter = Math.max(1, Math.ceil(state.retryAfterMs / 1000));
    throw errors.RU_ERR_RATE_LIMITED(
      `Rate limit exceeded: ${rule.window.limit} requests per ${rule.windowSeconds} s; retry in ${retryAfter} s`,
      { headers: { 'Retry-After': String(retryAfter) } },
    );
  }
  return tightest === undefined || state.remaining < tightest.remaining ? state : tightest;
}

/** The headers of the tightest rule: a later check (after authentication) replaces them only when it leaves fewer requests. */
function putHeaders(response: HttpServerResponse, state: RateLimitState): void {
  const current = response.getHeader('RateLimit-Remaining');
  if (state.allowed && current !== undefined && Number(current) <= state.remaining) return;
  response
    .putHeader('RateLimit-Limit', state.limit)
    .putHeader('RateLimit-Remaining', state.remaining)
    .putHeader('RateLimit-Reset', Math.ceil(state.resetMs / 1000));
}
