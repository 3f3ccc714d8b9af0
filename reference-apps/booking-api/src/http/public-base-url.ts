import type { HttpServerRequest } from 'rest.uws';
import { requestBaseUrl } from './request-base-url';

/** Base of the absolute links of one answer (pagination, Location, Link): a `@Context()` argument. */
export class PublicBaseUrl {
  constructor(readonly value: string) {}

  /** `configured` wins; otherwise the request's host and protocol (trust-proxy aware), else `fallback()` (the server's own address). */
  static of(request: HttpServerRequest, configured: string | undefined, fallback: () => string): PublicBaseUrl {
    return new PublicBaseUrl(requestBaseUrl(configured, request.host(), request.protocol(), fallback()));
  }
}
