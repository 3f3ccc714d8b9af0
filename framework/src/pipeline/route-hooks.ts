import type { RoutingContext } from '../context/routing-context';
import type { SendHook } from './plugin';

/**
 * What a plugin adds to one route, decided once per route at registration. Every part is optional;
 * a hook returns a promise only when it really waits (synchronous routes stay synchronous).
 */
export interface RouteHooks {
  /**
   * First of all, as soon as the route is matched: before the app's request providers and every plugin's
   * `onRequest` (authentication). For cheap refusals that must not wait for costlier checks (rate limits); throw to refuse.
   */
  onMatch?: (ctx: RoutingContext) => void | Promise<void>;
  /** Before the arguments are read (authentication, authorization, a route's rate limit): throw to refuse. */
  onRequest?: (ctx: RoutingContext) => void | Promise<void>;
  /**
   * After the arguments are read and converted, before the method runs (validation): `args` are the
   * method's arguments, which the hook may check or replace in place; throw to refuse.
   */
  beforeHandler?: (ctx: RoutingContext, args: unknown[]) => void | Promise<void>;
  /**
   * After the response was produced, with the method's entity or the error (events). Failures are
   * logged and never reach the client. Not run for WebSocket upgrades.
   */
  onResponse?: (ctx: RoutingContext, entity: unknown, error: unknown) => void | Promise<void>;
  /**
   * When this route's answer (or its error's) is about to be written, after the app's `onSend` hooks: as `app.onSend`,
   * for this route only (compression). Not run for WebSocket upgrades.
   */
  onSend?: SendHook;
  /** The route reads the request body even without a body argument (it streams uploads, say). */
  needsBody?: boolean;
  /**
   * @internal Indexes of class-typed body parameters this plugin makes instances of when a built-in
   * reader read them (validation): the JSON reader then leaves its shallow copy out.
   */
  instantiatedBodies?: ReadonlySet<number>;
}
