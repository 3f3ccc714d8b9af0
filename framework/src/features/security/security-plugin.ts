import {
  GLOBAL_AUTHENTICATION,
  GLOBAL_AUTHORIZATION,
  UnauthorizedException,
  User,
  componentAccessor,
  errors,
  isThenable,
  routeSecurity,
  type AccessRule,
  type AuthorizationProvider,
  type ComponentAccessor,
  type Provided,
  type RestAuthenticationProvider,
  type RestPlugin,
  type RoutingContext,
} from '../../plugin';

/** Runs `fn` on a value now, or once it settles: keeps synchronous providers synchronous. */
function then<T>(value: T | Promise<T>, fn: (v: T) => void | Promise<void>): void | Promise<void> {
  return isThenable(value) ? Promise.resolve(value).then(fn) : fn(value as T);
}

function unauthorized(
  provider: RestAuthenticationProvider<unknown> | undefined,
  rejected: boolean,
  message: string,
  factory: typeof errors.RU_ERR_NO_CREDENTIALS | typeof errors.RU_ERR_BAD_CREDENTIALS,
): UnauthorizedException {
  const challenge = provider?.challenge?.(rejected);
  return factory(message, { headers: challenge ? { 'WWW-Authenticate': challenge } : {} });
}

/**
 * Compiles a route's security into one `before` step: authenticate (route provider, else the app's),
 * then the authorization provider, then `@RolesAllowed`. `@DenyAll` refuses before anything runs;
 * `@PermitAll` makes credentials optional and skips authorization.
 * Routes without any security get no step at all.
 */
function compileSecurity(
  route: ReturnType<typeof routeSecurity>,
  globalAuthn: unknown,
  globalAuthz: unknown,
  access: (p: Provided<unknown>) => ComponentAccessor<unknown>,
): ((ctx: RoutingContext) => void | Promise<void>) | undefined {
  const rule: AccessRule | undefined = route.access;
  const authnProvided = (route.authenticate ?? globalAuthn) as
    | Provided<RestAuthenticationProvider<unknown>>
    | undefined;
  const authzProvided = (route.authorize ?? globalAuthz) as Provided<AuthorizationProvider> | undefined;
  if (authnProvided === undefined && authzProvided === undefined && rule === undefined) return undefined;

  const permitAll = rule?.kind === 'permitAll';
  const denyAll = rule?.kind === 'denyAll';
  const roles = rule?.kind === 'roles' ? rule.roles : undefined;
  const authn =
    authnProvided !== undefined
      ? (access(authnProvided) as ComponentAccessor<RestAuthenticationProvider<unknown>>)
      : undefined;
  const authz =
    authzProvided !== undefined && !permitAll
      ? (access(authzProvided) as ComponentAccessor<AuthorizationProvider>)
      : undefined;

  const checkRoles = (_ctx: RoutingContext, user: User): void => {
    if (roles === undefined) return;
    for (let i = 0; i < roles.length; i++) if (user.hasRole(roles[i]!)) return;
    // The client learns which rule refused it (the code), not the class, the method or the roles: those are internals.
    throw errors.RU_ERR_ROLE_REQUIRED('The user has none of the roles this route requires');
  };

  const authorize = (
    ctx: RoutingContext,
    provider: RestAuthenticationProvider<unknown> | undefined,
  ): void | Promise<void> => {
    if (permitAll) return;
    const user = ctx.user();
    if (user === undefined)
      throw unauthorized(provider, false, 'Authentication required', errors.RU_ERR_NO_CREDENTIALS);
    if (authz === undefined) return checkRoles(ctx, user);
    return then(authz(ctx), (authorizer) =>
      then(authorizer.getAuthorizations(user, ctx), (allowed) => {
        if (allowed !== true) throw errors.RU_ERR_NOT_AUTHORIZED('This route is not allowed for this user');
        checkRoles(ctx, user);
      }),
    );
  };

  if (denyAll) {
    return () => {
      throw errors.RU_ERR_DENY_ALL('This route is available to no one');
    };
  }
  if (authn === undefined) return (ctx) => authorize(ctx, undefined);

  return (ctx) =>
    then(authn(ctx), (provider) =>
      then(provider.provideCredentials(ctx), (credentials) => {
        if (credentials === null || credentials === undefined) {
          if (permitAll) return;
          throw unauthorized(provider, false, 'Authentication required', errors.RU_ERR_NO_CREDENTIALS);
        }
        return then(provider.authenticate(credentials, ctx), (user) => {
          if (user === null || user === undefined)
            throw unauthorized(provider, true, 'Invalid credentials', errors.RU_ERR_BAD_CREDENTIALS);
          if (!(user instanceof User))
            throw errors.RU_ERR_SECURITY_PROVIDER(
              `${provider.constructor.name}.authenticate() must yield a User (or null), not ${typeof user}`,
            );
          ctx.setUser(user);
          return authorize(ctx, provider);
        });
      }),
    );
}

/**
 * Authentication and authorization (`@Authenticate`, `@Authorize`, `@RolesAllowed`, `@PermitAll`,
 * `@DenyAll`, and the app's providers): each secured route gets one `onRequest` hook; routes without any
 * security get none. Runs on WebSocket upgrades too.
 */
export const securityPlugin: RestPlugin = {
  name: 'security',
  setup(app) {
    app.route((route) => {
      const onRequest = compileSecurity(
        routeSecurity(route.definition),
        route.settings.extension(GLOBAL_AUTHENTICATION),
        route.settings.extension(GLOBAL_AUTHORIZATION),
        (p) => componentAccessor(p, route.components),
      );
      return onRequest ? { onRequest } : undefined;
    });
  },
};
