import type {
  ContextProvider,
  ContextProviderFunction,
  ExceptionHandler,
  HttpResponseWriter,
  ValueReader,
} from '../context/contracts';
import { RegistrationError } from '../errors/http-errors';
import type { Provided } from '../io/registry';
import { bindHandler } from '../pipeline/exception-handling';
import type { PluginContext, RestPlugin } from '../pipeline/plugin';
import type { RouteAnswer } from '../pipeline/route-hooks';
import type { RoutingContext } from '../context/routing-context';
import type { RouteDefinition } from '../metadata/route-definition';
import type { Constructor } from '../metadata/types';
import type { WebSocketRoute } from '../pipeline/websocket-route';
import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import type { Logger } from '../util/log';
import type { HandlerEntry } from './error-policy';
import type { PluginHooks } from './plugin-host';
import { errors } from '../errors/factories';

/** What a plugin's context needs of its app (the AppRuntime gives it). */
export interface PluginTarget {
  readonly settings: SettingsView;
  readonly logger: Logger;
  readonly components: ComponentFactory;
  readonly app: unknown;
  readonly hooks: PluginHooks;
  registerFromPlugin(targets: Array<Constructor | object>): void;
  addWebSocket(route: WebSocketRoute): void;
  webSocketEndpoints(): ReadonlyArray<{
    readonly route: WebSocketRoute;
    readonly upgrade: { readonly stages: { readonly definition: RouteDefinition } };
  }>;
  routes(): ReadonlyArray<{ readonly definition: RouteDefinition }>;
  routeAnswers(definition: RouteDefinition): readonly RouteAnswer[];
  errorHandlers(definition?: RouteDefinition): HandlerEntry[];
  fail(ctx: RoutingContext, error: unknown): void | Promise<void>;
}

/**
 * Adds a plugin to an app: its setup runs now, with its own context. A plugin of a name used before replaces that
 * one's hooks (what it registered stays).
 */
export function applyPlugin(rt: PluginTarget, plugin: RestPlugin): void {
  if (
    plugin === null ||
    typeof plugin !== 'object' ||
    typeof plugin.name !== 'string' ||
    typeof plugin.setup !== 'function'
  ) {
    throw errors.RU_ERR_PLUGIN('use() takes a plugin: { name: string, setup(app) }');
  }
  rt.hooks.forget(plugin.name);
  try {
    plugin.setup(pluginContext(rt, plugin));
  } catch (err) {
    if (err instanceof RegistrationError) throw err;
    throw errors.RU_ERR_PLUGIN(`plugin ${plugin.name}: ${(err as Error)?.message ?? err}`);
  }
}

function checkFunction(value: unknown, what: string, plugin: RestPlugin): void {
  if (typeof value !== 'function') throw errors.RU_ERR_PLUGIN(`plugin ${plugin.name}: ${what} takes a function`);
}

/**
 * What one plugin may do to one app. Hooks are recorded with the plugin's name (a plugin used again
 * replaces its own); registrations go to the app's own settings, as RestBuilder's would.
 */
function pluginContext(rt: PluginTarget, plugin: RestPlugin): PluginContext {
  const local = rt.settings.local;
  const hooks = rt.hooks;
  return {
    settings: rt.settings,
    get logger() {
      return rt.logger;
    },
    components: rt.components,
    app: rt.app,
    onRequest(hook) {
      checkFunction(hook, 'onRequest', plugin);
      hooks.addRequestHook(plugin, hook);
    },
    onResponse(hook) {
      checkFunction(hook, 'onResponse', plugin);
      hooks.addResponseHook(plugin, hook);
    },
    onError(hook) {
      checkFunction(hook, 'onError', plugin);
      hooks.addErrorHook(plugin, hook);
    },
    onSend(hook) {
      checkFunction(hook, 'onSend', plugin);
      hooks.addSendHook(plugin, hook);
    },
    route(factory) {
      checkFunction(factory, 'route', plugin);
      hooks.addRouteFactory(plugin, factory);
    },
    onShutdown(hook) {
      checkFunction(hook, 'onShutdown', plugin);
      hooks.addShutdownHook(plugin, hook);
    },
    logFields(provider) {
      checkFunction(provider, 'logFields', plugin);
      hooks.addLogFieldProvider(plugin, provider);
    },
    logFieldsOf(ctx) {
      const provider = hooks.logFields;
      return provider === null ? undefined : provider(ctx);
    },
    register(...resources) {
      rt.registerFromPlugin(resources);
    },
    reader(typeOrMediaType: Function | string | Provided<ValueReader>, reader?: Provided<ValueReader>) {
      local.readers.register(typeOrMediaType as any, reader);
    },
    writer(typeOrMediaType: Function | string | Provided<HttpResponseWriter>, writer?: Provided<HttpResponseWriter>) {
      local.writers.register(typeOrMediaType as any, writer);
    },
    errorHandler(errorType: Function, handler: Provided<ExceptionHandler<any>>) {
      checkFunction(errorType, 'errorHandler', plugin);
      hooks.addHandler(plugin, bindHandler(handler as Provided<ExceptionHandler<unknown>>, rt.components, errorType));
    },
    addProvider<T>(type: Function, provider: Provided<ContextProvider<T>> | ContextProviderFunction<T>) {
      local.contextProviders.set(type, provider as any);
    },
    resolveOrigin(resolver) {
      checkFunction(resolver, 'resolveOrigin', plugin);
      hooks.setOriginResolver(plugin, resolver);
    },
    bodyStreamer(streamer) {
      checkFunction(streamer, 'bodyStreamer', plugin);
      hooks.setBodyStreamer(plugin, streamer);
    },
    fillComponents(filler) {
      checkFunction(filler, 'fillComponents', plugin);
      hooks.setComponentFiller(plugin, filler);
    },
    classHandler(handler) {
      checkFunction(handler, 'classHandler', plugin);
      hooks.addClassHandler(plugin, handler);
    },
    webSocket(route) {
      rt.addWebSocket(route);
    },
    routes() {
      return rt.routes().map((h) => h.definition);
    },
    webSockets() {
      return rt.webSocketEndpoints().map((e) => ({ route: e.route, definition: e.upgrade.stages.definition }));
    },
    routeAnswers(route) {
      return rt.routeAnswers(route);
    },
    errorHandlers(route) {
      return rt.errorHandlers(route);
    },
    fail(ctx, error) {
      return rt.fail(ctx, error);
    },
  };
}
