import { SignedCookieVerifier, type RestPlugin } from '../../plugin';
import { Cookies } from './cookie-jar';
import { CookieSigner } from './cookie-signer';

/** Options of `cookies()`. */
export interface CookiesOptions {
  /**
   * Secrets that sign cookies (HMAC-SHA256), at least 32 bytes each: the first signs, every one verifies. Rotate
   * by putting a new key first and keeping the old ones until the cookies they signed have expired.
   */
  keys?: ReadonlyArray<string | Buffer>;
}

/**
 * Cookies for an app's routes: `@Context() cookies: Cookies` reads, sets (with every attribute) and clears
 * cookies; with `keys`, cookies can be signed and read back with `@CookieParam(name, { signed: true })`. It adds
 * only providers: a route that takes neither pays nothing, and nothing runs per request.
 *
 * ```ts
 * new RestBuilder().use(cookies({ keys: [process.env.COOKIE_KEY!, process.env.OLD_COOKIE_KEY!] }))
 * ```
 */
export function cookies(options: CookiesOptions = {}): RestPlugin {
  const signer = options.keys === undefined ? undefined : new CookieSigner(options.keys);
  return {
    name: 'cookies',
    setup(app) {
      app.addProvider(Cookies, (request, ctx) => new Cookies(request, ctx.response, signer));
      if (signer !== undefined) app.addProvider(SignedCookieVerifier, () => signer);
    },
  };
}
