import type { RoutingContext } from './routing-context';

/** Marks a request whose access log line is left out (health checks). */
const UNLOGGED = Symbol('rest.uws:unlogged');

/** Leaves this request out of the access log (`logRequests`): health checks and probes call it. */
export function excludeFromAccessLog(ctx: RoutingContext): void {
  ctx.put(UNLOGGED, true);
}

/** Whether the request was left out of the access log (what the request logging plugin asks). */
export function isExcludedFromAccessLog(ctx: RoutingContext): boolean {
  return ctx.has(UNLOGGED);
}
