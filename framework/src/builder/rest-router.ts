import type { TemplatedApp } from 'uWebSockets.js';
import type {
  ContextProvider,
  ContextProviderFunction,
  ExceptionHandler,
  HttpResponseWriter,
  ValueReader,
} from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import { attachRuntime, runtimeOf } from '../adapter/uws-adapter';
import { registryChanged } from '../io/generation';
import type { MediaTypeRegistry, Provided } from '../io/registry';
import type { Constructor } from '../metadata/types';
import { AppRuntime, liveRuntimes } from '../app/app-runtime';
import {
  BODY_OPTIONS,
  globalSettings,
  RestSettings,
  SettingsView,
  type BodyHandlerOptions,
  type InjectionProvider,
  type NotFoundHandler,
} from '../settings/settings';
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
import { FileRoot, STATIC_ROOT } from '../features/static';
import { REQUEST_LOGGING, requestLoggingOptions, type RequestLoggingOptions } from '../features/logging';
import { checkGlobalBodyOptions } from '../features/uploads';
import { BUILT_IN_PLUGINS } from './built-in-plugins';
import { loadUws } from '../adapter/load-uws';
import '../settings/built-ins';
import { errors } from '../errors/factories';

/**
 * The spec's static entry point: registers REST classes on a uWebSockets.js app and holds the
 * global registries (readers, writers, exception handlers, context providers).
 */
export class RestRouter {
  private constructor() {}

  /** Registers REST classes (or instances) on `app` and returns it. */
  static register<A extends TemplatedApp>(app: A, ...targets: Array<Constructor | object>): A {
    runtimeFor(app).register(...targets);
    return app;
  }

  /** Global readers, keyed by class type or media type. */
  static getReaders(): MediaTypeRegistry<ValueReader> {
    return globalSettings.readers;
  }

  /** Global writers, keyed by class type or media type. */
  static getWriters(): MediaTypeRegistry<HttpResponseWriter> {
    return globalSettings.writers;
  }

  /** Global exception handlers, keyed by error type (tried in registration order). */
  static getExceptionHandlers(): MediaTypeRegistry<ExceptionHandler> {
    return globalSettings.exceptionHandlers;
  }

  /** A provider for `@Context` arguments of `type`, for every app. */
  static addProvider<T>(
    type: Constructor<T> | Function,
    provider: Provided<ContextProvider<T>> | ContextProviderFunction<T>,
  ): void {
    globalSettings.contextProviders.set(type, provider as any);
    registryChanged();
  }

  /** Puts an object into the request's context, where `@Context` arguments of its class find it. */
  static pushContext(ctx: RoutingContext, object: object): void {
    ctx.put(object.constructor, object);
  }

  /** Runs a context provider on every request and pushes what it provides. */
  static provide(provider: Provided<ContextProvider>): void {
    globalSettings.requestProviders.push(provider);
    registryChanged();
  }

  /**
   * Not-found writer for every app: `notFound(handler)` for everything unmatched,
   * `notFound('^/api/.*', handler)` for a subtree (the most specific wins).
   */
  static notFound(pathOrHandler: string | RegExp | NotFoundHandler, handler?: NotFoundHandler): void {
    globalSettings.notFound.push(notFoundEntry(pathOrHandler, handler));
    registryChanged();
  }

  /** Resolves REST classes, readers, writers and handlers through a DI container for every app. */
  static injectWith(provider: InjectionProvider): void {
    globalSettings.injector = provider;
    RestRouter.clearCache();
  }

  /**
   * A plugin for every app: apps built from now on use it after the built-in ones, and apps already
   * built take it at once. A plugin of a name already used globally replaces it.
   */
  static use(plugin: RestPlugin): void {
    const i = globalPlugins.findIndex((p) => p.name === plugin?.name);
    if (i >= 0) globalPlugins[i] = plugin;
    else globalPlugins.push(plugin);
    for (const rt of liveRuntimes()) rt.use(plugin);
  }

  /** Enables CORS on an app registered with `RestRouter.register` (same arguments as `RestBuilder.enableCors`). */
  static enableCors(
    app: TemplatedApp,
    originPattern: string | RegExp,
    allowCredentials?: boolean,
    maxAgeSeconds?: number,
    allowedHeaders?: Iterable<string>,
    methods?: Iterable<HttpMethod | string>,
  ): void;
  /** Enables CORS on an app with options. */
  static enableCors(app: TemplatedApp, options: CorsOptions): void;
  static enableCors(app: TemplatedApp, ...args: unknown[]): void {
    if (app === null || typeof app !== 'object' || typeof (app as TemplatedApp).any !== 'function') {
      throw errors.RU_ERR_CORS_OPTIONS('rest.uws: RestRouter.enableCors takes the uWebSockets.js app first');
    }
    runtimeFor(app).use(cors(corsOptionsOf(args)));
  }

  /** The authentication provider of every app's routes that declare none (an app's own `authenticateWith` wins). */
  static authenticateWith(provider: Provided<RestAuthenticationProvider<any>>): void {
    checkProvider(provider, 'RestRouter.authenticateWith');
    globalSettings.extensions.set(GLOBAL_AUTHENTICATION, provider);
    registryChanged();
  }

  /** The authorization provider of every app's routes that declare none (an app's own `authorizeWith` wins). */
  static authorizeWith(provider: Provided<AuthorizationProvider>): void {
    checkProvider(provider, 'RestRouter.authorizeWith');
    globalSettings.extensions.set(GLOBAL_AUTHORIZATION, provider);
    registryChanged();
  }

  /** The validator of every app that configures none (see `RestBuilder.validateWith`). */
  static validateWith(validator?: Validator | ClassValidatorOptions): void {
    globalSettings.extensions.set(VALIDATOR, toValidator(validator));
    registryChanged();
  }

  /** Request logging for apps built with `RestRouter.register` (a builder's own setting wins for its app). */
  static logRequests(options?: RequestLoggingOptions | boolean): void {
    globalSettings.extensions.set(REQUEST_LOGGING, requestLoggingOptions(options));
  }

  /** The folder `@ResponseWriter(FileResponseWriter)` routes serve from, for every app without its own `staticFiles(root)`. */
  static staticFiles(root: string): void {
    globalSettings.extensions.set(STATIC_ROOT, new FileRoot(root, 'RestRouter.staticFiles'));
    registryChanged();
  }

  /** Body limits and upload settings for every app (an app's own `RestBuilder.bodyHandler` options win). */
  static setBodyHandler(options: BodyHandlerOptions): void {
    if (options.chunkedBodies !== undefined && typeof options.chunkedBodies !== 'boolean')
      throw errors.RU_ERR_BODY_OPTIONS('setBodyHandler: chunkedBodies must be true or false');
    const merged = { ...(globalSettings.extensions.get(BODY_OPTIONS) as BodyHandlerOptions | undefined), ...options };
    checkGlobalBodyOptions(merged);
    if (options.maxBodySize !== undefined) globalSettings.bodyLimit = options.maxBodySize;
    globalSettings.extensions.set(BODY_OPTIONS, merged);
    registryChanged();
  }

  /** Empties the caches of reader, writer, handler and provider instances (routes are rebuilt). */
  static clearCache(): void {
    for (const rt of liveRuntimes()) rt.components.clear();
    registryChanged();
  }
}

/** Plugins every app gets through `RestRouter.use`. */
const globalPlugins: RestPlugin[] = [];

/** The plugins a new app starts with: the built-in features, then the global plugins. */
export function appPlugins(): RestPlugin[] {
  return [...BUILT_IN_PLUGINS, ...globalPlugins];
}

export function notFoundEntry(pathOrHandler: string | RegExp | NotFoundHandler, handler?: NotFoundHandler) {
  if (handler === undefined) return { handler: pathOrHandler as NotFoundHandler };
  const pattern =
    typeof pathOrHandler === 'string'
      ? new RegExp(pathOrHandler.startsWith('^') ? pathOrHandler : `^${pathOrHandler}`)
      : (pathOrHandler as RegExp);
  return { pattern, handler };
}

/** The runtime of an app, created (with empty app settings) on first use. */
function runtimeFor(app: TemplatedApp, settings?: RestSettings): AppRuntime {
  loadUws();
  let rt = runtimeOf(app);
  if (rt === undefined) {
    rt = new AppRuntime(app, new SettingsView(settings ?? new RestSettings(false)), undefined, appPlugins());
    attachRuntime(app, rt);
  }
  return rt;
}
