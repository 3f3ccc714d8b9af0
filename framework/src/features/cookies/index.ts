/** Cookies: setting them with every attribute, signing them (HMAC, key rotation), reading signed ones. */
export { cookies, type CookiesOptions } from './cookies-plugin';
export { Cookies, type SetCookieOptions } from './cookie-jar';
export { CookieSigner } from './cookie-signer';
export { serializeCookie, setCookie, clearCookie, type CookieOptions } from './set-cookie';
