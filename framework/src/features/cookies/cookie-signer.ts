import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignedCookieVerifier, errors } from '../../plugin';

/** Shortest signing key accepted, in bytes: HMAC-SHA256 keys shorter than its output weaken it. */
const MIN_KEY_BYTES = 32;
/** `value.` followed by 43 characters: base64url of a 32-byte HMAC-SHA256. */
const SIGNATURE_LENGTH = 43;

/**
 * Signs cookie values with HMAC-SHA256 over the cookie's name and value (`value.signature`, base64url), so a
 * signed value cannot be replayed under another cookie's name. Signs with the first key; checks with each key in
 * turn, so keys rotate: put the new key first and keep the old ones until the cookies they signed have expired.
 */
export class CookieSigner extends SignedCookieVerifier {
  private readonly keys: Buffer[];

  constructor(keys: ReadonlyArray<string | Buffer>) {
    super();
    if (!Array.isArray(keys) || keys.length === 0)
      throw errors.RU_ERR_COOKIE_KEYS('rest.uws: cookies: keys is a list of secrets, the signing key first');
    this.keys = keys.map((key, i) => {
      const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.isBuffer(key) ? key : undefined;
      if (bytes === undefined || bytes.length < MIN_KEY_BYTES) {
        throw errors.RU_ERR_COOKIE_KEYS(
          `rest.uws: cookies: key ${i} must be a string or Buffer of at least ${MIN_KEY_BYTES} bytes (random, e.g. crypto.randomBytes(32).toString('base64'))`,
        );
      }
      return bytes;
    });
  }

  /** `value.signature`, signed with the first key. */
  sign(name: string, value: string): string {
    return `${value}.${this.mac(this.keys[0]!, name, value).toString('base64url')}`;
  }

  /** The value when the signature checks with one of the keys; undefined for a forged, truncated or unsigned value. */
  verify(name: string, signed: string): string | undefined {
    const dot = signed.length - SIGNATURE_LENGTH - 1;
    if (dot < 0 || signed.charCodeAt(dot) !== 46) return undefined;
    const given = Buffer.from(signed.slice(dot + 1), 'base64url');
    // base64url decoding skips junk characters: a signature must also re-encode to exactly what was sent.
    if (given.length !== 32 || given.toString('base64url') !== signed.slice(dot + 1)) return undefined;
    const value = signed.slice(0, dot);
    for (const key of this.keys) if (timingSafeEqual(this.mac(key, name, value), given)) return value;
    return undefined;
  }

  private mac(key: Buffer, name: string, value: string): Buffer {
    // The name's length first: "a" + "b=c" and "a=b" + "c" must not sign alike.
    return createHmac('sha256', key).update(`${name.length}:${name}=${value}`).digest();
  }
}
