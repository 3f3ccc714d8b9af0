import type { ExceptionHandler } from '../context/contracts';
import type { Provided } from '../io/registry';
import { type BoundHandler, bindHandler, type ErrorPolicy } from '../pipeline/exception-handling';
import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import type { Logger } from '../util/log';
import type { PluginHooks } from './plugin-host';

/**
 * Who answers an app's errors, inside routes (after a route's own `@CatchWith` handlers) and outside them (404,
 * 405, 413, refused bodies): the app's registered handlers, then the plugins', with the plugins' error hooks told
 * first. Made anew whenever the app's plugins or settings change; compiled routes read the app's current one.
 */
export function errorPolicyOf(
  settings: SettingsView,
  components: ComponentFactory,
  hooks: PluginHooks,
  logger: Logger,
): ErrorPolicy {
  return {
    appHandlers: settings
      .exceptionHandlerEntries()
      .map((e) => bindHandler(e.provider as Provided<ExceptionHandler<unknown>>, components, e.key)),
    pluginHandlers: hooks.pluginHandlers(),
    onError: hooks.onError,
    logger,
  };
}

/** One exception handler as API documents see it: the error class it takes, and the handler when it is cached. */
export interface HandlerEntry {
  type: Function;
  handler: object | undefined;
  /** A route's own (`@CatchWith`). */
  own?: true;
}

/** The exception handlers in the order they are tried: a route's own (`own`), the app's, the plugins'. */
export function handlerEntries(policy: ErrorPolicy, own: readonly BoundHandler[]): HandlerEntry[] {
  const entry = (h: BoundHandler) => ({ type: h.type, handler: h.handler as object | undefined });
  return [
    ...own.map((h) => ({ ...entry(h), own: true as const })),
    ...policy.appHandlers.map(entry),
    ...policy.pluginHandlers.map(entry),
  ];
}
