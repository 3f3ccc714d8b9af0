import type { RoutingContext } from './routing-context';
import type { User } from './user';

/**
 * Identifies the user of a request (the spec's RestAuthenticationProvider), in two steps:
 * `provideCredentials` reads them from the request (null when there are none), then
 * `authenticate` checks them and yields the `User` (null when they identify nobody).
 * Either step may return a promise, or throw its own error, which goes to the exception handlers.
 *
 * ```ts
 * class ApiKeyProvider implements RestAuthenticationProvider<string> {
 *   provideCredentials(ctx: RoutingContext) { return ctx.request.getHeader('x-api-key') ?? null; }
 *   async authenticate(key: string) { return (await keys.find(key)) ? new User('partner', ['partner']) : null; }
 * }
 * ```
 */
export interface RestAuthenticationProvider<C = unknown> {
  /** The credentials in the request, or null when it carries none (401 on a route that requires authentication). */
  provideCredentials(ctx: RoutingContext): C | null | undefined | Promise<C | null | undefined>;
  /** The user the credentials identify, or null (401). */
  authenticate(credentials: C, ctx: RoutingContext): User | null | undefined | Promise<User | null | undefined>;
  /**
   * The `WWW-Authenticate` challenge sent with a 401 (`Bearer realm="api"`). `rejected` is true
   * when credentials were given but identified nobody. Without it, 401s carry no challenge.
   */
  challenge?(rejected: boolean): string | undefined;
}

/**
 * Decides whether an authenticated user may use a route (the spec's AuthorizationProvider).
 * `getAuthorizations` allows with `true`; anything else (false, null, undefined) gives 403, so a
 * forgotten return denies. Throwing sends that error to the exception handlers instead.
 */
export interface AuthorizationProvider {
  /** Names the provider in error messages and in the OpenAPI document. */
  getId(): string;
  /** `true` allows the request; anything else answers 403. */
  getAuthorizations(user: User, ctx: RoutingContext): boolean | Promise<boolean>;
}
