import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in time that depends on neither their contents nor where they differ:
 * both are hashed first, so different lengths leak nothing either.
 */
export function secretsEqual(a: string | Buffer, b: string | Buffer): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * A fixed set of secrets, each with the value it stands for. Lookups hash the candidate once and
 * compare its digest against every entry's (no early exit), so the time taken says nothing about
 * which entry matched or how close a guess was.
 */
export class SecretTable<T> {
  private readonly digests: ReadonlyArray<readonly [Buffer, T]>;

  constructor(secrets: Iterable<readonly [string, T]>) {
    this.digests = [...secrets].map(([secret, value]) => [createHash('sha256').update(secret).digest(), value] as const);
  }

  find(candidate: string): T | undefined {
    const digest = createHash('sha256').update(candidate).digest();
    let found: T | undefined;
    for (const [secret, value] of this.digests) {
      if (timingSafeEqual(digest, secret) && found === undefined) found = value;
    }
    return found;
  }
}

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 };

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * Hashes a password for `BasicAuthenticationProvider.fromUsers` (scrypt, random salt):
 * `scrypt$16384$8$1$<salt base64>$<hash base64>`. Store this instead of the password.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Checks a password against a `hashPassword` result in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 1 << 20) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length === 0) return false;
  const actual = await scryptAsync(password, salt, N, r, p, expected.length);
  return timingSafeEqual(actual, expected);
}
