import type { TemplatedApp } from 'uWebSockets.js';
import type { ContextProvider, ContextProviderFunction, ExceptionHandler, HttpResponseWriter, NotFoundResponseWriter, ValueReader } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import { attachRuntime, runtimeOf } from '../adapter/uws-adapter';
import { registryChanged } from '../io/generation';
import type { MediaTypeRegistry, Provided } from '../io/registry';
import type { Constructor } from '../metadata/types';
import { AppRuntime, liveRuntimes } from '../app/app-runtime';
import { globalSettings, RestSettings, SettingsView, type InjectionProvider, type NotFoundHandler } from '../settings/settings';
import { loadUws } from '../adapter/load-uws';
import '../settings/built-ins';

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
  static addProvider<T>(type: Constructor<T> | Function, provider: Provided<ContextProvider<T>> | ContextProviderFunction<T>): void {
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

  /** Empties the caches of reader, writer, handler and provider instances (routes are rebuilt). */
  static clearCache(): void {
    for (const rt of liveRuntimes()) rt.components.clear();
    registryChanged();
  }
}

export function notFoundEntry(pathOrHandler: string | RegExp | NotFoundHandler, handler?: NotFoundHandler) {
  if (handler === undefined) return { handler: pathOrHandler as NotFoundHandler };
  const pattern = typeof pathOrHandler === 'string' ? new RegExp(pathOrHandler.startsWith('^') ? pathOrHandler : `^${pathOrHandler}`) : (pathOrHandler as RegExp);
  return { pattern, handler };
}

/** The runtime of an app, created (with empty app settings) on first use. */
export function runtimeFor(app: TemplatedApp, settings?: RestSettings): AppRuntime {
  loadUws();
  let rt = runtimeOf(app);
  if (rt === undefined) {
    rt = new AppRuntime(app, new SettingsView(settings ?? new RestSettings(false)));
    attachRuntime(app, rt);
  }
  return rt;
}

export type { NotFoundResponseWriter };
