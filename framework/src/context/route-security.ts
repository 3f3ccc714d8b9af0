import { marker } from '../decorators/decorator-forms';
import { metadataExtensions } from '../decorators/set-metadata';
import { errors } from '../errors/factories';
import type { RouteDefinition } from '../metadata/route-definition';
import type { Constructor } from '../metadata/types';
import type { AuthorizationProvider, RestAuthenticationProvider } from './security-contracts';

/**
 * What a route's security is declared to be: the security decorators, and the app-wide providers behind them.
 * The security plugin enforces it; API documents (OpenAPI) describe it, and plugins that serve routes of their own
 * (Swagger UI, the OpenAPI document) declare them public with `@PermitAll`.
 */

/** Metadata keys of the security decorators (class and method extensions). */
export const AUTHENTICATE = Symbol('rest.uws:authenticate');
export const AUTHORIZE = Symbol('rest.uws:authorize');
export const ACCESS = Symbol('rest.uws:access');
/** Settings keys of the app-wide providers. */
export const GLOBAL_AUTHENTICATION = Symbol('rest.uws:global-authentication');
export const GLOBAL_AUTHORIZATION = Symbol('rest.uws:global-authorization');

type ProviderOf<T> = Constructor<T> | T;

/** What `@RolesAllowed`, `@PermitAll` or `@DenyAll` declared; the method's replaces the class's. */
export type AccessRule =
  | {
      /** `@RolesAllowed` */
      kind: 'roles';
      /** The roles, any of which allows the request. */
      roles: readonly string[];
    }
  | {
      /** `@PermitAll` */
      kind: 'permitAll';
    }
  | {
      /** `@DenyAll` */
      kind: 'denyAll';
    };

type ClassOrMethodDecorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void;

function record(key: symbol, value: unknown): ClassOrMethodDecorator {
  return (target, property) => {
    if (property === undefined && typeof target !== 'function')
      throw errors.RU_ERR_DECORATOR_TARGET('rest.uws: security decorators go on a class or a method');
    metadataExtensions(target, property).set(key, value);
  };
}

/**
 * The authentication provider of a class's routes or of one route; replaces the app's
 * (`RestBuilder.authenticateWith`). A route without an identified user answers 401.
 */
export function Authenticate(provider: ProviderOf<RestAuthenticationProvider<any>>): ClassOrMethodDecorator {
  if (provider === undefined || provider === null)
    throw errors.RU_ERR_DECORATOR_ARGUMENT(
      'rest.uws: @Authenticate takes an authentication provider class or instance',
    );
  return record(AUTHENTICATE, provider);
}

/**
 * The authorization provider of a class's routes or of one route; replaces the app's
 * (`RestBuilder.authorizeWith`). A user it does not allow gets 403.
 */
export function Authorize(provider: ProviderOf<AuthorizationProvider>): ClassOrMethodDecorator {
  if (provider === undefined || provider === null)
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @Authorize takes an authorization provider class or instance');
  return record(AUTHORIZE, provider);
}

/** Users having any of these roles may call the route (others get 403, no user 401). */
export function RolesAllowed(...roles: Array<string | readonly string[]>): ClassOrMethodDecorator {
  const list = roles.flat();
  if (list.length === 0 || list.some((r) => typeof r !== 'string' || r.length === 0)) {
    throw errors.RU_ERR_DECORATOR_ARGUMENT(
      'rest.uws: @RolesAllowed takes one or more role names, e.g. @RolesAllowed("admin", "editor")',
    );
  }
  return record(ACCESS, { kind: 'roles', roles: list } satisfies AccessRule);
}

/** Anyone may call the route: no user is required and authorization is skipped. */
export const PermitAll = marker((target: object, key?: string | symbol) =>
  record(ACCESS, { kind: 'permitAll' } satisfies AccessRule)(target, key),
);

/** Nobody may call the route: always 403. */
export const DenyAll = marker((target: object, key?: string | symbol) =>
  record(ACCESS, { kind: 'denyAll' } satisfies AccessRule)(target, key),
);

/** The security declared on a route (its own, else its class's), for tools such as OpenAPI. */
export interface RouteSecurity {
  /** The route's `@Authenticate` provider, if any. */
  authenticate?: ProviderOf<RestAuthenticationProvider<any>>;
  /** The route's `@Authorize` provider, if any. */
  authorize?: ProviderOf<AuthorizationProvider>;
  /** The route's `@RolesAllowed`, `@PermitAll` or `@DenyAll`, if any. */
  access?: AccessRule;
}

/** Reads a route's security decorators; app-wide providers are not included (see `appSecurity`). */
export function routeSecurity(definition: RouteDefinition): RouteSecurity {
  return {
    authenticate: definition.extensions.get(AUTHENTICATE) as RouteSecurity['authenticate'],
    authorize: definition.extensions.get(AUTHORIZE) as RouteSecurity['authorize'],
    access: definition.extensions.get(ACCESS) as AccessRule | undefined,
  };
}

/** Checks a provider given to `authenticateWith`/`authorizeWith` (a class or an instance). */
export function checkProvider(provider: unknown, what: string): void {
  if (provider === null || (typeof provider !== 'function' && typeof provider !== 'object')) {
    throw errors.RU_ERR_SECURITY_OPTIONS(`rest.uws: ${what} takes a provider class or instance`);
  }
}

/** The app-wide providers a route falls back to (for tools such as OpenAPI). */
export function appSecurity(settings: { extension<T>(key: symbol): T | undefined }): {
  /** The app's (else the global) authentication provider. */
  authenticate?: ProviderOf<RestAuthenticationProvider<any>>;
  /** The app's (else the global) authorization provider. */
  authorize?: ProviderOf<AuthorizationProvider>;
} {
  return {
    authenticate: settings.extension<ProviderOf<RestAuthenticationProvider<any>>>(GLOBAL_AUTHENTICATION),
    authorize: settings.extension<ProviderOf<AuthorizationProvider>>(GLOBAL_AUTHORIZATION),
  };
}
