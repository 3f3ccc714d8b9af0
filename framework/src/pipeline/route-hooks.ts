import type { RoutingContext } from '../context/routing-context';
import type { ResponseChunk, SentBody } from '../http/body-pipe';

/**
 * A hook run when the response head is about to be written with its first body bytes (or with an empty
 * body): it may change status and headers, and return a replacement for `body` (a complete body only:
 * streamed writes pass `undefined`, with `sent.streamed` true, and cannot be replaced). Either kind may be
 * sent through a transform instead: `ctx.response.streamBodyThrough(transform)` (compression does).
 */
export type SendHook = (
  ctx: RoutingContext,
  body: ResponseChunk | undefined,
  sent: SentBody,
) => ResponseChunk | undefined | void;

/**
 * An answer a plugin's hooks may give a route instead of the route's own (a 429 from a rate limit), told to
 * the API document (OpenAPI). It describes; it never runs.
 */
export interface RouteAnswer {
  /** The HTTP status. */
  status: number;
  /** What it means, for people reading the document. */
  description: string;
  /** Response headers sent with it, by name, each with what it says. */
  headers?: Readonly<Record<string, string>>;
  /**
   * The error the hook throws to give this answer (`TooManyRequestsException`): the document shows the body the
   * app's exception handlers write for it. Default: the HTTP error class of `status`.
   */
  error?: Function;
}

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
   * for this route only (compression). On a WebSocket upgrade, for a refusal's answer (a 101 has no body).
   */
  onSend?: SendHook;
  /**
   * `onSend` is not called for a complete body shorter than this many bytes (compression's threshold: small
   * answers then cost the route nothing). Streamed bodies always reach it. Default 0: every answer does.
   */
  onSendMinBytes?: number;
  /** The route reads the request body even without a body argument (it streams uploads, say). */
  needsBody?: boolean;
  /**
   * The answers these hooks may give instead of the route's own (a rate limit's 429), for the OpenAPI document:
   * decided with the hooks, so the document says what the route really does.
   */
  answers?: readonly RouteAnswer[];
  /**
   * Indexes of class-typed body parameters this plugin makes instances of itself when a built-in reader read them
   * (`bodyOriginOf(ctx)` says which did): the JSON reader then leaves its own shallow copy out, as the plugin
   * replaces the argument in `beforeHandler` anyway (validation does).
   */
  instantiatedBodies?: ReadonlySet<number>;
  /**
   * Those of `instantiatedBodies` whose build walks the whole parsed JSON and refuses it past `MAX_JSON_DEPTH`
   * levels (`assertJsonDepthFrom`, `RU_ERR_JSON_TOO_DEEP`) before any other code sees it: the JSON reader then
   * leaves its own depth check out. A plugin that claims it and does not check lets a deep body through.
   */
  depthBoundedBodies?: ReadonlySet<number>;
}
