import { marker } from '../../decorators/decorator-forms';
import type { Provided } from '../../io/registry';
import { classMetadata, methodMetadata } from '../../metadata/store';
import type { RouteDefinition } from '../../metadata/route-definition';
import type { AuthorizationProvider, RestAuthenticationProvider } from './contracts';
import { errors } from '../../errors/factories';

/** Metadata keys of the security decorators (class and method extensions). */
export const AUTHENTICATE = Symbol('rest.uws:authenticate');
export const AUTHORIZE = Symbol('rest.uws:authorize');
export const ACCESS = Symbol('rest.uws:access');

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
    if (property !== undefined) methodMetadata(target, property).extensions.set(key, value);
    else if (typeof target === 'function') classMetadata(target).extensions.set(key, value);
    else throw errors.RU_ERR_DECORATOR_TARGET('rest.uws: security decorators go on a class or a method');
  };
}

/**
 * The authentication provider of a class's routes or of one route; replaces the app's
 * (`RestBuilder.authenticateWith`). A route without an identified user answers 401.
 */
export function Authenticate(provider: Provided<RestAuthenticationProvider<any>>): ClassOrMethodDecorator {
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
export function Authorize(provider: Provided<AuthorizationProvider>): ClassOrMethodDecorator {
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
  authenticate?: Provided<RestAuthenticationProvider<any>>;
  /** The route's `@Authorize` provider, if any. */
  authorize?: Provided<AuthorizationProvider>;
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
