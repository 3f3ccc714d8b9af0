import { randomBytes } from 'node:crypto';
import { hashSecret } from 'app-support';

/**
 * Token hashes remembered per session (the current one and the most recent outdated ones), in memory and in
 * PostgreSQL alike: a session rotated forever must not grow. An older outdated token counts as unknown.
 */
export const MAX_TOKEN_HASHES_KEPT = 16;

/** A session token: 256 random bits, base64url (what the client puts in the streaming URL). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored and compared by their SHA-256: a database dump reveals no usable token. */
export function hashSessionToken(token: string): string {
  return hashSecret(token);
}
