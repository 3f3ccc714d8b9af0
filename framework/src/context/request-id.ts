import type { RoutingContext } from './routing-context';

/** Where a request's id is kept in its context (the requestId plugin puts it; logging and others read it). */
const REQUEST_ID = Symbol('rest.uws:request-id');

/** The request's id, undefined when the app does not use `requestId()` (or another plugin that sets one). */
export function requestIdOf(ctx: RoutingContext): string | undefined {
  return ctx.get<string>(REQUEST_ID);
}

/** Gives the request its id: the requestId plugin calls it, and so may a plugin of an app's own. */
export function setRequestId(ctx: RoutingContext, id: string): void {
  ctx.put(REQUEST_ID, id);
}
