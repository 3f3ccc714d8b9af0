import type { RoutingContext } from '../context/routing-context';
import type { Provided } from '../io/registry';
import type { Constructor } from '../metadata/types';
import { isClass, type ComponentFactory } from '../settings/components';
import { isThenable } from './context-values';

/** Gets a component for one request: `T` now, or a promise when a `@Context` field waits for a provider. */
export type ComponentAccessor<T> = (ctx: RoutingContext) => T | Promise<T>;

/**
 * How a stage obtains a component (provider, event, handler...): the cached instance, or, for
 * classes marked `@NoCache` or with `@Context` fields, a new instance per request with those
 * fields filled from the request (by the app's component filler: the injection plugin's). Decided once,
 * at registration.
 */
export function componentAccessor<T>(provided: Provided<T>, components: ComponentFactory): ComponentAccessor<T> {
  if (typeof provided !== 'function' || !isClass(provided as Function) || !components.isPerRequest(provided)) {
    const instance = components.get(provided);
    return () => instance;
  }
  const ctor = provided as Constructor<T>;
  // Made per request: what would fail on every request is refused now, at registration.
  components.refuseUnconstructible(ctor);
  const fill = components.fillFor(ctor);
  if (fill === undefined) return () => components.instantiate(ctor);
  return (ctx) => {
    const instance = components.instantiate(ctor);
    const out = fill(instance, ctx);
    return isThenable(out) ? Promise.resolve(out).then(() => instance) : instance;
  };
}
