import { randomUUID } from 'node:crypto';
import type { SessionConfig } from '../domain/session/session-config';
import { EndReasons, RegistryErrors } from '../domain/registry/registry-errors';
import {
  DEFAULT_REGISTRY_OPTIONS,
  type AcceptedRequest,
  type AttachedStream,
  type ClaimedSession,
  type IssuedToken,
  type RegistryOptions,
  type SessionRegistry,
} from '../domain/registry/session-registry';
import { hashSessionToken, MAX_TOKEN_HASHES_KEPT, newSessionToken } from '../domain/registry/session-tokens';

interface SessionEntry {
  readonly id: string;
  readonly ownerId: string;
  readonly config: SessionConfig;
  currentTokenHash: string;
  tokenIssuedAt: number;
  tokenUsed: boolean;
  /**
   * Token hashes issued for this session, oldest first (to tell an outdated token from an unknown one).
   * Bounded: a client rotating without end must not grow the server's memory (found by the soak test).
   */
  readonly tokenHashes: Set<string>;
  stream: AttachedStream | undefined;
  /** Since when no stream runs: claimed but not open yet, or client gone. */
  detachedAt: number | undefined;
}

/**
 * Sessions in this process's memory: the single-instance mode (SQLite or no database). Every operation is
 * synchronous underneath, so a token is consumed exactly once without further locking.
 */
export class MemorySessionRegistry implements SessionRegistry {
  readonly mode = 'memory';
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly byTokenHash = new Map<string, SessionEntry>();
  private readonly options: RegistryOptions;

  constructor(options: Partial<RegistryOptions> = {}) {
    this.options = { ...DEFAULT_REGISTRY_OPTIONS, ...options };
  }

  async create(ownerId: string, request: AcceptedRequest): Promise<IssuedToken> {
    this.expire();
    const open = [...this.sessions.values()].filter((session) => session.ownerId === ownerId).length;
    if (open >= this.options.maxSessionsPerKey)
      throw RegistryErrors.tooManySessions(open, this.options.maxSessionsPerKey);
    const token = newSessionToken();
    const hash = hashSessionToken(token);
    const entry: SessionEntry = {
      id: randomUUID(),
      ownerId,
      config: request.config,
      currentTokenHash: hash,
      tokenIssuedAt: this.options.now(),
      tokenUsed: false,
      tokenHashes: new Set([hash]),
      stream: undefined,
      detachedAt: undefined,
    };
    this.sessions.set(entry.id, entry);
    this.byTokenHash.set(hash, entry);
    return { sessionId: entry.id, token };
  }

  async rotate(ownerId: string, presented: string): Promise<IssuedToken> {
    this.expire();
    const hash = hashSessionToken(presented);
    const entry = this.byTokenHash.get(hash);
    if (!entry || entry.ownerId !== ownerId) throw RegistryErrors.unknownTokenOnReconnect();
    if (hash !== entry.currentTokenHash) {
      this.end(entry, EndReasons.outdatedToken);
      throw RegistryErrors.outdatedTokenOnReconnect();
    }
    entry.stream?.drop(EndReasons.reconnection);
    entry.stream = undefined;
    entry.detachedAt = undefined;
    const token = newSessionToken();
    const next = hashSessionToken(token);
    entry.currentTokenHash = next;
    entry.tokenIssuedAt = this.options.now();
    entry.tokenUsed = false;
    entry.tokenHashes.add(next);
    this.byTokenHash.set(next, entry);
    // Forget the oldest outdated tokens beyond the bound: presented later, they count as unknown.
    for (const old of entry.tokenHashes) {
      if (entry.tokenHashes.size <= MAX_TOKEN_HASHES_KEPT) break;
      entry.tokenHashes.delete(old);
      this.byTokenHash.delete(old);
    }
    return { sessionId: entry.id, token };
  }

  async claim(presented: string | undefined): Promise<ClaimedSession> {
    this.expire();
    if (!presented) throw RegistryErrors.missingToken();
    const hash = hashSessionToken(presented);
    const entry = this.byTokenHash.get(hash);
    if (!entry) throw RegistryErrors.unknownTokenOnConnect();
    if (hash !== entry.currentTokenHash) {
      this.end(entry, EndReasons.outdatedToken);
      throw RegistryErrors.outdatedTokenOnConnect();
    }
    if (entry.tokenUsed) {
      this.end(entry, EndReasons.tokenUsedTwice);
      throw RegistryErrors.tokenAlreadyUsed();
    }
    entry.tokenUsed = true;
    // Not streaming until attached: an upgrade that never completes leaves a session that expires.
    entry.detachedAt = this.options.now();
    return { id: entry.id, ownerId: entry.ownerId, config: entry.config, tokenHash: hash };
  }

  attach(claimed: ClaimedSession, stream: AttachedStream): void {
    const entry = this.sessions.get(claimed.id);
    if (!entry || entry.currentTokenHash !== claimed.tokenHash) {
      stream.drop(EndReasons.ended);
      return;
    }
    entry.stream = stream;
    entry.detachedAt = undefined;
  }

  detach(claimed: ClaimedSession, stream: AttachedStream, finished: boolean): void {
    const entry = this.sessions.get(claimed.id);
    if (!entry || entry.stream !== stream) return;
    entry.stream = undefined;
    if (finished) this.end(entry, 'finished');
    else entry.detachedAt = this.options.now();
  }

  async openSessionCount(): Promise<number> {
    this.expire();
    return this.sessions.size;
  }

  /** Ends every session: they cannot outlive this process. */
  async close(): Promise<void> {
    for (const entry of [...this.sessions.values()]) this.end(entry, EndReasons.serverStopping, true);
  }

  private end(entry: SessionEntry, reason: string, serverStopping = false): void {
    this.sessions.delete(entry.id);
    for (const issued of entry.tokenHashes) this.byTokenHash.delete(issued);
    const stream = entry.stream;
    entry.stream = undefined;
    stream?.drop(reason, serverStopping);
  }

  private expire(): void {
    const now = this.options.now();
    for (const entry of [...this.sessions.values()]) {
      const tokenExpired = !entry.tokenUsed && now - entry.tokenIssuedAt > this.options.tokenTtlMs;
      const abandoned =
        entry.stream === undefined &&
        entry.detachedAt !== undefined &&
        now - entry.detachedAt > this.options.detachedTtlMs;
      if (tokenExpired || abandoned) this.end(entry, 'expired');
    }
  }
}
