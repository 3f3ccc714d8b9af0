import { errors, type HttpServerRequest, type HttpServerResponse } from '../../plugin';
import type { CookieSigner } from './cookie-signer';
import { clearCookie, setCookie, type CookieOptions } from './set-cookie';

/** Options of `Cookies.set`: the cookie's attributes, and whether to sign it. */
export interface SetCookieOptions extends CookieOptions {
  /** Sign the value with the app's first key (`use(cookies({ keys }))`); read it back with `getSigned` or `@CookieParam(name, { signed: true })`. */
  signed?: boolean;
}

/**
 * One request's cookies: read what the browser sent, set and clear cookies on the answer (each a `Set-Cookie`
 * header), signed or not. Take it with `@Context() cookies: Cookies` in an app that uses `cookies()`.
 *
 * ```ts
 * @POST @Path('/login')
 * login(@Context() cookies: Cookies) {
 *   cookies.set('session', sessionId, { signed: true, httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: 3600 });
 *   cookies.set('theme', 'dark', { path: '/' });
 * }
 * ```
 */
export class Cookies {
  constructor(
    private readonly request: HttpServerRequest,
    private readonly response: HttpServerResponse,
    private readonly signer: CookieSigner | undefined,
  ) {}

  /** A cookie the request carries, undefined when none of that name. */
  get(name: string): string | undefined {
    return this.request.getCookie(name);
  }

  /** A signed cookie's value when its signature checks; undefined when absent, unsigned or forged. */
  getSigned(name: string): string | undefined {
    const raw = this.request.getCookie(name);
    return raw === undefined ? undefined : this.requireSigner('getSigned').verify(name, raw);
  }

  /** Sets a cookie on the answer (signed when `options.signed`). */
  set(name: string, value: string, options: SetCookieOptions = {}): this {
    const { signed, ...attributes } = options;
    setCookie(this.response, name, signed === true ? this.requireSigner('set').sign(name, value) : value, attributes);
    return this;
  }

  /** Deletes a cookie in the browser (give the `path` and `domain` it was set with). */
  clear(name: string, options?: Parameters<typeof clearCookie>[2]): this {
    clearCookie(this.response, name, options);
    return this;
  }

  private requireSigner(what: string): CookieSigner {
    if (this.signer === undefined)
      throw errors.RU_ERR_COOKIE_KEYS(
        `rest.uws: Cookies.${what}: signed cookies need the app's keys: use(cookies({ keys: [...] }))`,
      );
    return this.signer;
  }
}
