import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import type { Logger } from '../util/log';
import type { ErrorPolicySource } from './exception-handling';
import type { RouteHookFactory } from './plugin';

/** What compiling a route or an upgrade needs from its app. */
export interface CompileContext {
  settings: SettingsView;
  components: ComponentFactory;
  logger: Logger;
  app: unknown;
  /** The app's plugins' route hook factories, in order. */
  hooks: readonly RouteHookFactory[];
  /** Where compiled routes read who answers errors after their own handlers (the app's current policy). */
  errors: ErrorPolicySource;
}
