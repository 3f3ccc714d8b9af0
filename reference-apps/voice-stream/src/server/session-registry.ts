import { randomBytes, randomUUID } from 'node:crypto';
import type { SessionConfig } from '../session/session-config';
import { VoiceApiError } from './voice-api-error';

export interface RegistryOptions {
  /** Sessions of one API key that may exist at once (not ended); more get 429. */
  readonly maxSessionsPerKey: number;
  /** A token must be used to connect within this time. */
  readonly tokenTtlMs: number;
  /** A session without a connection (client gone, waiting for a reconnect) ends after this time. */
  readonly detachedTtlMs: number;
  readonly now: () => number;
}

export const DEFAULT_REGISTRY_OPTIONS: RegistryOptions = {
  maxSessionsPerKey: 5,
  tokenTtlMs: 5 * 60_000,
  detachedTtlMs: 5 * 60_000,
  now: () => Date.now(),
};

/** The stream currently attached to a session (a WebSocket running a VoiceSession). */
export interface AttachedStream {
  /** Ends the stream without a message (reconnection requested, session invalidated, server stopping). */
  drop(reason: string, serverStopping?: boolean): void;
}

export interface RegisteredSession {
  readonly id: string;
  readonly ownerId: string;
  readonly config: SessionConfig;
}

interface SessionEntry extends RegisteredSession {
  currentToken: string;
  tokenIssuedAt: number;
  tokenUsed: boolean;
  /** Every token ever issued for this session (to tell an outdated token from an unknown one). */
  readonly tokens: Set<string>;
  stream: AttachedStream | undefined;
  detachedAt: number | undefined;
}

const token = () => randomBytes(32).toString('base64url');

/**
 * Sessions between the REST session request and their WebSocket: one-time tokens, rotation for a reconnect,
 * and the real API's rules (an outdated token or a token used twice ends the session).
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly byToken = new Map<string, SessionEntry>();
  private readonly options: RegistryOptions;

  constructor(options: Partial<RegistryOptions> = {}) {
    this.options = { ...DEFAULT_REGISTRY_OPTIONS, ...options };
  }

  /** `POST /v3/voice/realtime`: a new session and its first token. */
  create(ownerId: string, config: SessionConfig): { sessionId: string; token: string } {
    this.expire();
    const open = [...this.sessions.values()].filter((session) => session.ownerId === ownerId).length;
    if (open >= this.options.maxSessionsPerKey) {
      throw new VoiceApiError(429, 'too_many_sessions', `This API key already has ${open} open sessions (at most ${this.options.maxSessionsPerKey}); finish one first`);
    }
    const first = token();
    const entry: SessionEntry = {
      id: randomUUID(),
      ownerId,
      config,
      currentToken: first,
      tokenIssuedAt: this.options.now(),
      tokenUsed: false,
      tokens: new Set([first]),
      stream: undefined,
      detachedAt: undefined,
    };
    this.sessions.set(entry.id, entry);
    this.byToken.set(first, entry);
    return { sessionId: entry.id, token: first };
  }

  /**
   * `GET /v3/voice/realtime?token=`: a new token for the same session. An active connection is dropped;
   * an outdated token ends the session.
   */
  rotate(ownerId: string, presented: string): { sessionId: string; token: string } {
    this.expire();
    const entry = this.byToken.get(presented);
    if (!entry || entry.ownerId !== ownerId) throw new VoiceApiError(403, 'invalid_token', 'Unknown or expired session token');
    if (presented !== entry.currentToken) {
      this.end(entry, 'an outdated token was used');
      throw new VoiceApiError(403, 'outdated_token', 'This token was replaced by a newer one; using it ended the session. Request a new session');
    }
    entry.stream?.drop('reconnection requested');
    entry.stream = undefined;
    entry.detachedAt = undefined;
    const next = token();
    entry.currentToken = next;
    entry.tokenIssuedAt = this.options.now();
    entry.tokenUsed = false;
    entry.tokens.add(next);
    this.byToken.set(next, entry);
    return { sessionId: entry.id, token: next };
  }

  /** The WebSocket upgrade presents a token: the session it opens, or why it may not. */
  claim(presented: string | undefined): RegisteredSession {
    this.expire();
    if (!presented) throw new VoiceApiError(401, 'missing_token', 'The token query parameter is required: /v3/voice/realtime/connect?token=<token>');
    const entry = this.byToken.get(presented);
    if (!entry) throw new VoiceApiError(403, 'invalid_token', 'Unknown or expired session token; request a new session');
    if (presented !== entry.currentToken) {
      this.end(entry, 'an outdated token was used');
      throw new VoiceApiError(403, 'outdated_token', 'This token was replaced by a newer one; using it ended the session');
    }
    if (entry.tokenUsed) {
      this.end(entry, 'a token was used twice');
      throw new VoiceApiError(403, 'token_already_used', 'Each token opens one connection; using it again ended the session');
    }
    entry.tokenUsed = true;
    return entry;
  }

  /** The claimed session's stream is running. */
  attach(sessionId: string, stream: AttachedStream): void {
    const entry = this.sessions.get(sessionId);
    if (!entry) {
      stream.drop('session ended');
      return;
    }
    entry.stream = stream;
    entry.detachedAt = undefined;
  }

  /** The stream ended: the session is over (completed or failed), or waits for a reconnect (client gone). */
  detach(sessionId: string, stream: AttachedStream, finished: boolean): void {
    const entry = this.sessions.get(sessionId);
    if (!entry || entry.stream !== stream) return;
    entry.stream = undefined;
    if (finished) this.end(entry, 'finished');
    else entry.detachedAt = this.options.now();
  }

  /** Sessions not ended yet. */
  get size(): number {
    this.expire();
    return this.sessions.size;
  }

  /** Ends every session (server stopping). */
  closeAll(): void {
    for (const entry of [...this.sessions.values()]) this.end(entry, 'server stopping', true);
  }

  private end(entry: SessionEntry, reason: string, serverStopping = false): void {
    this.sessions.delete(entry.id);
    for (const issued of entry.tokens) this.byToken.delete(issued);
    const stream = entry.stream;
    entry.stream = undefined;
    stream?.drop(reason, serverStopping);
  }

  private expire(): void {
    const now = this.options.now();
    for (const entry of [...this.sessions.values()]) {
      const tokenExpired = !entry.tokenUsed && now - entry.tokenIssuedAt > this.options.tokenTtlMs;
      const abandoned = entry.tokenUsed && entry.stream === undefined && entry.detachedAt !== undefined && now - entry.detachedAt > this.options.detachedTtlMs;
      if (tokenExpired || abandoned) this.end(entry, 'expired');
    }
  }
}
