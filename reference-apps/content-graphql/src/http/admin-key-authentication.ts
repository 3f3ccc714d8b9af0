import { createHash, timingSafeEqual } from 'node:crypto';
import { User, WebApplicationException, type RestAuthenticationProvider, type RoutingContext } from 'rest.uws';

/**
 * The admin API's authentication (the framework's `@Authenticate`): the `X-Admin-Key` header against the key the
 * server was started with (`CONTENT_GRAPHQL_ADMIN_KEY`), compared as SHA-256 digests in constant time. Without a
 * configured key the API answers 404, so an unconfigured server exposes nothing; a missing header is 401, a wrong
 * key 403, each with its own message.
 */
export class AdminKeyAuthentication implements RestAuthenticationProvider<string> {
  private readonly expected: Buffer | null;

  constructor(adminKey: string | null) {
    this.expected = adminKey ? digest(adminKey) : null;
  }

  provideCredentials(ctx: RoutingContext): string {
    if (!this.expected)
      throw new WebApplicationException('The admin API is not enabled (set CONTENT_GRAPHQL_ADMIN_KEY)', 404, {
        code: 'CG_ADMIN_DISABLED',
      });
    const key = ctx.request.getHeader('x-admin-key');
    if (!key) throw new WebApplicationException('Missing X-Admin-Key header', 401, { code: 'CG_ADMIN_KEY_MISSING' });
    return key;
  }

  authenticate(key: string): User {
    if (!this.expected || !timingSafeEqual(digest(key), this.expected))
      throw new WebApplicationException('Invalid X-Admin-Key header', 403, { code: 'CG_ADMIN_KEY_INVALID' });
    return new User('admin', ['admin']);
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
