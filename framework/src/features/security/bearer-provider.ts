import { errors, type RestAuthenticationProvider, type RoutingContext, type User } from '../../plugin';
import { SecretTable } from './constant-time';

/** Checks a bearer token: the `User` it belongs to, or null. May be async (a database, a JWT library). */
export type TokenVerifier = (
  token: string,
  ctx: RoutingContext,
) => User | null | undefined | Promise<User | null | undefined>;

/** Options of `BearerAuthenticationProvider`. */
export interface BearerOptions {
  /** The realm named in the `WWW-Authenticate` challenge (default "api"). */
  realm?: string;
}

/** RFC 6750 token syntax (token68); anything else is not a bearer token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * HTTP Bearer authentication (RFC 6750): reads `Authorization: Bearer <token>` and asks the
 * verifier for its user. A missing token gives 401 with `WWW-Authenticate: Bearer realm="api"`,
 * a rejected one adds `error="invalid_token"`. Tokens are never logged or echoed.
 *
 * ```ts
 * new RestBuilder().authenticateWith(new BearerAuthenticationProvider(async (token) => sessions.userFor(token)))
 * new RestBuilder().authenticateWith(BearerAuthenticationProvider.fromTokens({ [process.env.ADMIN_TOKEN!]: new User('admin', ['admin']) }))
 * ```
 */
export class BearerAuthenticationProvider implements RestAuthenticationProvider<string> {
  private readonly realm: string;

  /** How it appears in the OpenAPI document (a subclass may describe itself otherwise). */
  get securityScheme(): {
    /** Key in the OpenAPI document's `components.securitySchemes`. */
    name: string;
    /** The OpenAPI Security Scheme Object. */
    scheme: Record<string, unknown>;
  } {
    return { name: 'bearerAuth', scheme: { type: 'http', scheme: 'bearer' } };
  }

  constructor(
    private readonly verifier: TokenVerifier,
    options: BearerOptions = {},
  ) {
    if (typeof verifier !== 'function')
      throw errors.RU_ERR_SECURITY_OPTIONS('rest.uws: BearerAuthenticationProvider takes a token verifier function');
    this.realm = options.realm ?? 'api';
    if (/["\\\r\n]/.test(this.realm))
      throw errors.RU_ERR_SECURITY_OPTIONS('rest.uws: the realm may not contain quotes, backslashes or line breaks');
  }

  /**
   * A provider for a fixed set of tokens (service keys, tests), each mapped to its user.
   * Every lookup compares against all tokens in constant time.
   */
  static fromTokens(
    tokens: Record<string, User> | ReadonlyMap<string, User>,
    options: BearerOptions = {},
  ): BearerAuthenticationProvider {
    const entries = [...(tokens instanceof Map ? tokens : Object.entries(tokens))] as Array<[string, User]>;
    if (entries.some(([token]) => token.length === 0))
      throw errors.RU_ERR_SECURITY_OPTIONS('rest.uws: an empty bearer token is not allowed');
    const table = new SecretTable(entries);
    return new BearerAuthenticationProvider((token) => table.find(token) ?? null, options);
  }

  /** The token of `Authorization: Bearer <token>`, or null when the header is absent or not a bearer token. */
  provideCredentials(ctx: RoutingContext): string | null {
    // An empty header carries no credentials either: no scan to tell it from an absent one.
    const header = ctx.request.headerOrEmpty('authorization');
    if (header === '') return null;
    const match = BEARER.exec(header);
    return match ? match[1]! : null;
  }

  /** Asks the verifier for the token's user. */
  authenticate(token: string, ctx: RoutingContext): User | null | undefined | Promise<User | null | undefined> {
    return this.verifier(token, ctx);
  }

  /** `Bearer realm="..."`, with `error="invalid_token"` when a token was rejected. */
  challenge(rejected: boolean): string {
    return rejected ? `Bearer realm="${this.realm}", error="invalid_token"` : `Bearer realm="${this.realm}"`;
  }
}
