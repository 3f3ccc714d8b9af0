import type { Provided } from '../../io/registry';
import type { SettingsView } from '../../settings/settings';
import type { AuthorizationProvider, RestAuthenticationProvider } from './contracts';
import { errors } from '../../errors/factories';

/** Settings keys of the app-wide providers. */
export const GLOBAL_AUTHENTICATION = Symbol('rest.uws:global-authentication');
export const GLOBAL_AUTHORIZATION = Symbol('rest.uws:global-authorization');

/** Checks a provider given to `authenticateWith`/`authorizeWith` (a class or an instance). */
export function checkProvider(provider: unknown, what: string): void {
  if (provider === null || (typeof provider !== 'function' && typeof provider !== 'object')) {
    throw errors.RU_ERR_SECURITY_OPTIONS(`rest.uws: ${what} takes a provider class or instance`);
  }
}

/** The app-wide providers a route falls back to (for tools such as OpenAPI). */
export function appSecurity(settings: SettingsView): {
  /** The app's (else the global) authentication provider. */
  authenticate?: Provided<RestAuthenticationProvider<any>>;
  /** The app's (else the global) authorization provider. */
  authorize?: Provided<AuthorizationProvider>;
} {
  return {
    authenticate: settings.extension<Provided<RestAuthenticationProvider<any>>>(GLOBAL_AUTHENTICATION),
    authorize: settings.extension<Provided<AuthorizationProvider>>(GLOBAL_AUTHORIZATION),
  };
}
