import type { RoutingContext } from '../context/routing-context';
import { DefaultHead } from '../http/default-head';
import { registryGeneration } from '../io/generation';
import type { RouteDefinition } from '../metadata/route-definition';
import type { Constructor } from '../metadata/types';
import type { CompileContext } from '../pipeline/compile-context';
import { compileUpgrade, type WebSocketEndpoint } from '../pipeline/compile-upgrade';
import { type ErrorPolicy, handleError } from '../pipeline/exception-handling';
import type { LifecycleApp } from '../pipeline/lifecycle';
import type { RestPlugin } from '../pipeline/plugin';
import { compileRoute } from '../pipeline/route-compiler';
import type { RouteSource } from '../pipeline/define-route';
import type { RouteAnswer } from '../pipeline/route-hooks';
import type { WebSocketRoute } from '../pipeline/websocket-route';
import type { Router, RouteSlot } from '../routing/router';
import { TrieRouter } from '../routing/trie-router';
import { ComponentFactory } from '../settings/components';
import { BODY_OPTIONS, type BodyHandlerOptions, type SettingsView } from '../settings/settings';
import { consoleLogger, type Logger } from '../util/log';
import { errorPolicyOf, type HandlerEntry, handlerEntries } from './error-policy';
import { NotFoundAnswers } from './not-found';
import { applyPlugin } from './plugin-context';
import { PluginHooks } from './plugin-host';
import { type RouteHolder, RouteTable } from './route-table';

export type { RouteHolder };

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
 * The transport-independent half of an app: its settings, plugins, routes and WebSocket upgrades, compiled, and
 * what the lifecycle (pipeline/lifecycle.ts) asks of an app. The uWebSockets.js adapter feeds it requests. Its parts
 * live beside it: the routes (route-table.ts), the plugins' hooks (plugin-host.ts, plugin-context.ts), the error
 * policy (error-policy.ts), the answers when no route matches (not-found.ts).
 */
export class AppRuntime implements LifecycleApp {
  readonly router: Router<RouteHolder>;
  readonly settings: SettingsView;
  readonly components: ComponentFactory;
  /** What the app's plugins added, and the lifecycle hooks composed from it (read by the lifecycle). */
  readonly hooks = new PluginHooks();
  /** Who answers errors: replaced, never changed in place, when plugins or settings change; routes read it here. */
  errors: ErrorPolicy;
  /** Default response headers, and the usual answers' heads composed with them (set when the app is built). */
  defaultHead: DefaultHead | null = null;
  /** Told about every route slot added (the adapter gives static paths a native uWebSockets.js route). */
  onSlotAdded: ((slot: RouteSlot<RouteHolder>) => void) | null = null;
  /** Told about every WebSocket endpoint added (the adapter gives it a uWebSockets.js route). */
  onWebSocketAdded: ((endpoint: WebSocketEndpoint) => void) | null = null;
  private readonly table: RouteTable;
  private readonly endpoints: WebSocketEndpoint[] = [];
  private readonly unmatched = new NotFoundAnswers((ctx, error) => this.fail(ctx, error));
  private generation = registryGeneration.value;
  /** Resources plugins register while the app's plugins are being set up (registered once all are). */
  private deferred: Array<Array<Constructor | object>> | null = [];
  private shuttingDown = false;

  constructor(
    readonly app: unknown,
    settings: SettingsView,
    router?: Router<RouteHolder>,
    plugins: readonly RestPlugin[] = [],
  ) {
    this.settings = settings;
    this.router = router ?? new TrieRouter<RouteHolder>();
    this.table = new RouteTable(this.router);
    this.components = new ComponentFactory(settings, () => this.hooks.componentFiller());
    this.errors = errorPolicyOf(settings, this.components, this.hooks, this.logger);
    runtimes.add(new WeakRef(this));
    for (const plugin of plugins) applyPlugin(this, plugin);
    this.rebuildShared();
    const deferred = this.deferred!;
    this.deferred = null;
    for (const targets of deferred) this.register(...targets);
  }

  get logger(): Logger {
    return this.settings.local.logger ?? this.settings.global.logger ?? consoleLogger;
  }

  get bodyLimit(): number {
    return this.settings.bodyLimit;
  }

  /** Whether any route reads bodies (lets the lifecycle skip body checks entirely otherwise). */
  get needsBodies(): boolean {
    return this.table.needsBodies;
  }

  // Registration: routes, WebSocket endpoints, plugins.

  /** Registers REST classes or instances; every route is compiled and checked now. */
  register(...targets: Array<Constructor | object>): void {
    const scope = {
      settings: this.settings,
      components: this.components,
      logger: this.logger,
      classHandlers: this.hooks.classHandlers(),
      compile: (source: RouteSource) => compileRoute(source, this.compileContext()),
    };
    this.table.register(targets, scope, (slot) => this.onSlotAdded?.(slot));
  }

  /** Registers what a plugin adds; while the app's first plugins are being set up, once they all are. */
  registerFromPlugin(targets: Array<Constructor | object>): void {
    if (this.deferred !== null) this.deferred.push(targets);
    else this.register(...targets);
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

  /**
   * Adds a plugin: its setup runs now. A plugin of a name used before replaces that one's hooks
   * (what it registered stays). Routes already compiled are compiled again with the new hooks.
   */
  use(plugin: RestPlugin): void {
    applyPlugin(this, plugin);
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
    applyPlugin(this, plugin);
    this.rebuildShared();
    if (this.routeInputs() !== before) this.recompileAll();
  }

  // Recompilation: what routes are compiled with changed.

  /** Rebuilds every route when global registries changed since the last build. */
  refreshIfStale(): void {
    if (this.generation === registryGeneration.value) return;
    this.generation = registryGeneration.value;
    this.rebuildShared();
    this.recompileAll();
  }

  /** What is composed per app and read per request: default headers, hooks, error policy, not-found answers. */
  rebuildShared(): void {
    this.defaultHead = new DefaultHead(this.settings.defaultHeaders);
    this.hooks.compose();
    this.errors = errorPolicyOf(this.settings, this.components, this.hooks, this.logger);
    this.unmatched.rebuild(this.settings, this.components);
  }

  /** What compiled routes are made from, beyond the app-wide hooks: when it changes, routes are compiled again. */
  private routeInputs(): string {
    return `${registryGeneration.value}:${this.hooks.routeInputCount()}:${this.endpoints.length}:${this.table.all().length}`;
  }

  /** Compiles every route and WebSocket upgrade again (plugins or global registries changed). */
  private recompileAll(): void {
    const cc = this.compileContext();
    this.table.recompile((source) => compileRoute(source, cc));
    for (const e of this.endpoints) e.upgrade = compileUpgrade(e.route, cc);
  }

  private compileContext(): CompileContext {
    return {
      settings: this.settings,
      components: this.components,
      logger: this.logger,
      app: this.app,
      hooks: this.hooks.routeHookFactories(),
      errors: this,
    };
  }

  // What the lifecycle asks of the app.

  /** `chunkedBodies: false` in the app's bodyHandler options, else in the global ones (option by option). */
  refusesChunked(): boolean {
    const own = (this.settings.local.extensions.get(BODY_OPTIONS) as BodyHandlerOptions | undefined)?.chunkedBodies;
    const global = this.settings.global.extensions.get(BODY_OPTIONS) as BodyHandlerOptions | undefined;
    return (own ?? global?.chunkedBodies) === false;
  }

  notFound(ctx: RoutingContext): void | Promise<void> {
    return this.unmatched.notFound(ctx);
  }

  methodNotAllowed(ctx: RoutingContext, allowed: readonly string[]): void | Promise<void> {
    return this.unmatched.methodNotAllowed(ctx, allowed);
  }

  /** Sends an error that happened outside any route through the app's exception handlers. */
  fail(ctx: RoutingContext, error: unknown): void | Promise<void> {
    return handleError(ctx, error, [], this.errors);
  }

  /** The server serving the app began a graceful shutdown: the plugins' shutdown hooks run (once). */
  beginShutdown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { plugin, err } of this.hooks.shutdown()) this.logger.error({ err, plugin }, 'shutdown hook failed');
  }

  // Introspection, for API documents and diagnostics.

  /** Every registered route. */
  routes(): RouteHolder[] {
    return [...this.table.all()];
  }

  slots(): Iterable<RouteSlot<RouteHolder>> {
    return this.router.slots();
  }

  /** What the plugins' hooks may answer on a route instead of the route (API documents). */
  routeAnswers(definition: RouteDefinition): readonly RouteAnswer[] {
    return this.table.of(definition)?.compiled.answers ?? [];
  }

  /** The exception handlers in the order they are tried: a route's own (given one), the app's, the plugins'. */
  errorHandlers(definition?: RouteDefinition): HandlerEntry[] {
    const own = definition === undefined ? [] : (this.table.of(definition)?.compiled.handlers ?? []);
    return handlerEntries(errorPolicyOf(this.settings, this.components, this.hooks, this.logger), own);
  }
}
