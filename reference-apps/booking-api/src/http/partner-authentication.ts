import { UnauthorizedException, type ContextProvider, type HttpServerRequest } from 'rest.uws';
import type { PartnerKeys } from '../domain/partner-keys';
import { AuthenticatedPartner } from './authenticated-partner';
import { missingKeyMessage, readApiKey, UNKNOWN_KEY_MESSAGE } from './api-key-credentials';

/** Paths customers open without a key: the voucher and ticket links (their random token is the secret). */
const PUBLIC_PATHS = /^\/(?:voucher|ticket)\/[^/]+\/?$/;

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="booking-api"' };

/**
 * Identifies the partner of every request from its API key (`Authorization: Bearer <key>` or `Headout-Auth: <key>`)
 * and pushes it into the request's context, where `@Context() partner: AuthenticatedPartner` arguments find it.
 * Registered with `RestBuilder.provide`, so it runs before any argument is read: a request without a valid key gets
 * 401 before its body is even looked at. Deny by default: only the customer pages (and the API description)
 * are public.
 */
export class PartnerAuthentication implements ContextProvider<AuthenticatedPartner> {
  constructor(
    private readonly keys: PartnerKeys,
    private readonly publicPaths: readonly string[] = [],
  ) {}

  async provide(request: HttpServerRequest): Promise<AuthenticatedPartner | null> {
    if (this.isPublic(request)) return null;
    const header = (name: string) => request.getHeader(name);
    const key = readApiKey(header);
    if (key === undefined) throw new UnauthorizedException(missingKeyMessage(header), { headers: CHALLENGE });
    const partner = await this.keys.authenticate(key);
    if (partner === undefined) throw new UnauthorizedException(UNKNOWN_KEY_MESSAGE, { headers: CHALLENGE });
    return new AuthenticatedPartner(partner.id, partner.name);
  }

  private isPublic(request: HttpServerRequest): boolean {
    const path = request.decodedPath();
    return PUBLIC_PATHS.test(path) || this.publicPaths.includes(path);
  }
}

/**
 * The fallback provider of `AuthenticatedPartner`: reached only when no partner was pushed for a route that needs
 * one, which means the request was not authenticated. Fails closed with 401.
 */
export function requireAuthenticatedPartner(): never {
  throw new UnauthorizedException('Missing API key: send "Authorization: Bearer <api key>" or "Headout-Auth: <api key>"', { headers: CHALLENGE });
}
