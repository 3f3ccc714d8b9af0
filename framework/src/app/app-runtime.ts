import { compileRoute, type CompiledRoute, type RouteSource } from '../pipeline/route-compiler';
import type { BoundHandler, ErrorPolicy } from '../pipeline/exception-handling';
import type { RestPlugin } from '../pipeline/plugin';
import type { RouteAnswer } from '../pipeline/route-hooks';
import type { RouteDefinition } from '../metadata/route-definition';
import { compileUpgrade } from '../pipeline/compile-upgrade';
import type { CompileContext } from '../pipeline/compile-context';
import type { WebSocketEndpoint, WebSocketRoute } from '../pipeline/websocket-route';
import { pluginContext } from './plugin-context';
import { PluginHooks } from './plugin-host';
import type { ExceptionHandler, NotFoundResponseWriter } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import type { Exchange } from '../pipeline/exchange';
import { bindHandler, handleError } from '../pipeline/exception-handling';
import { MethodNotAllowedException, NotFoundException, RegistrationError } from '../errors/http-errors';
import { registryGeneration } from '../io/generation';
import type { Provided } from '../io/registry';
import { consoleLogger, type Logger } from '../util/log';
import { resolvedClassMetadata } from '../metadata/store';
import { HTTP_METHODS, type Constructor, type HttpMethod } from '../metadata/types';
import { compilePathPattern, joinPaths } from '../routing/path-pattern';
import type { Router, RouteSlot } from '../routing/router';
import { TrieRouter } from '../routing/trie-router';
import { ComponentFactory, isClass } from '../settings/components';
import { SettingsView, type NotFoundEntry } from '../settings/settings';
import { isThenable } from '../pipeline/context-values';
import { kParamNames } from '../http/internal';
import { DefaultHead } from '../http/default-head';

/** A registered route and its compiled form, rebuilt when global registries change. */
export interface RouteHolder {
  /** The class, method and pattern the route came from. */
  source: RouteSource;
  /** The route's handler and definition, rebuilt when global registries change. */
  compiled: CompiledRoute;
  /** The path variables' names, in pattern order. */
  paramNames: readonly string[];
  /** The compiled route's definition (what body streamers and tools read). */
  definition: RouteDefinition;
}

const runtimes = new Set<WeakRef<AppRuntime>>();
/** Every live runtime (RestRouter.clearCache empties their component caches). */
export function liveRuntimes(): AppRuntime[] {
  const out: AppRuntime[] = [];
  for (const ref of runtimes) {
    const rt = ref.deref();
    if (rt) out.push(rt);
    else runtimes.delete(ref);
  }
  return out;
}

/**
 * The transport-independent half of an app: its routes, settings and compiled handlers.
 * The uWebSockets.js adapter feeds it requests.
 */
export class AppRuntime {
  readonly router: Router<RouteHolder>;
  readonly settings: SettingsView;
  readonly components: ComponentFactory;
  private readonly holders: RouteHolder[] = [];
  /** One registered route per method and path shape, to find conflicting variable names without a scan. */
  private readonly byShape = new Map<string, RouteHolder>();
  private readonly registered = new Set<unknown>();
  private generation = registryGeneration.value;
  /** One object, updated in place: compiled routes keep it and see later handlers and hooks. */
  private readonly errors: { -readonly [K in keyof ErrorPolicy]: ErrorPolicy[K] };
  /** Resources plugins register while the app's plugins are being set up (registered once all are). */
  private deferred: Array<Array<Constructor | object>> | null = [];
  private notFoundEntries: Array<{ pattern?: RegExp; write: (ctx: RoutingContext) => unknown }> = [];
  private anyNeedsBody = false;
  private shuttingDown = false;
  /** What the app's plugins added, and the lifecycle hooks composed from it (read by the adapter). */
  readonly hooks = new PluginHooks();
  /** Default response headers, and the usual answers' heads composed with them (set when the app is built). */
  defaultHead: DefaultHead | null = null;
  private readonly endpoints: WebSocketEndpoint[] = [];
  /** Told about every WebSocket endpoint added (the adapter gives it a uWebSockets.js route). */
  onWebSocketAdded: ((endpoint: WebSocketEndpoint) => void) | null = null;

  constructor(
    readonly app: unknown,
    settings: SettingsView,
    router?: Router<RouteHolder>,
    plugins: readonly RestPlugin[] = [],
  ) {
    this.settings = settings;
    this.router = router ?? new TrieRouter<RouteHolder>();
    this.components = new ComponentFactory(settings, () => this.hooks.componentFiller());
    this.errors = this.errorPolicy();
    runtimes.add(new WeakRef(this));
    for (const plugin of plugins) this.apply(plugin);
    this.rebuildShared();
    const deferred = this.deferred!;
    this.deferred = null;
    for (const targets of deferred) this.register(...targets);
  }

  /** Registers what a plugin adds; while the app's first plugins are being set up, once they all are. */
  registerFromPlugin(targets: Array<Constructor | object>): void {
    if (this.deferred !== null) this.deferred.push(targets);
    else this.register(...targets);
  }

  /**
   * Adds a plugin: its setup runs now. A plugin of a name used before replaces that one's hooks
   * (what it registered stays). Routes already compiled are compiled again with the new hooks.
   */
  use(plugin: RestPlugin): void {
    this.apply(plugin);
    this.rebuildShared();
    this.recompileAll();
  }

  /**
   * `use` for a plugin of app-wide hooks only (request, response, send, error: composed per app, read per request),
   * added to an app already built: the compiled routes stay as they are. Compiling every route again costs a built
   * app's requests about 2,200 instructions each on `GET /hello` (+13%, callgrind), so `startServer` counts requests
   * in flight this way. A plugin that adds anything a route is compiled with (route hooks, handlers, readers,
   * writers, a body streamer...) has the routes compiled again, as `use` does.
   */
  useAppHooks(plugin: RestPlugin): void {
    const before = this.routeInputs();
    this.apply(plugin);
    this.rebuildShared();
    if (this.routeInputs() !== before) this.recompileAll();
  }

  /** What compiled routes are made from, beyond the app-wide hooks: when it changes, routes are compiled again. */
  private routeInputs(): string {
    return `${registryGeneration.value}:${this.hooks.routeInputCount()}:${this.endpoints.length}:${this.holders.length}`;
  }

  private apply(plugin: RestPlugin): void {
    if (
      plugin === null ||
      typeof plugin !== 'object' ||
      typeof plugin.name !== 'string' ||
      typeof plugin.setup !== 'function'
    ) {
      throw new RegistrationError('use() takes a plugin: { name: string, setup(app) }', 'RU_ERR_PLUGIN');
    }
    this.hooks.forget(plugin.name);
    try {
      plugin.setup(pluginContext(this, plugin));
    } catch (err) {
      if (err instanceof RegistrationError) throw err;
      throw new RegistrationError(`plugin ${plugin.name}: ${(err as Error)?.message ?? err}`, 'RU_ERR_PLUGIN');
    }
  }

  /** A WebSocket endpoint a plugin declared: its upgrade compiled now, like a route. */
  addWebSocket(route: WebSocketRoute): void {
    const endpoint: WebSocketEndpoint = { route, upgrade: compileUpgrade(route, this.compileContext()) };
    this.endpoints.push(endpoint);
    if (this.onWebSocketAdded !== null) this.onWebSocketAdded(endpoint);
  }

  /** The app's WebSocket endpoints. */
  webSocketEndpoints(): readonly WebSocketEndpoint[] {
    return this.endpoints;
  }

  /** Who answers errors, inside routes and outside them (404, 405, 413, refused bodies). */
  private errorPolicy(): ErrorPolicy {
    return {
      appHandlers: this.settings
        .exceptionHandlerEntries()
        .map((e) => bindHandler(e.provider as Provided<ExceptionHandler<unknown>>, this.components, e.key)),
      pluginHandlers: this.hooks.pluginHandlers(),
      onError: this.hooks.onError,
      logger: this.logger,
    };
  }

  get logger(): Logger {
    return this.settings.local.logger ?? this.settings.global.logger ?? consoleLogger;
  }

  get bodyLimit(): number {
    return this.settings.bodyLimit;
  }

  /** Registers REST classes or instances; every route is compiled and checked now. */
  register(...targets: Array<Constructor | object>): void {
    const added: RouteHolder[] = [];
    const pendingShapes = new Map<string, RouteHolder>();
    for (const target of targets) {
      const ctor = (typeof target === 'function' ? target : (target as object).constructor) as Constructor;
      if (this.registered.has(ctor))
        throw new RegistrationError(`${ctor.name} is already registered on this app`, 'RU_ERR_DUPLICATE_CLASS');
      const classMeta = resolvedClassMetadata(ctor);
      for (const [key, field] of classMeta.fields) {
        if (field.source === 'context') {
          throw new RegistrationError(
            `${ctor.name}.${String(key)}: REST classes are singletons and cannot have @Context fields; take the value as a @Context method argument instead`,
            'RU_ERR_CONTEXT_FIELD',
          );
        }
      }
      const instance = typeof target === 'function' ? this.components.get(ctor) : target;
      let routes = 0;
      for (const methodMeta of classMeta.methods.values()) {
        const where = `${ctor.name}.${String(methodMeta.name)}()`;
        if (methodMeta.httpMethodConflict) {
          throw new RegistrationError(
            `${where} - Method already set to: ${methodMeta.httpMethod === methodMeta.httpMethodConflict ? methodMeta.httpMethod : `${methodMeta.httpMethodConflict}, then ${methodMeta.httpMethod}`}!`,
            'RU_ERR_METHOD_TWICE',
          );
        }
        if (methodMeta.path === undefined) {
          if (methodMeta.httpMethod === undefined) continue; // decorated for another reason (arguments only): not a route
          // As in JAX-RS, an HTTP-method decorator alone serves the class path; without one there is no path at all.
          if (classMeta.path === undefined) {
            throw new RegistrationError(
              `${where} - Missing route @Path! Put @Path on the method or on its class.`,
              'RU_ERR_MISSING_PATH',
            );
          }
        }
        const method: HttpMethod = methodMeta.httpMethod ?? 'GET';
        const routePath = methodMeta.path === undefined ? classMeta.path! : joinPaths(classMeta.path, methodMeta.path);
        const pattern = compilePathPattern(
          classMeta.applicationPath ? joinPaths(classMeta.applicationPath, routePath) : routePath,
          where,
        );
        const source: RouteSource = {
          resourceClass: ctor,
          instance: instance as object,
          classMeta,
          methodMeta,
          method,
          pattern,
        };
        const compiled = this.compile(source);
        const holder: RouteHolder = {
          source,
          compiled,
          paramNames: pattern.paramNames,
          definition: compiled.definition,
        };
        this.checkConflicts(holder, pendingShapes);
        added.push(holder);
        routes++;
      }
      const scope = {
        resourceClass: ctor,
        instance: instance as object,
        extensions: classMeta.extensions,
        metadata: classMeta,
        settings: this.settings,
        components: this.components,
        logger: this.logger,
      };
      for (const handler of this.hooks.classHandlers()) if (handler(scope)) routes++;
      if (routes === 0 && classMeta.extensions.size === 0) {
        throw new RegistrationError(
          `${ctor.name} has no routes: decorate its methods with @GET/@POST... and @Path`,
          'RU_ERR_NO_ROUTES',
        );
      }
      this.registered.add(ctor);
    }
    for (const h of added) {
      const slot = this.router.add(h.source.method, h.source.pattern, h, h.compiled.definition.order);
      this.holders.push(h);
      const shape = shapeKey(h);
      if (!this.byShape.has(shape)) this.byShape.set(shape, h);
      if (h.compiled.needsBody) this.anyNeedsBody = true;
      if (this.onSlotAdded !== null) this.onSlotAdded(slot);
    }
  }

  /** Told about every route slot added (the adapter gives static paths a native uWebSockets.js route). */
  onSlotAdded: ((slot: RouteSlot<RouteHolder>) => void) | null = null;

  private compileContext(): CompileContext {
    return {
      settings: this.settings,
      components: this.components,
      logger: this.logger,
      app: this.app,
      hooks: this.hooks.routeHookFactories(),
      errors: this.errors,
    };
  }

  private compile(source: RouteSource): CompiledRoute {
    return compileRoute(source, this.compileContext());
  }

  /** Compiles every route and WebSocket upgrade again (plugins or global registries changed). */
  private recompileAll(): void {
    for (const h of this.holders) {
      h.compiled = this.compile(h.source);
      h.definition = h.compiled.definition;
    }
    for (const e of this.endpoints) e.upgrade = compileUpgrade(e.route, this.compileContext());
  }

  private checkConflicts(holder: RouteHolder, pending: Map<string, RouteHolder>): void {
    const shape = shapeKey(holder);
    const other = this.byShape.get(shape) ?? pending.get(shape);
    if (other === undefined) {
      pending.set(shape, holder);
      return;
    }
    const a = holder.source;
    const b = other.source;
    if (a.pattern.paramNames.join() !== b.pattern.paramNames.join()) {
      throw new RegistrationError(
        `Conflicting routes: ${a.method} ${a.pattern.source} (${holder.compiled.definition.label}) and ${b.method} ${b.pattern.source} (${other.compiled.definition.label}) match the same paths with different variable names; use one name`,
        'RU_ERR_ROUTE_CONFLICT',
      );
    }
  }

  /** Rebuilds every route when global registries changed since the last build. */
  refreshIfStale(): void {
    if (this.generation === registryGeneration.value) return;
    this.generation = registryGeneration.value;
    this.rebuildShared();
    this.recompileAll();
  }

  /** Handlers and not-found writers used outside routes (404, 405, 413). */
  rebuildShared(): void {
    this.defaultHead = new DefaultHead(this.settings.defaultHeaders);
    this.hooks.compose();
    Object.assign(this.errors, this.errorPolicy());
    const entries: NotFoundEntry[] = this.settings.notFoundEntries();
    // The most specific (longest pattern) first; the catch-all last.
    const sorted = [...entries].sort((a, b) => (b.pattern?.source.length ?? -1) - (a.pattern?.source.length ?? -1));
    this.notFoundEntries = sorted.map((e) => ({ pattern: e.pattern, write: this.notFoundWriter(e) }));
  }

  private notFoundWriter(entry: NotFoundEntry): (ctx: RoutingContext) => unknown {
    const h = entry.handler;
    if (typeof h === 'function' && !isClass(h))
      return (ctx) => (h as (a: unknown, b: unknown) => unknown)(ctx.request, ctx.response);
    const writer = this.components.accessor(h as Provided<NotFoundResponseWriter>);
    return (ctx) => writer(ctx).write(ctx.request, ctx.response);
  }

  /** Whether any route reads bodies (lets the adapter skip body checks entirely otherwise). */
  get needsBodies(): boolean {
    return this.anyNeedsBody;
  }

  /** Runs routes with identical paths in order while the response stays untouched. */
  runChain(routes: readonly RouteHolder[], ctx: Exchange, from = 0): void | Promise<void> {
    for (let i = from; i < routes.length; i++) {
      const holder = routes[i]!;
      ctx.enter(holder.compiled.definition, holder.compiled.send);
      ctx.request[kParamNames] = holder.paramNames;
      const out = holder.compiled.handle(ctx);
      if (out !== undefined) return out.then(() => this.continueChain(routes, ctx, i + 1));
      if (ctx.response.ended() || ctx.response.headersSent()) return;
    }
    this.finishChain(ctx);
  }

  private continueChain(routes: readonly RouteHolder[], ctx: Exchange, next: number): void | Promise<void> {
    if (ctx.response.ended() || ctx.response.aborted()) return;
    if (ctx.response.headersSent()) {
      ctx.response.end();
      return;
    }
    return this.runChain(routes, ctx, next);
  }

  /** No route ended the response: end it (204 unless a status was set). */
  private finishChain(ctx: RoutingContext): void {
    const response = ctx.response;
    if (response.ended()) return;
    if (!response.headersSent() && !response.statusWasSet()) response.setStatusCode(204);
    response.end();
  }

  /** The server serving the app began a graceful shutdown: the plugins' shutdown hooks run (once). */
  beginShutdown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { plugin, err } of this.hooks.shutdown()) this.logger.error({ err, plugin }, 'shutdown hook failed');
  }

  /** Sends an error that happened outside any route through the global exception handlers. */
  fail(ctx: RoutingContext, error: unknown): void | Promise<void> {
    return handleError(ctx, error, [], this.errors);
  }

  notFound(ctx: RoutingContext): void | Promise<void> {
    const path = ctx.request.path();
    for (const entry of this.notFoundEntries) {
      if (entry.pattern !== undefined && !entry.pattern.test(path)) continue;
      ctx.response.setStatusCode(404);
      try {
        const out = entry.write(ctx);
        if (isThenable(out))
          return Promise.resolve(out).then(
            () => this.endIfOpen(ctx),
            (err) => this.fail(ctx, err),
          );
        this.endIfOpen(ctx);
      } catch (err) {
        return this.fail(ctx, err);
      }
      return;
    }
    return this.fail(ctx, new NotFoundException(`No route for ${ctx.request.method()} ${path}`));
  }

  private endIfOpen(ctx: RoutingContext): void {
    if (!ctx.response.ended()) ctx.response.end();
  }

  methodNotAllowed(ctx: RoutingContext, allowed: readonly string[]): void | Promise<void> {
    const allow = allowed.join(', ');
    if (ctx.request.method() === 'OPTIONS') {
      ctx.response.setStatusCode(204).putHeader('Allow', allow);
      ctx.response.end();
      return;
    }
    return this.fail(
      ctx,
      new MethodNotAllowedException(
        `Method ${ctx.request.method()} is not allowed for ${ctx.request.path()}; allowed: ${allow}`,
        { headers: { Allow: allow } },
      ),
    );
  }

  /** Every registered route's definition (OpenAPI, diagnostics). */
  routes(): RouteHolder[] {
    return [...this.holders];
  }

  /** What the plugins' hooks may answer on a route instead of the route (API documents). */
  routeAnswers(definition: RouteDefinition): readonly RouteAnswer[] {
    return this.holders.find((h) => h.definition === definition)?.compiled.answers ?? [];
  }

  /** The exception handlers in the order they are tried: a route's own (given one), the app's, the plugins' (API documents). */
  errorHandlers(definition?: RouteDefinition): Array<{ type: Function; handler: object | undefined; own?: true }> {
    const policy = this.errorPolicy();
    const own =
      definition === undefined ? [] : (this.holders.find((h) => h.definition === definition)?.compiled.handlers ?? []);
    const entry = (h: BoundHandler) => ({ type: h.type, handler: h.handler as object | undefined });
    return [
      ...own.map((h) => ({ ...entry(h), own: true as const })),
      ...policy.appHandlers.map(entry),
      ...policy.pluginHandlers.map(entry),
    ];
  }

  slots(): Iterable<RouteSlot<RouteHolder>> {
    return this.router.slots();
  }

  static isHttpMethod(m: string): m is HttpMethod {
    return (HTTP_METHODS as readonly string[]).includes(m);
  }
}

/** Routes with the same method and path shape match the same requests. */
function shapeKey(holder: RouteHolder): string {
  return `${holder.source.method} ${holder.source.pattern.shape}`;
}
