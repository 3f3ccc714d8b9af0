import { compileArgument, type ArgumentScope } from './arguments';
import { isThenable, type ValueResolver } from './context-values';
import type { RoutingContext } from '../context/routing-context';
import type { Exchange } from './exchange';
import type { Provided } from '../io/registry';
import { designType, resolvedClassMetadata } from '../metadata/store';
import type { Constructor } from '../metadata/types';
import { isClass, setContextFieldFiller, type ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';

/** Gets a component for one request: `T` now, or a promise when a `@Context` field waits for a provider. */
export type ComponentAccessor<T> = (ctx: RoutingContext) => T | Promise<T>;

/**
 * How a stage obtains a component (provider, event, handler...): the cached instance, or, for
 * classes marked `@NoCache` or with `@Context` fields, a new instance per request with those
 * fields filled from the request. Decided once, at registration.
 */
export function componentAccessor<T>(provided: Provided<T>, components: ComponentFactory, settings: SettingsView): ComponentAccessor<T> {
  if (typeof provided !== 'function' || !isClass(provided as Function) || !components.isPerRequest(provided)) {
    const instance = components.get(provided);
    return () => instance;
  }
  const ctor = provided as Constructor<T>;
  const fill = contextFieldFiller(ctor, settings, components);
  return (ctx) => fill(components.create(ctor), ctx);
}

/**
 * Compiles the `@Context` fields of a component class into one function that fills them on a
 * fresh instance. A value that cannot be provided gives 400, like a `@Context` argument.
 */
export function contextFieldFiller<T>(ctor: Constructor<T>, settings: SettingsView, components: ComponentFactory): (instance: T, ctx: RoutingContext) => T | Promise<T> {
  const scope: ArgumentScope = {
    label: ctor.name,
    routeText: ctor.name,
    pathParamNames: [],
    consumes: [],
    settings,
    components,
    suppressCheck: false,
    bodyInstantiated: false,
  };
  const fields: Array<[string | symbol, ValueResolver]> = [];
  for (const [key, meta] of resolvedClassMetadata(ctor).fields) {
    if (meta.source !== 'context') continue;
    fields.push([key, compileArgument(meta, designType(ctor.prototype, key), `${ctor.name}.${String(key)}`, scope)]);
  }
  const n = fields.length;
  if (n === 0) return (instance) => instance;
  return (instance, ctx) => {
    const target = instance as Record<string | symbol, unknown>;
    let pending: Promise<unknown>[] | undefined;
    for (let i = 0; i < n; i++) {
      const [key, resolve] = fields[i]!;
      // Components are made for requests the pipeline runs: the context is always its Exchange.
      const value = resolve(ctx as Exchange);
      if (isThenable(value)) (pending ??= []).push(Promise.resolve(value).then((v) => { target[key] = v; }));
      else target[key] = value;
    }
    return pending === undefined ? instance : Promise.all(pending).then(() => instance);
  };
}

// The core's ComponentFactory.accessor (readers, writers, handlers, providers) fills fields with this.
setContextFieldFiller((ctor, settings, components) => contextFieldFiller(ctor, settings, components));
