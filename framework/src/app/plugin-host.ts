import type { RoutingContext } from '../context/routing-context';
import type { OriginResolver } from '../http/client-origin';
import type {
  BodyStreamer,
  ClassHandler,
  ComponentFiller,
  ErrorHook,
  LogFieldProvider,
  LogFields,
  RequestHook,
  ResponseHook,
  RestPlugin,
  RouteHookFactory,
  SendHook,
  ShutdownHook,
} from '../pipeline/plugin';
import type { BoundHandler } from '../pipeline/exception-handling';
import { composeAll, composeRequestHooks, composeSendHooks } from '../pipeline/hooks';
import { errors } from '../errors/factories';

/** One hook and the plugin that added it (a plugin used again replaces its hooks). */
interface Owned<T> {
  plugin: string;
  value: T;
}

/**
 * What an app's plugins added, by lifecycle point, and the hooks composed from it. A point no plugin
 * uses composes to null, so the request path pays one null check for it.
 */
export class PluginHooks {
  private readonly names: string[] = [];
  private requestHooks: Owned<RequestHook>[] = [];
  private responseHooks: Owned<ResponseHook>[] = [];
  private errorHooks: Owned<ErrorHook>[] = [];
  private sendHooks: Owned<SendHook>[] = [];
  private routeFactories: Owned<RouteHookFactory>[] = [];
  private handlers: Owned<BoundHandler>[] = [];
  private classHandlerList: Owned<ClassHandler>[] = [];
  private shutdownHooks: Owned<ShutdownHook>[] = [];
  private logFieldProviders: Owned<LogFieldProvider>[] = [];
  private streamer: Owned<BodyStreamer> | null = null;
  private resolver: Owned<OriginResolver> | null = null;
  private filler: Owned<ComponentFiller> | null = null;

  /** Runs before routing; true when a hook answered. */
  onRequest: ((ctx: RoutingContext) => boolean) | null = null;
  onResponse: ResponseHook | null = null;
  onError: ErrorHook | null = null;
  onSend: SendHook | null = null;
  bodyStreamer: BodyStreamer | null = null;
  /** The fields the plugins add to a request's log lines (null: no plugin adds any). */
  logFields: LogFieldProvider | null = null;
  /** How requests read their client's origin behind proxies (null: from the connection). */
  originResolver: OriginResolver | null = null;

  /** Forgets what a plugin added before (it is being used again). */
  forget(name: string): void {
    const keep = <T>(list: Owned<T>[]) => list.filter((o) => o.plugin !== name);
    this.requestHooks = keep(this.requestHooks);
    this.responseHooks = keep(this.responseHooks);
    this.errorHooks = keep(this.errorHooks);
    this.sendHooks = keep(this.sendHooks);
    this.routeFactories = keep(this.routeFactories);
    this.handlers = keep(this.handlers);
    this.classHandlerList = keep(this.classHandlerList);
    this.shutdownHooks = keep(this.shutdownHooks);
    this.logFieldProviders = keep(this.logFieldProviders);
    if (this.streamer?.plugin === name) this.streamer = null;
    if (this.resolver?.plugin === name) this.resolver = null;
    if (this.filler?.plugin === name) this.filler = null;
    if (!this.names.includes(name)) this.names.push(name);
  }

  addRequestHook(plugin: RestPlugin, hook: RequestHook): void {
    this.requestHooks.push({ plugin: plugin.name, value: hook });
  }
  addResponseHook(plugin: RestPlugin, hook: ResponseHook): void {
    this.responseHooks.push({ plugin: plugin.name, value: hook });
  }
  addErrorHook(plugin: RestPlugin, hook: ErrorHook): void {
    this.errorHooks.push({ plugin: plugin.name, value: hook });
  }
  addSendHook(plugin: RestPlugin, hook: SendHook): void {
    this.sendHooks.push({ plugin: plugin.name, value: hook });
  }
  addRouteFactory(plugin: RestPlugin, factory: RouteHookFactory): void {
    this.routeFactories.push({ plugin: plugin.name, value: factory });
  }
  addHandler(plugin: RestPlugin, handler: BoundHandler): void {
    this.handlers.push({ plugin: plugin.name, value: handler });
  }
  addClassHandler(plugin: RestPlugin, handler: ClassHandler): void {
    this.classHandlerList.push({ plugin: plugin.name, value: handler });
  }
  addShutdownHook(plugin: RestPlugin, hook: ShutdownHook): void {
    this.shutdownHooks.push({ plugin: plugin.name, value: hook });
  }
  addLogFieldProvider(plugin: RestPlugin, provider: LogFieldProvider): void {
    this.logFieldProviders.push({ plugin: plugin.name, value: provider });
  }
  setBodyStreamer(plugin: RestPlugin, streamer: BodyStreamer): void {
    if (this.streamer !== null && this.streamer.plugin !== plugin.name) {
      throw errors.RU_ERR_PLUGIN_CONFLICT(
        `rest.uws: plugin ${plugin.name} streams request bodies, but ${this.streamer.plugin} already does (one body streamer per app)`,
      );
    }
    this.streamer = { plugin: plugin.name, value: streamer };
  }

  setOriginResolver(plugin: RestPlugin, resolver: OriginResolver): void {
    if (this.resolver !== null && this.resolver.plugin !== plugin.name) {
      throw errors.RU_ERR_PLUGIN_CONFLICT(
        `rest.uws: plugin ${plugin.name} reads the client's origin, but ${this.resolver.plugin} already does (one per app)`,
      );
    }
    this.resolver = { plugin: plugin.name, value: resolver };
  }

  setComponentFiller(plugin: RestPlugin, filler: ComponentFiller): void {
    if (this.filler !== null && this.filler.plugin !== plugin.name) {
      throw errors.RU_ERR_PLUGIN_CONFLICT(
        `rest.uws: plugin ${plugin.name} fills components, but ${this.filler.plugin} already does (one per app)`,
      );
    }
    this.filler = { plugin: plugin.name, value: filler };
  }

  /**
   * How many of the things routes are compiled with the plugins added (route hooks, handlers, body streamer, component
   * filler). The origin resolver is not one: like the app-wide hooks, each request reads it from here.
   */
  routeInputCount(): number {
    return (
      this.routeFactories.length +
      this.handlers.length +
      this.classHandlerList.length +
      (this.streamer === null ? 0 : 1) +
      (this.filler === null ? 0 : 1)
    );
  }

  /** What fills per-request components' fields: set at once (plugins set up after it bind components with it). */
  componentFiller(): ComponentFiller | null {
    return this.filler?.value ?? null;
  }

  routeHookFactories(): RouteHookFactory[] {
    return this.routeFactories.map((o) => o.value);
  }
  /**
   * The plugins' exception handlers, those of the plugin used last first (in the order each plugin added its own):
   * a plugin can answer errors an earlier one answers (problem details answers validation's failures).
   */
  pluginHandlers(): BoundHandler[] {
    const rank = (o: Owned<BoundHandler>) => this.names.indexOf(o.plugin);
    return [...this.handlers].sort((a, b) => rank(b) - rank(a)).map((o) => o.value);
  }
  classHandlers(): ClassHandler[] {
    return this.classHandlerList.map((o) => o.value);
  }
  /** Tells every plugin that the server is shutting down; returns what failed, by plugin, for the server to log. */
  shutdown(): Array<{ plugin: string; err: unknown }> {
    const failed: Array<{ plugin: string; err: unknown }> = [];
    for (const { plugin, value } of this.shutdownHooks) {
      try {
        value();
      } catch (err) {
        failed.push({ plugin, err });
      }
    }
    return failed;
  }

  /** Composes each lifecycle point into one function, or null when no plugin uses it. */
  compose(): void {
    this.onRequest = composeRequestHooks(this.requestHooks.map((o) => o.value));
    this.onResponse = composeAll(this.responseHooks.map((o) => o.value));
    this.onError = composeAll(this.errorHooks.map((o) => o.value));
    this.onSend = composeSendHooks(this.sendHooks.map((o) => o.value));
    this.bodyStreamer = this.streamer?.value ?? null;
    this.logFields = composeLogFields(this.logFieldProviders.map((o) => o.value));
    this.originResolver = this.resolver?.value ?? null;
  }
}

/** One provider of log fields from several: their fields merged in order (undefined when none gives any). */
function composeLogFields(providers: readonly LogFieldProvider[]): LogFieldProvider | null {
  if (providers.length === 0) return null;
  if (providers.length === 1) return providers[0]!;
  return (ctx) => {
    let merged: Record<string, unknown> | undefined;
    for (let i = 0; i < providers.length; i++) {
      const fields: LogFields | undefined = providers[i]!(ctx);
      if (fields !== undefined) merged = merged === undefined ? { ...fields } : Object.assign(merged, fields);
    }
    return merged;
  };
}
