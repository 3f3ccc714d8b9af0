import { compileRoute, type CompiledRoute, type RouteSource } from '../pipeline/route-compiler';
import type { ExceptionHandler, NotFoundResponseWriter } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import { bindHandler, handleError, type BoundHandler } from '../pipeline/exception-handling';
import { MethodNotAllowedException, NotFoundException, RegistrationError } from '../errors/http-errors';
import { registryGeneration } from '../io/generation';
import type { Provided } from '../io/registry';
import { consoleLogger, type Logger } from '../util/log';
import { resolvedClassMetadata } from '../metadata/store';
import { HTTP_METHODS, type ClassMetadata, type Constructor, type HttpMethod } from '../metadata/types';
import { compilePathPattern, joinPaths, type PathPattern } from '../routing/path-pattern';
import type { Router, RouteSlot } from '../routing/router';
import { TrieRouter } from '../routing/trie-router';
import { ComponentFactory, isClass } from '../settings/components';
import { SettingsView, type NotFoundEntry } from '../settings/settings';
import { isThenable } from '../pipeline/context-values';

/** A registered route and its compiled form, rebuilt when global registries change. */
export interface RouteHolder {
  /** The class, method and pattern the route came from. */
  source: RouteSource;
  /** The route's handler and definition, rebuilt when global registries change. */
  compiled: CompiledRoute;
  /** The path variables' names, in pattern order. */
  paramNames: readonly string[];
}

/** Takes a streamed request body chunk by chunk (chunks are copies, safe to keep). */
export interface BodyConsumer {
  /** Largest body accepted; over it the request gets 413 and `abort` is called. */
  limit: number;
  write(chunk: Buffer): void;
  /** The body is complete: finish (e.g. flush files), then the routes run. A rejection goes to the exception handlers. */
  end(): void | Promise<void>;
  /** The client went away or the body was refused: clean up (e.g. delete partial files). */
  abort(): void;
  /** The request is over (routes, writer and events done, or the client left after the body): release what the body left (e.g. uploaded files). */
  finished?(): void;
}

/**
 * Registers what a class's extension metadata asks for besides HTTP routes (WebSocket endpoints),
 * for classes given to RestBuilder.register and RestRouter.register alike. Returns true when it
 * registered something for the class.
 */
export interface ClassRegistrar {
  name: string;
  register(rt: AppRuntime, resourceClass: Constructor, instance: object, classMeta: ClassMetadata): boolean;
}

const classRegistrars: ClassRegistrar[] = [];

export function registerClassRegistrar(registrar: ClassRegistrar): void {
  if (!classRegistrars.some((r) => r.name === registrar.name)) classRegistrars.push(registrar);
}

const runtimes = new Set<WeakRef<AppRuntime>>();
const setups: Array<(rt: AppRuntime) => void> = [];

/** Runs `setup` on every runtime created from now on (uploads install `bodyStream` this way, for builder and RestRouter apps alike). */
export function onRuntimeCreated(setup: (rt: AppRuntime) => void): void {
  if (!setups.includes(setup)) setups.push(setup);
}

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
  private globalHandlers: BoundHandler[] = [];
  private notFoundEntries: Array<{ pattern?: RegExp; write: (ctx: RoutingContext) => unknown }> = [];
  private anyNeedsBody = false;
  /**
   * Runs before routing (CORS): returns true when it answered the request itself.
   * Null when no extension needs it, so the request path pays nothing.
   */
  preRouting: ((ctx: RoutingContext) => boolean) | null = null;
  /** Called for every request once the framework objects exist (request logging); null when off. */
  onRequest: ((ctx: RoutingContext) => void) | null = null;
  /**
   * Streams a request body instead of buffering it (multipart uploads): returns a consumer when it
   * takes this request's body, undefined to leave it to the buffering reader.
   */
  bodyStream: ((ctx: RoutingContext, routes: readonly RouteHolder[]) => BodyConsumer | undefined) | null = null;
  /** Default response headers, flattened for the response's head writer (null when none). */
  defaultHeaders: readonly string[] | null = null;

  constructor(readonly app: unknown, settings: SettingsView, router?: Router<RouteHolder>) {
    this.settings = settings;
    this.router = router ?? new TrieRouter<RouteHolder>();
    this.components = new ComponentFactory(settings);
    this.rebuildShared();
    runtimes.add(new WeakRef(this));
    for (const setup of setups) setup(this);
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
      if (this.registered.has(ctor)) throw new RegistrationError(`${ctor.name} is already registered on this app`, 'RU_ERR_DUPLICATE_CLASS');
      const classMeta = resolvedClassMetadata(ctor);
      for (const [key, field] of classMeta.fields) {
        if (field.source === 'context') {
          throw new RegistrationError(`${ctor.name}.${String(key)}: REST classes are singletons and cannot have @Context fields; take the value as a @Context method argument instead`, 'RU_ERR_CONTEXT_FIELD');
        }
      }
      const instance = typeof target === 'function' ? this.components.get(ctor) : target;
      let routes = 0;
      for (const methodMeta of classMeta.methods.values()) {
        const where = `${ctor.name}.${String(methodMeta.name)}()`;
        if (methodMeta.httpMethodConflict) {
          throw new RegistrationError(`${where} - Method already set to: ${methodMeta.httpMethod === methodMeta.httpMethodConflict ? methodMeta.httpMethod : `${methodMeta.httpMethodConflict}, then ${methodMeta.httpMethod}`}!`, 'RU_ERR_METHOD_TWICE');
        }
        if (methodMeta.path === undefined) {
          if (methodMeta.httpMethod === undefined) continue; // decorated for another reason (arguments only): not a route
          // As in JAX-RS, an HTTP-method decorator alone serves the class path; without one there is no path at all.
          if (classMeta.path === undefined) {
            throw new RegistrationError(`${where} - Missing route @Path! Put @Path on the method or on its class.`, 'RU_ERR_MISSING_PATH');
          }
        }
        const method: HttpMethod = methodMeta.httpMethod ?? 'GET';
        const routePath = methodMeta.path === undefined ? classMeta.path! : joinPaths(classMeta.path, methodMeta.path);
        const pattern = compilePathPattern(classMeta.applicationPath ? joinPaths(classMeta.applicationPath, routePath) : routePath, where);
        const source: RouteSource = { resourceClass: ctor, instance: instance as object, classMeta, methodMeta, method, pattern };
        const holder: RouteHolder = { source, compiled: this.compile(source), paramNames: pattern.paramNames };
        this.checkConflicts(holder, pendingShapes);
        added.push(holder);
        routes++;
      }
      for (const registrar of classRegistrars) if (registrar.register(this, ctor, instance as object, classMeta)) routes++;
      if (routes === 0 && classMeta.extensions.size === 0) {
        throw new RegistrationError(`${ctor.name} has no routes: decorate its methods with @GET/@POST... and @Path`, 'RU_ERR_NO_ROUTES');
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

  private compile(source: RouteSource): CompiledRoute {
    return compileRoute(source, { settings: this.settings, components: this.components, logger: this.logger, app: this.app });
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
    for (const h of this.holders) h.compiled = this.compile(h.source);
  }

  /** Handlers and not-found writers used outside routes (404, 405, 413). */
  rebuildShared(): void {
    // Name, lower-case name, value: the response checks names against the lower-case one without lower-casing per request.
    const defaults = this.settings.defaultHeaders.flatMap(([name, value]) => [name, name.toLowerCase(), value]);
    this.defaultHeaders = defaults.length > 0 ? defaults : null;
    this.globalHandlers = this.settings.exceptionHandlerEntries().map((e) => bindHandler(e.provider as Provided<ExceptionHandler<unknown>>, this.components, e.key));
    const entries: NotFoundEntry[] = this.settings.notFoundEntries();
    // The most specific (longest pattern) first; the catch-all last.
    const sorted = [...entries].sort((a, b) => (b.pattern?.source.length ?? -1) - (a.pattern?.source.length ?? -1));
    this.notFoundEntries = sorted.map((e) => ({ pattern: e.pattern, write: this.notFoundWriter(e) }));
  }

  private notFoundWriter(entry: NotFoundEntry): (ctx: RoutingContext) => unknown {
    const h = entry.handler;
    if (typeof h === 'function' && !isClass(h)) return (ctx) => (h as (a: unknown, b: unknown) => unknown)(ctx.request, ctx.response);
    const writer = this.components.accessor(h as Provided<NotFoundResponseWriter>);
    return (ctx) => writer(ctx).write(ctx.request, ctx.response);
  }

  /** Whether any route reads bodies (lets the adapter skip body checks entirely otherwise). */
  get needsBodies(): boolean {
    return this.anyNeedsBody;
  }

  /** Runs routes with identical paths in order while the response stays untouched. */
  runChain(routes: readonly RouteHolder[], ctx: RoutingContext, from = 0): void | Promise<void> {
    for (let i = from; i < routes.length; i++) {
      const holder = routes[i]!;
      ctx._route = holder.compiled.definition;
      ctx.request._paramNames = holder.paramNames;
      const out = holder.compiled.handle(ctx);
      if (out !== undefined) return out.then(() => this.continueChain(routes, ctx, i + 1));
      if (ctx.response.ended() || ctx.response.headersSent()) return;
    }
    this.finishChain(ctx);
  }

  private continueChain(routes: readonly RouteHolder[], ctx: RoutingContext, next: number): void | Promise<void> {
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

  /** Sends an error that happened outside any route through the global exception handlers. */
  fail(ctx: RoutingContext, error: unknown): void | Promise<void> {
    return handleError(ctx, error, [], this.globalHandlers, this.logger);
  }

  notFound(ctx: RoutingContext): void | Promise<void> {
    const path = ctx.request.path();
    for (const entry of this.notFoundEntries) {
      if (entry.pattern !== undefined && !entry.pattern.test(path)) continue;
      ctx.response.setStatusCode(404);
      try {
        const out = entry.write(ctx);
        if (isThenable(out)) return Promise.resolve(out).then(() => this.endIfOpen(ctx), (err) => this.fail(ctx, err));
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
    return this.fail(ctx, new MethodNotAllowedException(`Method ${ctx.request.method()} is not allowed for ${ctx.request.path()}; allowed: ${allow}`, { headers: { Allow: allow } }));
  }

  /** Every registered route's definition (OpenAPI, diagnostics). */
  routes(): RouteHolder[] {
    return [...this.holders];
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
