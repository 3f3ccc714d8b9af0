import { randomBytes } from 'node:crypto';
import { hashSecret } from 'app-support';

/** A session token: 256 random bits, base64url (what the client puts in the streaming URL). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored and compared by their SHA-256: a database dump reveals no usable token. */
export function hashSessionToken(token: string): string {
  return hashSecret(token);
}
