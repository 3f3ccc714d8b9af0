import type {
  ContextProvider,
  ContextProviderFunction,
  ExceptionHandler,
  HttpResponseWriter,
  ValueReader,
} from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import type { OriginResolver } from '../http/client-origin';
import type { Provided } from '../io/registry';
import type { RouteDefinition } from '../metadata/route-definition';
import type { ClassMetadata, Constructor, MethodMetadata } from '../metadata/types';
import type { ComponentFactory, ComponentFiller } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import type { Logger } from '../util/log';
import type { RouteAnswer, RouteHooks, SendHook } from './route-hooks';
import type { WebSocketRoute } from './websocket-route';

export type { ComponentFill, ComponentFiller } from '../settings/components';
export type { SendHook };

/**
 * A plugin: a name and a `setup` that adds to an app's lifecycle points, routes, readers, writers,
 * providers, exception handlers and settings. Built-in features (security, validation, events, CORS,
 * static files, uploads, OpenAPI, request logging, WebSocket endpoints) are plugins too.
 *
 * ```ts
 * const timing: RestPlugin = {
 *   name: 'timing',
 *   setup(app) {
 *     app.onRequest((ctx) => void ctx.put(START, performance.now()));
 *     app.onSend((ctx) => ctx.response.putHeader('Server-Timing', `app;dur=${performance.now() - ctx.get<number>(START)!}`));
 *   },
 * };
 * new RestBuilder().use(timing)
 * ```
 */
export interface RestPlugin {
  /** Names the plugin in errors and logs; an app takes a plugin of one name once (a second `use` replaces the first). */
  readonly name: string;
  /** Called once per app, when the app is built (or at once on an app already built). */
  setup(app: PluginContext): void;
}

/** A hook run for every request before routing; returns true when it answered the request itself. */
export type RequestHook = (ctx: RoutingContext) => boolean | void;
/** A hook run once per request when its response ended or its client left (`ctx.response.aborted()`). */
export type ResponseHook = (ctx: RoutingContext) => void;
/** A hook told about every error on its way to the exception handlers (it observes; the handlers answer). */
export type ErrorHook = (error: unknown, ctx: RoutingContext) => void;
/** A hook told that the server began a graceful shutdown (it stops taking connections and drains). */
export type ShutdownHook = () => void;

/** Fields a plugin adds to a request's log lines (`{ trace_id, span_id }`): names to JSON-writable values. */
export type LogFields = Readonly<Record<string, unknown>>;
/**
 * Gives the fields a plugin adds to one request's log lines (the `RequestLogger`'s lines and the access line), or
 * undefined for none. Asked when the request's `RequestLogger` is made and when its access line is written.
 */
export type LogFieldProvider = (ctx: RoutingContext) => LogFields | undefined;

/** Pauses and resumes the reading of a streamed request body, for a consumer that writes it slower than it comes. */
export interface BodyFlow {
  /** Stops reading the body from the client until `resume` (the client's sends then block on TCP). */
  pause(): void;
  /** Reads the body again. */
  resume(): void;
}

/** Takes a streamed request body chunk by chunk (chunks are copies, safe to keep). */
export interface BodyConsumer {
  /** Largest body accepted; over it the request gets 413 and `abort` is called. */
  limit: number;
  /** The next chunk of the body (a copy: safe to keep). A throw refuses the body. */
  write(chunk: Buffer): void;
  /** The body is complete: finish (e.g. flush files), then the routes run. A rejection goes to the exception handlers. */
  end(): void | Promise<void>;
  /** The client went away or the body was refused: clean up (e.g. delete partial files). */
  abort(): void;
  /** The request is over (routes, writer and events done, or the client left after the body): release what the body left (e.g. uploaded files). */
  finished?(): void;
  /**
   * Given once, before the first chunk, when the server can pause reading the body: a consumer that falls behind
   * (uploads waiting for the disk) pauses it, and resumes it once caught up. Calls after the request ended are ignored.
   */
  takeFlow?(flow: BodyFlow): void;
}

/** Decides whether a request's body is streamed to a consumer (uploads) rather than buffered. */
export type BodyStreamer = (
  ctx: RoutingContext,
  routes: ReadonlyArray<{ readonly definition: RouteDefinition }>,
) => BodyConsumer | undefined;

/** What a plugin sees of one route while deciding the route's hooks, once, at registration. */
export interface RouteScope {
  /** The route's definition: path, method, media types, parameters, and every decorator's metadata (`extensions`). */
  readonly definition: RouteDefinition;
  /** `'http'` for routes; `'websocket'` for the upgrade of a WebSocket endpoint (which has no body, writer or events). */
  readonly kind: 'http' | 'websocket';
  /** What the decorators recorded on the route's class (its `@ResponseWriter`, `@Produces`...), as written. */
  readonly classMeta: ClassMetadata;
  /** What the decorators recorded on the route's method; it overrides the class's where both set a part. */
  readonly methodMeta: MethodMetadata;
  /** The app's settings over the global ones. */
  readonly settings: SettingsView;
  /** Creates (and caches) components: providers, readers, writers, handlers. */
  readonly components: ComponentFactory;
  /** The app's logger. */
  readonly logger: Logger;
}

/** What a plugin sees of a registered class that is no REST class of routes (WebSocket endpoints). */
export interface ClassScope {
  /** The registered class. */
  readonly resourceClass: Constructor;
  /** Its instance (the one given, or made by the app's injection provider). */
  readonly instance: object;
  /** Every class decorator's metadata, by the decorator's key (`SetMetadata`). */
  readonly extensions: ReadonlyMap<symbol, unknown>;
  /** What the decorators recorded on the class, as written (its `extensions` are `SetMetadata`'s). */
  readonly metadata: ClassMetadata;
  /** The app's settings over the global ones. */
  readonly settings: SettingsView;
  /** Creates (and caches) components: providers, readers, writers, handlers. */
  readonly components: ComponentFactory;
  /** The app's logger. */
  readonly logger: Logger;
}

/** Decides a route's hooks (or none: the route then pays nothing for the plugin). */
export type RouteHookFactory = (route: RouteScope) => RouteHooks | undefined;
/** Registers what a class's metadata asks for besides HTTP routes; returns true when it took the class. */
export type ClassHandler = (scope: ClassScope) => boolean;

/** What `setup` may do to an app. Hooks run in the order plugins were added, built-in features first. */
export interface PluginContext {
  /** The app's settings layered over the global ones (read a plugin's own settings with `settings.extension(key)`). */
  readonly settings: SettingsView;
  /** The app's logger. */
  readonly logger: Logger;
  /** Creates (and caches) the app's components: providers, readers, writers, handlers. */
  readonly components: ComponentFactory;
  /** The uWebSockets.js app (for plugins that talk to it directly; most never need it). */
  readonly app: unknown;

  /** Runs for every request before routing (404s included); a hook that answers returns true and no later hook or route runs. */
  onRequest(hook: RequestHook): void;
  /** Runs once per request after its response ended, or its client left. */
  onResponse(hook: ResponseHook): void;
  /** Told about every error before the exception handlers answer it. */
  onError(hook: ErrorHook): void;
  /** Runs just before the response head and first body bytes are written. */
  onSend(hook: SendHook): void;
  /** Adds per-route hooks, decided once per route at registration (compiled into the route, never looped over). */
  route(factory: RouteHookFactory): void;
  /**
   * Told once when the server serving the app (`startServer`, `serve`) begins a graceful shutdown, before it
   * drains the requests in flight: readiness checks answer 503 from then on.
   */
  onShutdown(hook: ShutdownHook): void;
  /**
   * Adds fields to the log lines of requests: the lines written through the request's `RequestLogger` and its
   * access line (`logRequests`). The OpenTelemetry plugin adds `trace_id`, `span_id` and `trace_flags` this way.
   * With no provider, `logFieldsOf` answers undefined at once and nothing is asked per request.
   */
  logFields(provider: LogFieldProvider): void;
  /**
   * The fields the plugins' providers give for a request's log lines, merged in the order the plugins were added
   * (undefined when no provider gives any). For plugins that write a request's lines (request logging).
   */
  logFieldsOf(ctx: RoutingContext): LogFields | undefined;

  /** Registers REST classes or instances. */
  register(...resources: Array<Constructor | object>): void;
  /** A reader for a class type or media type. */
  reader(typeOrMediaType: Function | string | Provided<ValueReader>, reader?: Provided<ValueReader>): void;
  /** A writer for a class type or media type. */
  writer(
    typeOrMediaType: Function | string | Provided<HttpResponseWriter>,
    writer?: Provided<HttpResponseWriter>,
  ): void;
  /**
   * An exception handler tried after the app's own handlers and before the built-in one (a plugin's
   * errors keep their own answer unless the app overrides it).
   */
  errorHandler(errorType: Function, handler: Provided<ExceptionHandler<any>>): void;
  /** A provider for `@Context` arguments of `type`. */
  addProvider<T>(type: Function, provider: Provided<ContextProvider<T>> | ContextProviderFunction<T>): void;
  /**
   * Reads every request's client address, protocol and host behind proxies (`trustProxy`): `remoteAddress()`,
   * `protocol()` and `host()` call it once, when first asked. One per app; WebSocket upgrades use it too.
   */
  resolveOrigin(resolver: OriginResolver): void;
  /** Streams request bodies it takes (uploads); others are buffered. One streamer per app. */
  bodyStreamer(streamer: BodyStreamer): void;
  /**
   * Fills the fields of components made per request (readers, writers, exception handlers, providers and events
   * with `@Context` fields, or marked `@NoCache`): `filler(type)` is asked once per class, when it is bound at
   * registration, and returns what fills a new instance from the request, or undefined. One per app: the built-in
   * injection plugin's fills `@Context` fields.
   */
  fillComponents(filler: ComponentFiller): void;
  /** Handles registered classes that declare no routes of their own (WebSocket endpoints). */
  classHandler(handler: ClassHandler): void;
  /** Gives a WebSocket endpoint a route on the server. */
  webSocket(route: WebSocketRoute): void;

  /** The definitions of every route registered so far (OpenAPI). */
  routes(): readonly RouteDefinition[];
  /**
   * The WebSocket endpoints declared so far (AsyncAPI), each with the definition of its upgrade: a `GET` route whose
   * parameters are `open`'s arguments and whose decorators are the endpoint class's (its security).
   */
  webSockets(): ReadonlyArray<{
    /** The endpoint as it was declared. */
    readonly route: WebSocketRoute;
    /** Its upgrade's definition. */
    readonly definition: RouteDefinition;
  }>;
  /** What the plugins' hooks may answer on a route instead of the route itself (their `answers`), for API documents. */
  routeAnswers(route: RouteDefinition): readonly RouteAnswer[];
  /**
   * The exception handlers in the order they are tried: the route's own `@CatchWith` (given a route), the app's,
   * then the plugins' (`handler` is undefined for a handler made per request). API documents read what bodies they write.
   */
  errorHandlers(route?: RouteDefinition): ReadonlyArray<{
    /** The error class it takes (`@Handles`, or the type it was registered for). */
    readonly type: Function;
    /** The handler (undefined when one is made per request). */
    readonly handler: object | undefined;
    /** The route's own (`@CatchWith`): it answers errors of the route, not those raised before the route is found (404, a bad path, 413). */
    readonly own?: true;
  }>;
  /** Answers a request through the app's exception handlers (for hooks that refuse a request). */
  fail(ctx: RoutingContext, error: unknown): void | Promise<void>;
}
