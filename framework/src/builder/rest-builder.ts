import type { TemplatedApp } from 'uWebSockets.js';
import type {
  ContextProvider,
  ContextProviderFunction,
  ExceptionHandler,
  HttpResponseWriter,
  ValueReader,
} from '../context/contracts';
import { assertSendableHeader } from '../http/header-rules';
import { attachRuntime, runtimeOf } from '../adapter/uws-adapter';
import type { Provided } from '../io/registry';
import type { Logger } from '../util/log';
import type { Constructor } from '../metadata/types';
import { AppRuntime, type RouteHolder } from '../app/app-runtime';
import {
  BODY_OPTIONS,
  RestSettings,
  type BodyHandlerOptions,
  SettingsView,
  type InjectionProvider,
  type NotFoundHandler,
} from '../settings/settings';
import type { Router } from '../routing/router';
import { appPlugins, notFoundEntry } from './rest-router';
import { loadUws } from '../adapter/load-uws';
import type { HttpMethod } from '../metadata/types';
import type { RestPlugin } from '../pipeline/plugin';
import { cors, corsOptionsOf, type CorsOptions } from '../features/cors';
import {
  checkProvider,
  GLOBAL_AUTHENTICATION,
  GLOBAL_AUTHORIZATION,
  type AuthorizationProvider,
  type RestAuthenticationProvider,
} from '../features/security';
import { toValidator, VALIDATOR, type ClassValidatorOptions, type Validator } from '../features/validation';
import { FileRoot, staticFolder, STATIC_ROOT, type FileResponseWriterOptions } from '../features/static';
import { REQUEST_LOGGING, requestLoggingOptions, type RequestLoggingOptions } from '../features/logging';
import { openApi, type OpenApiOptions } from '../features/openapi';
import { newUwsApp } from '../adapter/new-app';
import { errors } from '../errors/factories';

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
  private readonly plugins = new Map<string, RestPlugin>();
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
  writer(
    typeOrMediaType: Function | string | Provided<HttpResponseWriter>,
    writer?: Provided<HttpResponseWriter>,
  ): this {
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
    if (options.chunkedBodies !== undefined && typeof options.chunkedBodies !== 'boolean')
      throw errors.RU_ERR_BODY_OPTIONS('bodyHandler: chunkedBodies must be true or false');
    if (options.maxBodySize !== undefined) {
      if (!Number.isInteger(options.maxBodySize) || options.maxBodySize < 0)
        throw errors.RU_ERR_BODY_OPTIONS('bodyHandler: maxBodySize must be a whole number of bytes');
      this.settings.bodyLimit = options.maxBodySize;
    }
    this.settings.extensions.set(BODY_OPTIONS, {
      ...(this.settings.extensions.get(BODY_OPTIONS) as object),
      ...options,
    });
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
    // Checked now: they are written as they are on every response (a CR or LF would split it).
    for (const [name, value] of Object.entries(headers)) assertSendableHeader(name, value);
    this.settings.defaultHeaders = Object.entries(headers);
    return this;
  }

  /** Replaces the router implementation (benchmarks, experiments). */
  router(router: Router<RouteHolder>): this {
    this.routerImpl = router;
    return this;
  }

  /**
   * Adds a plugin (see docs/reference/plugins.md): hooks into the request lifecycle, routes, readers,
   * writers, providers and settings. A plugin of a name already used replaces it. On a built app the
   * plugin applies at once.
   *
   * ```ts
   * new RestBuilder().use(cors({ origin: '*' })).use(myTracingPlugin)
   * ```
   */
  use(plugin: RestPlugin): this {
    if (
      plugin === null ||
      typeof plugin !== 'object' ||
      typeof plugin.name !== 'string' ||
      typeof plugin.setup !== 'function'
    ) {
      throw errors.RU_ERR_PLUGIN('use() takes a plugin: { name: string, setup(app) }');
    }
    this.plugins.set(plugin.name, plugin);
    if (this.built !== undefined) runtimeOf(this.built)!.use(plugin);
    return this;
  }

  /**
   * Enables CORS for every route of the app (and its 404s): `originPattern` is a regular expression
   * for the whole `Origin` (or `*`), empty `allowedHeaders`/`methods` mean all. Same as `use(cors(...))`.
   *
   * ```ts
   * new RestBuilder().enableCors('https://(www\\.)?example\\.com', true, 600, ['Content-Type', 'Authorization'], ['GET', 'POST'])
   * ```
   */
  enableCors(
    originPattern: string | RegExp,
    allowCredentials?: boolean,
    maxAgeSeconds?: number,
    allowedHeaders?: Iterable<string>,
    methods?: Iterable<HttpMethod | string>,
  ): this;
  /** Enables CORS with options (also `exposedHeaders`). */
  enableCors(options: CorsOptions): this;
  enableCors(...args: unknown[]): this {
    return this.use(cors(corsOptionsOf(args)));
  }

  /**
   * The authentication provider of every route of this app that declares none with `@Authenticate`.
   * Routes marked `@PermitAll` work without credentials.
   */
  authenticateWith(provider: Provided<RestAuthenticationProvider<any>>): this {
    checkProvider(provider, 'authenticateWith');
    this.settings.extensions.set(GLOBAL_AUTHENTICATION, provider);
    return this;
  }

  /** The authorization provider of every route of this app that declares none with `@Authorize`. */
  authorizeWith(provider: Provided<AuthorizationProvider>): this {
    checkProvider(provider, 'authorizeWith');
    this.settings.extensions.set(GLOBAL_AUTHORIZATION, provider);
    return this;
  }

  /**
   * The validator of `@Valid` arguments and parameter constraints: a `Validator`, or options for the
   * ready `ClassValidator` (none: its defaults). With a validator configured, class-typed bodies read
   * by the built-in JSON and form readers become real instances (class-transformer), nested types included.
   */
  validateWith(validator?: Validator | ClassValidatorOptions): this {
    this.settings.extensions.set(VALIDATOR, toValidator(validator));
    return this;
  }

  /** `staticFiles(root)`: the folder `@ResponseWriter(FileResponseWriter)` routes of this app serve from. */
  staticFiles(root: string): this;
  /** `staticFiles('/static', dir, options?)`: serves every file of `dir` under the URL prefix `/static`. */
  staticFiles(urlPrefix: string, directory: string, options?: Omit<FileResponseWriterOptions, 'root'>): this;
  staticFiles(rootOrPrefix: string, directory?: string, options?: Omit<FileResponseWriterOptions, 'root'>): this {
    if (directory === undefined) {
      this.settings.extensions.set(STATIC_ROOT, new FileRoot(rootOrPrefix, 'RestBuilder.staticFiles'));
      return this;
    }
    return this.register(staticFolder(rootOrPrefix, directory, options));
  }

  /**
   * Logs one line per request once it is answered: `{ method, path, status, durationMs }` with the
   * message `request` (`aborted: true` when the client left first). Off unless called;
   * `logRequests(false)` turns it off again.
   *
   * ```ts
   * new RestBuilder().logger(createLogger({ level: 'info' })).logRequests({ level: 'info' })
   * ```
   */
  logRequests(options?: RequestLoggingOptions | boolean): this {
    this.settings.extensions.set(REQUEST_LOGGING, requestLoggingOptions(options));
    return this;
  }

  /**
   * Serves the app's OpenAPI 3.1 document as JSON at `path` (default `/openapi.json`), built from the
   * decorators on first request. Same as `use(openApi(options))`.
   */
  openApi(options: OpenApiOptions): this {
    return this.use(openApi(options));
  }

  /** Builds the app: every route compiled and checked now. Returns the uWebSockets.js app to listen on. */
  build(): TemplatedApp {
    if (this.built) return this.built;
    const uws = loadUws();
    const app = this.app ?? newUwsApp(uws);
    if (runtimeOf(app))
      throw errors.RU_ERR_APP_REUSED(
        'This app already has routes from RestRouter.register or another RestBuilder; build it with one RestBuilder',
      );
    const runtime = new AppRuntime(app, new SettingsView(this.settings), this.routerImpl, [
      ...appPlugins(),
      ...this.plugins.values(),
    ]);
    runtime.register(...this.targets);
    attachRuntime(app, runtime);
    this.built = app;
    return app;
  }
}
