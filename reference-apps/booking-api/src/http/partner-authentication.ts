import {
  Inject,
  RestRouter,
  User,
  type OpenApiSecurityScheme,
  type RestAuthenticationProvider,
  type RoutingContext,
} from 'rest.uws';
import { PartnerKeys } from '../domain/partner-keys';
import { AuthenticatedPartner } from './authenticated-partner';
import { readApiKey } from './api-key-credentials';

/** Role of every user this provider identifies. */
export const PARTNER_ROLE = 'partner';

/**
 * rest.uws authentication provider of the booking API: the credentials are the partner's API key
 * (`Authorization: Bearer <key>`, or `Headout-Auth: <key>` as the real partner API sends it); the user is the
 * partner owning the key. The partner is also pushed into the request's context, where
 * `@Context() partner: AuthenticatedPartner` arguments find it.
 * No key: rest.uws answers 401 with the challenge; an unknown or revoked key: 401 with `error="invalid_token"`.
 */
@Inject
export class PartnerApiKeyAuthentication implements RestAuthenticationProvider<string> {
  constructor(private readonly keys: PartnerKeys) {}

  provideCredentials(ctx: RoutingContext): string | null {
    return readApiKey((name) => ctx.request.getHeader(name)) ?? null;
  }

  async authenticate(key: string, ctx: RoutingContext): Promise<User | null> {
    const partner = await this.keys.authenticate(key);
    if (partner === undefined) return null;
    RestRouter.pushContext(ctx, new AuthenticatedPartner(partner.id, partner.name));
    return new User(partner.name, [PARTNER_ROLE], { partnerId: partner.id });
  }

  /** How the OpenAPI document describes these credentials (a method: rest.uws reads it from the class). */
  securityScheme(): OpenApiSecurityScheme {
    return {
      name: 'partnerApiKey',
      scheme: {
        type: 'http',
        scheme: 'bearer',
        description:
          'The partner API key (`keys create <partner>`), as `Authorization: Bearer <key>` or as `Headout-Auth: <key>`.',
      },
    };
  }

  challenge(rejected: boolean): string {
    return rejected ? 'Bearer realm="booking-api", error="invalid_token"' : 'Bearer realm="booking-api"';
  }
}
