import { registryChanged } from '../../io/generation';
import type { Provided } from '../../io/registry';
import { RestBuilder } from '../../builder/rest-builder';
import { RestRouter } from '../../builder/rest-router';
import { globalSettings, type SettingsView } from '../../settings/settings';
import type { AuthorizationProvider, RestAuthenticationProvider } from './contracts';

/** Settings keys of the app-wide providers. */
export const GLOBAL_AUTHENTICATION = Symbol('rest.uws:global-authentication');
export const GLOBAL_AUTHORIZATION = Symbol('rest.uws:global-authorization');

declare module '../../builder/rest-builder' {
  interface RestBuilder {
    /**
     * The authentication provider of every route of this app that declares none with
     * `@Authenticate`. Routes marked `@PermitAll` work without credentials.
     */
    authenticateWith(provider: Provided<RestAuthenticationProvider<any>>): this;
    /** The authorization provider of every route of this app that declares none with `@Authorize`. */
    authorizeWith(provider: Provided<AuthorizationProvider>): this;
  }
}

declare module '../../builder/rest-router' {
  namespace RestRouter {
    /** The authentication provider of every app's routes that declare none (an app's own `authenticateWith` wins). */
    function authenticateWith(provider: Provided<RestAuthenticationProvider<any>>): void;
    /** The authorization provider of every app's routes that declare none (an app's own `authorizeWith` wins). */
    function authorizeWith(provider: Provided<AuthorizationProvider>): void;
  }
}

function checkProvider(provider: unknown, what: string): void {
  if (provider === null || (typeof provider !== 'function' && typeof provider !== 'object')) {
    throw new TypeError(`rest.uws: ${what} takes a provider class or instance`);
  }
}

RestBuilder.prototype.authenticateWith = function (this: RestBuilder, provider) {
  checkProvider(provider, 'authenticateWith');
  this.settings.extensions.set(GLOBAL_AUTHENTICATION, provider);
  return this;
};

RestBuilder.prototype.authorizeWith = function (this: RestBuilder, provider) {
  checkProvider(provider, 'authorizeWith');
  this.settings.extensions.set(GLOBAL_AUTHORIZATION, provider);
  return this;
};

(RestRouter as unknown as { authenticateWith: typeof RestRouter.authenticateWith }).authenticateWith = (provider) => {
  checkProvider(provider, 'RestRouter.authenticateWith');
  globalSettings.extensions.set(GLOBAL_AUTHENTICATION, provider);
  registryChanged();
};

(RestRouter as unknown as { authorizeWith: typeof RestRouter.authorizeWith }).authorizeWith = (provider) => {
  checkProvider(provider, 'RestRouter.authorizeWith');
  globalSettings.extensions.set(GLOBAL_AUTHORIZATION, provider);
  registryChanged();
};

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
