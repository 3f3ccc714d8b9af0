import crypto from 'node:crypto';

/** 32 random bytes: 256 bits of entropy, so an unsalted fast hash is safe to store (nothing to brute-force). */
const KEY_BYTES = 32;

/** A new API key like `pk_3q2-7w...` (prefix, underscore, base64url of 32 random bytes). */
export function generateKey(prefix: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(prefix)) {
    throw new Error(`Invalid key prefix "${prefix}": use letters and digits, starting with a letter`);
  }
  return `${prefix}_${crypto.randomBytes(KEY_BYTES).toString('base64url')}`;
}

/** SHA-256 (hex) of a high-entropy secret: deterministic, so the hash itself can be the lookup key. */
export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares in constant time, so response timing reveals nothing about the stored hash. */
export function verifySecret(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return expected.length === actual.length && crypto.timingSafeEqual(actual, expected);
}
