/**
 * The generic cell rate algorithm: a token bucket kept as one number per key, the time at which the
 * bucket would be full again (its "theoretical arrival time", TAT). A rule of `limit` requests per
 * `windowMs` lets one request through every `windowMs / limit` ms on average, and a burst of up to
 * `limit` at once after a quiet window. Memory and PostgreSQL stores run the same arithmetic.
 */

/** A rule's numbers as the stores need them. */
export interface RateLimitWindow {
  /** Requests a full bucket holds (the burst), and the requests allowed per window on average. */
  readonly limit: number;
  /** The window in milliseconds: an empty bucket fills again in this time. */
  readonly windowMs: number;
}

/** A key's state after one hit: what the response headers say. */
export interface RateLimitState {
  /** Whether this request may go on. */
  allowed: boolean;
  /** The rule's limit (`RateLimit-Limit`). */
  limit: number;
  /** Requests still allowed right now (`RateLimit-Remaining`). */
  remaining: number;
  /** Milliseconds until the bucket is full again (`RateLimit-Reset`). */
  resetMs: number;
  /** Milliseconds until the next request is allowed (0 when allowed; `Retry-After` when refused). */
  retryAfterMs: number;
}

/** Floating-point slack: `limit` steps of `windowMs / limit` may add up to a hair over `windowMs`. */
const EPSILON = 1e-6;

/** The emission interval: one request's share of the window. */
export function intervalOf(window: RateLimitWindow): number {
  return window.windowMs / window.limit;
}

/**
 * One hit at `now` against a key whose TAT is `tat` (undefined: never seen, or forgotten). Returns the
 * state and the TAT to store (unchanged when refused: a refused request costs nothing).
 */
export function hitAt(
  tat: number | undefined,
  now: number,
  window: RateLimitWindow,
): { state: RateLimitState; tat: number } {
  const interval = intervalOf(window);
  const start = tat === undefined || tat < now ? now : tat;
  const next = start + interval;
  const allowed = next - now <= window.windowMs + EPSILON;
  return { state: stateAfter(allowed, allowed ? next : start, now, window), tat: allowed ? next : start };
}

/** The state a key is in at `now` with TAT `tat`, after a hit that was `allowed` (or not). */
export function stateAfter(allowed: boolean, tat: number, now: number, window: RateLimitWindow): RateLimitState {
  const interval = intervalOf(window);
  const ahead = Math.max(0, tat - now);
  if (!allowed) {
    // The next request fits once the bucket has drained one interval's worth.
    return {
      allowed,
      limit: window.limit,
      remaining: 0,
      resetMs: ahead,
      retryAfterMs: Math.max(0, ahead + interval - window.windowMs),
    };
  }
  const remaining = Math.max(0, Math.floor((window.windowMs - ahead) / interval + EPSILON));
  return { allowed, limit: window.limit, remaining, resetMs: ahead, retryAfterMs: 0 };
}
