import type { SessionConfig } from '../session/session-config';

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

/** A session request as accepted: its body (so another instance can run it) and its validated config. */
export interface AcceptedRequest {
  readonly body: object;
  readonly config: SessionConfig;
}

/** A token handed out by a session request or a reconnection. */
export interface IssuedToken {
  readonly sessionId: string;
  readonly token: string;
}

/** The session a token opened: what its stream needs, and which token opened it. */
export interface ClaimedSession {
  readonly id: string;
  readonly ownerId: string;
  readonly config: SessionConfig;
  /** SHA-256 of the token that opened this stream: tells this stream from a later one of the same session. */
  readonly tokenHash: string;
}

/**
 * Sessions between the REST session request and their WebSocket: one-time tokens, rotation for a reconnect,
 * and the real API's rules (an outdated token or a token used twice ends the session). Two implementations:
 * in memory (one instance, SQLite) and in PostgreSQL (any number of instances on one database).
 */
export interface SessionRegistry {
  /** Where sessions live: 'memory' (this instance only) or 'postgres' (shared by all instances). */
  readonly mode: 'memory' | 'postgres';
  /** `POST /v3/voice/realtime`: a new session and its first token (429 beyond the key's open sessions). */
  create(ownerId: string, request: AcceptedRequest): Promise<IssuedToken>;
  /**
   * `GET /v3/voice/realtime?token=`: a new token for the same session. An active connection (on any instance)
   * is dropped; an outdated token ends the session.
   */
  rotate(ownerId: string, presented: string): Promise<IssuedToken>;
  /** The WebSocket upgrade presents a token: consumes it (exactly once) or says why it may not. */
  claim(presented: string | undefined): Promise<ClaimedSession>;
  /** The claimed session's stream runs on this instance. */
  attach(claimed: ClaimedSession, stream: AttachedStream): void;
  /** The stream ended: the session is over (`finished`: completed or failed), or waits for a reconnect (client gone). */
  detach(claimed: ClaimedSession, stream: AttachedStream, finished: boolean): void;
  /** Sessions not ended (of all instances). */
  openSessionCount(): Promise<number>;
  /** The server stops: its streams are dropped (1001) and pending writes finish. */
  close(): Promise<void>;
}
