import diagnostics from 'node:diagnostics_channel';
import type { RoutingContext } from '../context/routing-context';
import type { WebSocketConnection } from '../context/websocket-connection';
import type { RouteDefinition } from '../metadata/route-definition';

/**
 * The `node:diagnostics_channel` tracing channels of the request lifecycle (lifecycle.ts publishes them). A tracing
 * channel is five channels, `tracing:<name>:start`, `:end`, `:asyncStart`, `:asyncEnd` and `:error`, all given the
 * same message object. Nothing is built or published while no channel has a subscriber: the lifecycle asks
 * `tracingActive()` once per request and takes its untraced path otherwise.
 */

/** The name of the HTTP request channel: from the transport's callback to the answer sent (or the client gone). */
export const REQUEST_CHANNEL = 'rest.uws.request';
/** The name of the handler channel: the route's method, from its call to its result (a promise's settling). */
export const HANDLER_CHANNEL = 'rest.uws.request.handler';
/** The name of the WebSocket upgrade channel: from the upgrade request to the 101 (or the refusal) sent. */
export const UPGRADE_CHANNEL = 'rest.uws.websocket.upgrade';

/** The name of the WebSocket message channel: an endpoint's `message` method, from its call to its result. */
export const MESSAGE_CHANNEL = 'rest.uws.websocket.message';

/**
 * The message of the request and upgrade channels. `start` is published before anything else runs (framing included),
 * inside `start.runStores`, so stores bound to it hold for the synchronous run and what it schedules; `end` when the
 * transport's callback returns; `asyncStart` then `asyncEnd` once the response ended or the client left (`aborted`);
 * `error` for each error on its way to the exception handlers (`error` holds it; the answer still follows).
 */
export interface RequestTrace {
  /**
   * The app the request came to: the same object as `PluginContext.app`, so a plugin used on some apps of a process
   * tells their requests from the others' (the channels are the process's).
   */
  readonly app: unknown;
  /** The request's context: `ctx.request`, `ctx.response` (status, headers), `ctx.route()` once a route matched. */
  readonly ctx: RoutingContext;
  /** The method as the transport read it. */
  readonly method: string;
  /** The path as the transport read it (no query). */
  readonly url: string;
  /** For an upgrade: the endpoint's route (its `path` is the template); for an HTTP request: undefined. */
  readonly route: RouteDefinition | undefined;
  /** The last error that reached the exception handlers, if any. */
  error?: unknown;
  /** Set at `asyncEnd`: the client left before the answer ended. */
  aborted?: boolean;
}

/**
 * The message of the handler channel: `start` before the method is called (inside `start.runStores`, so stores bound
 * to it hold in the method, also when the route waited for its body first), `end` when the call returns;
 * `asyncStart`/`asyncEnd` when a returned promise settles; `error` when the method throws or its promise rejects.
 */
export interface HandlerTrace {
  /** The request's context. */
  readonly ctx: RoutingContext;
  /** The route whose method runs (`route.path` is its template, `route.methodName` the method). */
  readonly route: RouteDefinition;
  /** The method's arguments. */
  readonly args: readonly unknown[];
  /** What the method returned (a promise's value once settled). */
  result?: unknown;
  /** What the method threw, or its promise rejected with. */
  error?: unknown;
}

/**
 * The message of the WebSocket message channel: `start` before the endpoint's `message` method is called (inside
 * `start.runStores`, so stores bound to it hold in the method), `end` when the call returns; `asyncStart`/`asyncEnd`
 * when a returned promise settles (`async` is true then, already at `end`); `error` when the method throws or its
 * promise rejects. Published only while the channel has a subscriber.
 */
export interface MessageTrace {
  /** The app of the endpoint: the same object as `PluginContext.app`. */
  readonly app: unknown;
  /** The connection the message came on (`connection.request` is its upgrade request). */
  readonly connection: WebSocketConnection;
  /** The endpoint's upgrade route (`route.path` is the endpoint's template, `/live/{room}`). */
  readonly route: RouteDefinition;
  /** The message: a string for a text frame, a Buffer for a binary one. */
  readonly data: string | Buffer;
  /** Whether the frame was binary. */
  readonly isBinary: boolean;
  /** Set before `end`: the method returned a promise, and `asyncStart`/`asyncEnd` follow when it settles. */
  async?: boolean;
  /** What the method returned (a promise's value once settled). */
  result?: unknown;
  /** What the method threw, or its promise rejected with. */
  error?: unknown;
}

export const requestChannel = diagnostics.tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);
export const handlerChannel = diagnostics.tracingChannel<unknown, HandlerTrace>(HANDLER_CHANNEL);
export const upgradeChannel = diagnostics.tracingChannel<unknown, RequestTrace>(UPGRADE_CHANNEL);
export const messageChannel = diagnostics.tracingChannel<unknown, MessageTrace>(MESSAGE_CHANNEL);

/** Whether a tracing channel has a subscriber on any of its five channels (or a store bound to one). */
export function subscribed(channel: diagnostics.TracingChannel<unknown, any>): boolean {
  return (
    channel.start.hasSubscribers ||
    channel.end.hasSubscribers ||
    channel.asyncStart.hasSubscribers ||
    channel.asyncEnd.hasSubscribers ||
    channel.error.hasSubscribers
  );
}

let active = false;

/**
 * Whether any tracing channel of the lifecycle has a subscriber (or a bound store): asked once per request, so it is
 * one variable, not the fifteen `hasSubscribers` reads of `subscribed` on the three channels (about 240 machine
 * instructions per request, 1.6% of a plain route, measured with benchmarks/tools/instructions-per-request.js).
 * `diagnostics_channel` tells no one of a subscription, so each of the fifteen channel objects gets its own
 * `subscribe`, `unsubscribe`, `bindStore` and `unbindStore`, which run the channel's and then read the fifteen
 * again. Every way to subscribe goes through them: `tracingChannel(name).subscribe(...)`, `channel(name)` and
 * `diagnostics_channel.subscribe(name, fn)` all reach these objects (a channel's name maps to one object while it
 * lives, and this module keeps them alive).
 */
export function tracingActive(): boolean {
  return active;
}

const WATCHED = ['subscribe', 'unsubscribe', 'bindStore', 'unbindStore'] as const;

function watch(channel: diagnostics.Channel): void {
  for (const name of WATCHED) {
    Object.defineProperty(channel, name, {
      configurable: true,
      writable: true,
      enumerable: false,
      // The prototype's method: a channel switches prototypes as it gains its first and loses its last subscriber.
      value(this: diagnostics.Channel, ...args: unknown[]): unknown {
        try {
          return Reflect.apply((Object.getPrototypeOf(this) as Record<string, Function>)[name]!, this, args);
        } finally {
          active = subscribed(requestChannel) || subscribed(handlerChannel) || subscribed(upgradeChannel);
        }
      },
    });
  }
}

for (const tracing of [requestChannel, handlerChannel, upgradeChannel]) {
  for (const channel of [tracing.start, tracing.end, tracing.asyncStart, tracing.asyncEnd, tracing.error])
    watch(channel as diagnostics.Channel);
}
active = subscribed(requestChannel) || subscribed(handlerChannel) || subscribed(upgradeChannel);
