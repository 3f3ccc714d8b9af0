import type { RoutingContext } from '../context/routing-context';
import { designType, resolvedClassMetadata } from '../metadata/store';
import type { Constructor } from '../metadata/types';
import { compileArgument, type ArgumentScope } from './arguments';
import { isThenable, type ValueResolver } from './context-values';
import type { Exchange } from './exchange';
import type { ComponentFactory, ComponentFill } from '../settings/components';
import type { SettingsView } from '../settings/settings';

/**
 * Compiles the `@Context` fields of a component class into one function that fills them on a fresh instance
 * (undefined when the class has none). Each field is read like a `@Context` argument; a value that cannot be
 * provided gives 400, like a `@Context` argument.
 */
export function contextFieldFiller(
  ctor: Constructor,
  settings: SettingsView,
  components: ComponentFactory,
): ComponentFill | undefined {
  const scope: ArgumentScope = {
    label: ctor.name,
    routeText: ctor.name,
    pathParamNames: [],
    consumes: [],
    settings,
    components,
    suppressCheck: false,
    bodyInstantiated: false,
    bodyDepthBounded: false,
  };
  const fields: Array<[string | symbol, ValueResolver]> = [];
  for (const [key, meta] of resolvedClassMetadata(ctor).fields) {
    if (meta.source !== 'context') continue;
    fields.push([key, compileArgument(meta, designType(ctor.prototype, key), `${ctor.name}.${String(key)}`, scope)]);
  }
  const n = fields.length;
  if (n === 0) return undefined;
  return (instance: object, ctx: RoutingContext) => {
    const target = instance as Record<string | symbol, unknown>;
    let pending: Promise<unknown>[] | undefined;
    for (let i = 0; i < n; i++) {
      const [key, resolve] = fields[i]!;
      // Components are made for requests the pipeline runs: the context is always its Exchange.
      const value = resolve(ctx as Exchange);
      if (isThenable(value))
        (pending ??= []).push(
          Promise.resolve(value).then((v) => {
            target[key] = v;
          }),
        );
      else target[key] = value;
    }
    return pending === undefined ? undefined : Promise.all(pending).then(() => undefined);
  };
}
