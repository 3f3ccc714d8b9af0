import { Buffer } from 'node:buffer';
import { User, errors, type RestAuthenticationProvider, type RoutingContext } from '../../plugin';
import { SecretTable, secretsEqual, verifyPassword } from './constant-time';

/** User name and password from an `Authorization: Basic` header. */
export interface BasicCredentials {
  /** The user name, as sent. */
  username: string;
  /** The password, as sent. */
  password: string;
}

/** Checks a user name and password: the `User`, or null. May be async. */
export type PasswordVerifier = (
  username: string,
  password: string,
  ctx: RoutingContext,
) => User | null | undefined | Promise<User | null | undefined>;

/** One account of `BasicAuthenticationProvider.fromUsers`: a `hashPassword` result (preferred) or a plain password. */
export type BasicAccount = {
  /** The user's roles. */
  roles?: string[];
  /** Anything else to put on the `User`. */
  attributes?: Record<string, unknown>;
} & (
  | {
      /** A `hashPassword` result. */
      passwordHash: string;
    }
  | {
      /** The password itself (tests, development). */
      password: string;
    }
);

/** Options of `BasicAuthenticationProvider`. */
export interface BasicOptions {
  /** The realm named in the `WWW-Authenticate` challenge (default "api"). */
  realm?: string;
}

const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/**
 * HTTP Basic authentication (RFC 7617): decodes `Authorization: Basic base64(user:password)` as
 * UTF-8 and asks the verifier for the user. 401s carry `WWW-Authenticate: Basic realm="api", charset="UTF-8"`.
 * Passwords are never logged or echoed. Use it over TLS only.
 *
 * ```ts
 * new RestBuilder().authenticateWith(BasicAuthenticationProvider.fromUsers({ ada: { passwordHash: await hashPassword('s3cret'), roles: ['admin'] } }))
 * ```
 */
export class BasicAuthenticationProvider implements RestAuthenticationProvider<BasicCredentials> {
  private readonly realm: string;

  /** How it appears in the OpenAPI document (a subclass may describe itself otherwise). */
  get securityScheme(): {
    /** Key in the OpenAPI document's `components.securitySchemes`. */
    name: string;
    /** The OpenAPI Security Scheme Object. */
    scheme: Record<string, unknown>;
  } {
    return { name: 'basicAuth', scheme: { type: 'http', scheme: 'basic' } };
  }

  constructor(
    private readonly verifier: PasswordVerifier,
    options: BasicOptions = {},
  ) {
    if (typeof verifier !== 'function')
      throw errors.RU_ERR_SECURITY_OPTIONS('rest.uws: BasicAuthenticationProvider takes a password verifier function');
    this.realm = options.realm ?? 'api';
    if (/["\\\r\n]/.test(this.realm))
      throw errors.RU_ERR_SECURITY_OPTIONS('rest.uws: the realm may not contain quotes, backslashes or line breaks');
  }

  /**
   * A provider for a fixed set of accounts. User names and passwords are compared in constant
   * time, and an unknown user name costs the same as a wrong password.
   */
  static fromUsers(accounts: Record<string, BasicAccount>, options: BasicOptions = {}): BasicAuthenticationProvider {
    const entries = Object.entries(accounts).map(([name, account]) => [name, account] as const);
    const names = new SecretTable(entries);
    // Compared against when the user name is unknown, so both paths take the same time.
    const decoy = entries.find(([, a]) => 'passwordHash' in a)?.[1] ?? { password: '\u0000decoy' };
    return new BasicAuthenticationProvider(async (username, password) => {
      const account = names.find(username);
      const checked = account ?? decoy;
      const ok =
        'passwordHash' in checked
          ? await verifyPassword(password, checked.passwordHash)
          : secretsEqual(password, checked.password);
      if (!ok || account === undefined) return null;
      return new User(username, account.roles ?? [], account.attributes ?? {});
    }, options);
  }

  /** User name and password of `Authorization: Basic ...`, or null when absent or malformed. */
  provideCredentials(ctx: RoutingContext): BasicCredentials | null {
    // An empty header carries no credentials either: no scan to tell it from an absent one.
    const header = ctx.request.headerOrEmpty('authorization');
    if (header === '') return null;
    const match = BASIC.exec(header);
    if (!match) return null;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }

  /** Asks the verifier for the user. */
  authenticate(
    credentials: BasicCredentials,
    ctx: RoutingContext,
  ): User | null | undefined | Promise<User | null | undefined> {
    return this.verifier(credentials.username, credentials.password, ctx);
  }

  /** `Basic realm="...", charset="UTF-8"`. */
  challenge(): string {
    return `Basic realm="${this.realm}", charset="UTF-8"`;
  }
}
