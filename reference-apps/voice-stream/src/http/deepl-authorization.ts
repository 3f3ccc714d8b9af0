import {
  Context,
  Inject,
  RequestLogger,
  RestRouter,
  User,
  type OpenApiSecurityScheme,
  type RateLimitKey,
  type RestAuthenticationProvider,
  type RoutingContext,
} from 'rest.uws';
import { ApiKeyStore } from '../storage/api-key-store';
import { VoiceApiError } from '../domain/voice-api-error';

/**
 * Reads `Authorization: DeepL-Auth-Key <key>`, the header real clients of this API send. Returns the key,
 * or a message saying what is wrong (answered with 401).
 */
export function readAuthKey(header: string | undefined): { key: string } | { problem: string } {
  if (header === undefined || header.trim() === '') {
    return { problem: 'Missing Authorization header; send "Authorization: DeepL-Auth-Key <key>"' };
  }
  const match = /^\s*DeepL-Auth-Key\s+(\S+)\s*$/i.exec(header);
  if (!match) return { problem: 'The Authorization header must be "DeepL-Auth-Key <key>"' };
  return { key: match[1] };
}

/** The key of a request as sent (not yet checked), or undefined. */
function keyOf(ctx: RoutingContext): string | undefined {
  const read = readAuthKey(ctx.request.getHeader('authorization'));
  return 'key' in read ? read.key : undefined;
}

/**
 * Whose session requests count together under the rate limit: the API key as sent. The limit is counted before the
 * key is checked, so a flood with one key costs no key store lookup; requests without a key count by address.
 */
export const byDeepLKey: RateLimitKey = keyOf;

/** The API key a request was authenticated with: a `@Context()` argument of the session routes. */
export class AuthenticatedKey {
  constructor(
    /** The key's id (`key_...`): sessions belong to it. */
    readonly id: string,
    readonly label: string,
  ) {}
}

/**
 * rest.uws authentication provider of the voice API (`@Authenticate(DeepLKeyAuthentication)` on the session
 * resource): the credentials are the key of `Authorization: DeepL-Auth-Key <key>`, checked against the key store.
 * No key, or another scheme: rest.uws answers 401 (VoiceExceptionHandler says which). An unknown or revoked key:
 * 403 `forbidden`, as the real API answers. The key store failing (its database): 503 `service_unavailable`, logged
 * with the request's id. The user is the key's owner, also pushed into the request's context as AuthenticatedKey.
 */
@Inject
export class DeepLKeyAuthentication implements RestAuthenticationProvider<string> {
  /** The request's logger (a @Context field: rest.uws makes this provider per request). */
  @Context() private readonly log!: RequestLogger;

  constructor(private readonly keys: ApiKeyStore) {}

  provideCredentials(ctx: RoutingContext): string | null {
    return keyOf(ctx) ?? null;
  }

  async authenticate(key: string, ctx: RoutingContext): Promise<User> {
    let owner;
    try {
      owner = await this.keys.verify(key);
    } catch (error) {
      this.log.error({ err: error }, 'key store error: answered 503');
      throw new VoiceApiError(503, 'service_unavailable', 'The key store (database) is unavailable; retry shortly');
    }
    if (!owner) throw new VoiceApiError(403, 'forbidden', 'The API key is unknown or revoked');
    RestRouter.pushContext(ctx, new AuthenticatedKey(owner.id, owner.label));
    return new User(owner.id, [], { label: owner.label });
  }

  /** The `WWW-Authenticate` of a 401. */
  challenge(): string {
    return 'DeepL-Auth-Key realm="voice-stream"';
  }

  /** How the OpenAPI document describes these credentials. */
  securityScheme(): OpenApiSecurityScheme {
    return {
      name: 'deeplAuthKey',
      scheme: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'An API key (`keys create <label>`), sent as `Authorization: DeepL-Auth-Key <key>`.',
      },
    };
  }
}
