import type { TemplatedApp } from 'uWebSockets.js';
import type { ContextProvider, ContextProviderFunction, ExceptionHandler, HttpResponseWriter, ValueReader } from '../context/contracts';
import { RegistrationError } from '../errors/http-errors';
import { attachRuntime, runtimeOf } from '../adapter/uws-adapter';
import type { Provided } from '../io/registry';
import type { Logger } from '../util/log';
import type { Constructor } from '../metadata/types';
import { AppRuntime, type RouteHolder } from '../app/app-runtime';
import { BODY_OPTIONS, RestSettings, type BodyHandlerOptions, SettingsView, type InjectionProvider, type NotFoundHandler } from '../settings/settings';
import type { Router } from '../routing/router';
import { notFoundEntry } from './rest-router';
import { loadUws } from '../adapter/load-uws';
import { newUwsApp } from '../adapter/new-app';

export type { BodyHandlerOptions };

/**
 * Configures and builds one app: its REST classes, readers, writers, exception handlers and more.
 * Settings given here apply to this app only and take precedence over RestRouter's global ones.
 *
 * ```ts
 * const app = new RestBuilder().register(UserResource).errorHandler(MyHandler).build();
 * app.listen(8080, (socket) => { ... });
 * ```
 */
export class RestBuilder {
  /** @internal */
  readonly settings = new RestSettings(false);
  private readonly targets: Array<Constructor | object> = [];
  private readonly configurers: Array<(app: TemplatedApp, runtime: AppRuntime) => void> = [];
  private routerImpl: Router<RouteHolder> | undefined;
  private built: TemplatedApp | undefined;

  constructor(private readonly app?: TemplatedApp) {}

  /** REST classes or instances to register. */
  register(...targets: Array<Constructor | object>): this {
    this.targets.push(...targets);
    return this;
  }

  /** A reader for a class type or media type (or a reader class with `@Consumes`/`@Handles`). */
  reader(typeOrMediaType: Function | string | Provided<ValueReader>, reader?: Provided<ValueReader>): this {
    this.settings.readers.register(typeOrMediaType as any, reader);
    return this;
  }

  /** A writer for a class type or media type (or a writer class with `@Produces`/`@Handles`). */
  writer(typeOrMediaType: Function | string | Provided<HttpResponseWriter>, writer?: Provided<HttpResponseWriter>): this {
    this.settings.writers.register(typeOrMediaType as any, writer);
    return this;
  }

  /** Exception handlers (their type from `@Handles`, else any error), tried in the order given. */
  errorHandler(...handlers: Array<Provided<ExceptionHandler<any>>>): this {
    for (const h of handlers) this.settings.exceptionHandlers.register(h as any);
    return this;
  }

  /** An exception handler for one error type. */
  errorHandlerFor(errorType: Function, handler: Provided<ExceptionHandler<any>>): this {
    this.settings.exceptionHandlers.register(errorType, handler);
    return this;
  }

  /** `notFound(handler)` for every unmatched request, `notFound('^/api/.*', handler)` for a subtree. */
  notFound(pathOrHandler: string | RegExp | NotFoundHandler, handler?: NotFoundHandler): this {
    this.settings.notFound.push(notFoundEntry(pathOrHandler, handler));
    return this;
  }

  /** A provider for `@Context` arguments of `type`. */
  addProvider<T>(type: Function, provider: Provided<ContextProvider<T>> | ContextProviderFunction<T>): this {
    this.settings.contextProviders.set(type, provider as any);
    return this;
  }

  /** Runs a context provider on every request and pushes what it provides into the routing context. */
  provide(provider: Provided<ContextProvider>): this {
    this.settings.requestProviders.push(provider);
    return this;
  }

  /** Request body limits (and, with uploads, where files go). */
  bodyHandler(options: BodyHandlerOptions): this {
    if (options.maxBodySize !== undefined) {
      if (!Number.isInteger(options.maxBodySize) || options.maxBodySize < 0) throw new RegistrationError('bodyHandler: maxBodySize must be a whole number of bytes');
      this.settings.bodyLimit = options.maxBodySize;
    }
    this.settings.extensions.set(BODY_OPTIONS, { ...(this.settings.extensions.get(BODY_OPTIONS) as object), ...options });
    return this;
  }

  /** Resolves REST classes, readers, writers, handlers and providers through a DI container. */
  injectWith(provider: InjectionProvider): this {
    this.settings.injector = provider;
    return this;
  }

  /** Where errors and warnings go (a pino logger fits). */
  logger(logger: Logger): this {
    this.settings.logger = logger;
    return this;
  }

  /** Headers added to every response unless the route sets them; default `X-Content-Type-Options: nosniff`. */
  defaultHeaders(headers: Record<string, string>): this {
    this.settings.defaultHeaders = Object.entries(headers);
    return this;
  }

  /** Replaces the router implementation (benchmarks, experiments). */
  router(router: Router<RouteHolder>): this {
    this.routerImpl = router;
    return this;
  }

  /** @internal lets extensions (CORS, WebSockets, OpenAPI...) act on the built app. */
  configure(fn: (app: TemplatedApp, runtime: AppRuntime) => void): this {
    this.configurers.push(fn);
    return this;
  }

  /** Builds the app: every route compiled and checked now. Returns the uWebSockets.js app to listen on. */
  build(): TemplatedApp {
    if (this.built) return this.built;
    const uws = loadUws();
    const app = this.app ?? newUwsApp(uws);
    if (runtimeOf(app)) throw new RegistrationError('This app already has routes from RestRouter.register or another RestBuilder; build it with one RestBuilder', 'RU_ERR_APP_REUSED');
    const runtime = new AppRuntime(app, new SettingsView(this.settings), this.routerImpl);
    for (const configure of this.configurers) configure(app, runtime);
    runtime.register(...this.targets);
    attachRuntime(app, runtime);
    this.built = app;
    return app;
  }
}
