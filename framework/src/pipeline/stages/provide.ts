import type { ComponentFactory } from '../../settings/components';
import type { SettingsView } from '../../settings/settings';
import { isThenable, providerFunction } from '../context-values';
import type { Step } from './step';

/**
 * The app's request providers (`provide`): each runs on every request of the route and pushes what it
 * provides into the routing context, where `@Context` arguments of its class find it.
 */
export function provideSteps(settings: SettingsView, components: ComponentFactory): Step[] {
  return settings.requestProviders().map((provider) => {
    const provide = providerFunction(provider, components);
    return (ctx) => {
      const out = provide(ctx.request, ctx);
      const push = (v: unknown) => {
        if (v !== null && v !== undefined) ctx.put((v as object).constructor, v);
      };
      if (isThenable(out)) return Promise.resolve(out).then(push);
      push(out);
    };
  });
}
