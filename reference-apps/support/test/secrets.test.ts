import test from 'ava';
import { generateKey, hashSecret, verifySecret } from '../src/index';

test('generateKey gives a prefixed key with 256 bits of randomness, different every time', (t) => {
  const key = generateKey('pk');
  t.regex(key, /^pk_[A-Za-z0-9_-]{43}$/);
  t.is(Buffer.from(key.slice(3), 'base64url').length, 32);
  const many = new Set(Array.from({ length: 200 }, () => generateKey('tk')));
  t.is(many.size, 200);
});

test('generateKey refuses a prefix that would make keys ambiguous', (t) => {
  t.throws(() => generateKey('p_k'), { message: /Invalid key prefix "p_k"/ });
  t.throws(() => generateKey(''), { message: /Invalid key prefix/ });
});

test('hashSecret is SHA-256 hex and never contains the key', (t) => {
  const key = generateKey('pk');
  const hash = hashSecret(key);
  t.regex(hash, /^[0-9a-f]{64}$/);
  t.is(hash, hashSecret(key));
  t.false(hash.includes(key.slice(3, 12)));
  t.is(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('verifySecret accepts the key and refuses any other, including malformed hashes', (t) => {
  const key = generateKey('pk');
  const hash = hashSecret(key);
  t.true(verifySecret(key, hash));
  t.false(verifySecret(`${key}x`, hash));
  t.false(verifySecret(generateKey('pk'), hash));
  t.false(verifySecret(key, 'not-a-hash'));
  t.false(verifySecret(key, ''));
});
