import type { RoutingContext } from '../context/routing-context';
import type { Provided } from '../io/registry';
import type { ComponentFactory } from '../settings/components';

/** Gets a component for one request: `T` now, or a promise when a `@Context` field waits for a provider. */
export type ComponentAccessor<T> = (ctx: RoutingContext) => T | Promise<T>;

/**
 * How a stage obtains a component (provider, event, handler...): the cached instance, or, for
 * classes marked `@NoCache` or with `@Context` fields, a new instance per request with those
 * fields filled from the request (by the app's component filler: the injection plugin's), waiting for a field whose
 * provider answers with a promise. Decided once, at registration (`ComponentFactory.accessor`).
 */
export function componentAccessor<T>(provided: Provided<T>, components: ComponentFactory): ComponentAccessor<T> {
  return components.accessor(provided, 'wait');
}
