import { stringifySetCookie } from 'cookie';
import { errors, type HttpServerResponse } from '../../plugin';

/** The attributes of a cookie set on a response (RFC 6265bis; `Partitioned` from CHIPS). */
export interface CookieOptions {
  /** URL path prefix the browser sends it for (`/` for the whole site; default: the path of the request's folder). */
  path?: string;
  /** Domain it is sent to (and its subdomains); default: this host only. */
  domain?: string;
  /** Lifetime in seconds (`Max-Age`); 0 or less deletes it. Without it nor `expires`, it lasts the browser session. */
  maxAge?: number;
  /** When it expires (`Expires`); `maxAge` wins in browsers that see both. */
  expires?: Date;
  /** Sent over HTTPS only. */
  secure?: boolean;
  /** Hidden from scripts (`document.cookie`). */
  httpOnly?: boolean;
  /** Cross-site sending: `strict`, `lax` (browsers' default) or `none` (which needs `secure`). */
  sameSite?: 'strict' | 'lax' | 'none';
  /** Kept per top-level site (CHIPS); needs `secure`. */
  partitioned?: boolean;
  /** `low`, `medium` or `high` (Chrome's `Priority`). */
  priority?: 'low' | 'medium' | 'high';
}

const SAME_SITE = new Set(['strict', 'lax', 'none']);

/**
 * A `Set-Cookie` value (serialised by the `cookie` package; the value percent-encoded). Mistakes throw a TypeError
 * naming them: an invalid name, domain or path; `sameSite: 'none'` or `partitioned` without `secure`, which
 * browsers would silently drop.
 */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (typeof value !== 'string')
    throw errors.RU_ERR_SET_COOKIE(`rest.uws: cookie ${name}: the value must be a string, got ${typeof value}`);
  if (options.sameSite !== undefined && !SAME_SITE.has(options.sameSite)) {
    throw errors.RU_ERR_SET_COOKIE(
      `rest.uws: cookie ${name}: sameSite must be 'strict', 'lax' or 'none', got ${JSON.stringify(options.sameSite)}`,
    );
  }
  if ((options.sameSite === 'none' || options.partitioned === true) && options.secure !== true) {
    throw errors.RU_ERR_SET_COOKIE(
      `rest.uws: cookie ${name}: ${options.sameSite === 'none' ? "sameSite: 'none'" : 'partitioned'} needs secure: true (browsers drop the cookie otherwise)`,
    );
  }
  if (options.maxAge !== undefined && !Number.isInteger(options.maxAge))
    throw errors.RU_ERR_SET_COOKIE(
      `rest.uws: cookie ${name}: maxAge is a whole number of seconds, got ${options.maxAge}`,
    );
  if (
    options.expires !== undefined &&
    !(options.expires instanceof Date && Number.isFinite(options.expires.getTime()))
  ) {
    throw errors.RU_ERR_SET_COOKIE(`rest.uws: cookie ${name}: expires must be a valid Date`);
  }
  return stringifySetCookie(name, value, options);
}

/** Adds a `Set-Cookie` header to the response (several cookies make several headers). */
export function setCookie(response: HttpServerResponse, name: string, value: string, options?: CookieOptions): void {
  response.appendHeader('Set-Cookie', serializeCookie(name, value, options));
}

/**
 * Tells the browser to delete a cookie: empty value, `Max-Age=0` and an `Expires` in the past. Give the `path` and
 * `domain` it was set with: a cookie is only replaced by one of the same name, path and domain.
 */
export function clearCookie(
  response: HttpServerResponse,
  name: string,
  options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'httpOnly' | 'sameSite' | 'partitioned'> = {},
): void {
  setCookie(response, name, '', { ...options, maxAge: 0, expires: new Date(0) });
}
