import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { PostgresNoticeListener } from 'app-support';
import type { SessionConfig } from '../domain/session/session-config';
import type { VoiceSchema } from './voice-schema';
import { VoiceApiError } from '../domain/voice-api-error';
import { EndReasons, RegistryErrors } from '../domain/registry/registry-errors';
import { encodeSessionNotice, parseSessionNotice, SESSION_NOTICE_CHANNEL, type SessionNotice } from './session-notices';
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

export interface PostgresRegistryOptions extends RegistryOptions {
  /** How often an instance says it is alive (and sweeps expired sessions). */
  readonly heartbeatMs: number;
  /** An instance not seen for this long is gone: its streams' sessions count as detached from its last sign of life. */
  readonly instanceTimeoutMs: number;
}

export const DEFAULT_POSTGRES_REGISTRY_OPTIONS: PostgresRegistryOptions = {
  ...DEFAULT_REGISTRY_OPTIONS,
  heartbeatMs: 10_000,
  instanceTimeoutMs: 30_000,
};

/** Turns a stored request body back into a config, on the instance that runs the stream (throws if it cannot). */
export type RequestValidator = (body: unknown) => SessionConfig;

/** A stream running on this instance. */
interface LocalStream {
  readonly sessionId: string;
  readonly stream: AttachedStream;
}

interface TokenLookup {
  id: string;
  owner_id: string;
  token_hash: string;
  token_used: boolean;
  expired: boolean;
}

/** The session a token (current or outdated) belongs to; the WHERE clause names the token. */
const TOKEN_LOOKUP = (expired: RawBuilder<boolean>) => sql`
  SELECT voice_sessions.id, voice_sessions.owner_id, voice_sessions.token_hash, voice_sessions.token_used, ${expired} AS expired
  FROM voice_session_tokens JOIN voice_sessions ON voice_sessions.id = voice_session_tokens.session_id`;

/**
 * Sessions and their tokens in PostgreSQL, shared by every instance on the database: a session requested
 * through one instance can be connected (and reconnected) through any other. Tokens are stored as SHA-256
 * hashes and consumed by a single `UPDATE ... WHERE NOT token_used RETURNING`, so a token opens exactly one
 * stream across all instances. The stream itself stays on the instance that holds the socket; when another
 * instance rotates or ends its session, a NOTIFY (sent in the same transaction) tells the holder to drop it.
 */
export class PostgresSessionRegistry implements SessionRegistry {
  readonly mode = 'postgres';
  /** This instance, as recorded in voice_instances and voice_sessions.instance_id. */
  readonly instanceId = randomUUID();
  /** Streams on this instance, by the hash of the token that opened them. */
  private readonly local = new Map<string, LocalStream>();
  private readonly writes = new Set<Promise<unknown>>();
  private readonly options: PostgresRegistryOptions;
  private readonly listener: PostgresNoticeListener<SessionNotice>;
  private heartbeat: NodeJS.Timeout | undefined;
  private heartbeatFailing = false;
  private closed = false;

  private constructor(
    private readonly db: Kysely<VoiceSchema>,
    connectionString: string,
    private readonly validate: RequestValidator,
    options: Partial<PostgresRegistryOptions>,
  ) {
    this.options = { ...DEFAULT_POSTGRES_REGISTRY_OPTIONS, ...options };
    this.listener = new PostgresNoticeListener(connectionString, {
      channel: SESSION_NOTICE_CHANNEL,
      parse: parseSessionNotice,
      handlers: {
        onNotice: (notice) => this.onNotice(notice),
        onResumed: () => this.recheckLocalStreams(),
      },
    });
  }

  /** Registers this instance, starts listening for notices and the heartbeat. */
  static async start(
    db: Kysely<VoiceSchema>,
    connectionString: string,
    validate: RequestValidator,
    options: Partial<PostgresRegistryOptions> = {},
  ): Promise<PostgresSessionRegistry> {
    const registry = new PostgresSessionRegistry(db, connectionString, validate, options);
    const now = registry.options.now();
    await db.insertInto('voice_instances').values({ id: registry.instanceId, started_at: now, seen_at: now }).execute();
    await registry.listener.start();
    registry.heartbeat = setInterval(() => void registry.beat(), registry.options.heartbeatMs);
    registry.heartbeat.unref();
    return registry;
  }

  async create(ownerId: string, request: AcceptedRequest): Promise<IssuedToken> {
    return this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        // The key's row lock serialises the count-then-insert of one key across all instances.
        await trx.selectFrom('voice_api_keys').select('id').where('id', '=', ownerId).forUpdate().execute();
        const now = this.options.now();
        await trx.deleteFrom('voice_sessions').where('owner_id', '=', ownerId).where(this.expired(now)).execute();
        const { open } = await trx
          .selectFrom('voice_sessions')
          .select((eb) => eb.fn.countAll<number>().as('open'))
          .where('owner_id', '=', ownerId)
          .executeTakeFirstOrThrow();
        if (Number(open) >= this.options.maxSessionsPerKey)
          throw RegistryErrors.tooManySessions(Number(open), this.options.maxSessionsPerKey);
        const token = newSessionToken();
        const tokenHash = hashSessionToken(token);
        const id = randomUUID();
        await trx
          .insertInto('voice_sessions')
          .values({
            id,
            owner_id: ownerId,
            request: JSON.stringify(request.body),
            token_hash: tokenHash,
            token_issued_at: now,
            token_used: false,
            instance_id: null,
            detached_at: null,
            created_at: now,
          })
          .execute();
        await trx.insertInto('voice_session_tokens').values({ token_hash: tokenHash, session_id: id }).execute();
        return { sessionId: id, token };
      }),
    );
  }

  async rotate(ownerId: string, presented: string): Promise<IssuedToken> {
    const hash = hashSessionToken(presented);
    let ended = false;
    const issued = await this.guard(() =>
      this.db.transaction().execute(async (trx) => {
        const now = this.options.now();
        // FOR UPDATE: a concurrent claim or rotation of this session waits for this one.
        const found = await sql<TokenLookup>`
          ${TOKEN_LOOKUP(this.expired(now))}
          WHERE voice_session_tokens.token_hash = ${hash}
          FOR UPDATE OF voice_sessions`.execute(trx);
        const session = found.rows[0];
        if (!session || session.owner_id !== ownerId) return undefined;
        if (session.expired) {
          await trx.deleteFrom('voice_sessions').where('id', '=', session.id).execute();
          return undefined;
        }
        if (session.token_hash !== hash) {
          await this.endIn(trx, session.id, EndReasons.outdatedToken);
          ended = true;
          return undefined;
        }
        const token = newSessionToken();
        const next = hashSessionToken(token);
        await trx
          .updateTable('voice_sessions')
          .set({ token_hash: next, token_issued_at: now, token_used: false, instance_id: null, detached_at: null })
          .where('id', '=', session.id)
          .execute();
        await trx.insertInto('voice_session_tokens').values({ token_hash: next, session_id: session.id }).execute();
        // Only the newest tokens stay known: older outdated ones, presented later, count as unknown (as in memory).
        await sql`
          DELETE FROM voice_session_tokens WHERE session_id = ${session.id} AND token_hash NOT IN (
            SELECT token_hash FROM voice_session_tokens WHERE session_id = ${session.id} ORDER BY seq DESC LIMIT ${MAX_TOKEN_HASHES_KEPT})`.execute(
          trx,
        );
        // Whichever instance holds the stream opened with the replaced token drops it (close 4001).
        await this.notifyIn(trx, { session: session.id, token: session.token_hash, reason: EndReasons.reconnection });
        return { sessionId: session.id, token };
      }),
    );
    if (issued) return issued;
    throw ended ? RegistryErrors.outdatedTokenOnReconnect() : RegistryErrors.unknownTokenOnReconnect();
  }

  async claim(presented: string | undefined): Promise<ClaimedSession> {
    if (!presented) throw RegistryErrors.missingToken();
    const hash = hashSessionToken(presented);
    const now = this.options.now();
    // The one atomic step: of any number of instances presenting this token at once, one row comes back.
    // detached_at = now until the socket is open (an upgrade that never completes leaves a session that expires).
    const claimed = await this.guard(() =>
      sql<{ id: string; owner_id: string; request: string }>`
        UPDATE voice_sessions
        SET token_used = true, instance_id = ${this.instanceId}, detached_at = ${now}
        WHERE token_hash = ${hash} AND NOT token_used AND token_issued_at >= ${now - this.options.tokenTtlMs}
        RETURNING id, owner_id, request`.execute(this.db),
    );
    const row = claimed.rows[0];
    if (row) {
      try {
        return { id: row.id, ownerId: row.owner_id, config: this.validate(JSON.parse(row.request)), tokenHash: hash };
      } catch (error) {
        // Instances must be identical; one that cannot run what another accepted ends the session with a 500.
        await this.guard(() => this.end(row.id, EndReasons.ended));
        throw new VoiceApiError(
          500,
          'internal_error',
          `This server cannot run the session: ${(error as Error).message}`,
        );
      }
    }
    // Refused: find out why (no lock needed, the answer is a refusal either way).
    const found = await this.guard(() =>
      sql<TokenLookup>`
        ${TOKEN_LOOKUP(this.expired(now))}
        WHERE voice_session_tokens.token_hash = ${hash}`.execute(this.db),
    );
    const session = found.rows[0];
    if (!session) throw RegistryErrors.unknownTokenOnConnect();
    if (session.expired) {
      await this.guard(() => this.db.deleteFrom('voice_sessions').where('id', '=', session.id).execute());
      throw RegistryErrors.unknownTokenOnConnect();
    }
    if (session.token_hash !== hash) {
      await this.guard(() => this.end(session.id, EndReasons.outdatedToken));
      throw RegistryErrors.outdatedTokenOnConnect();
    }
    if (session.token_used) {
      await this.guard(() => this.end(session.id, EndReasons.tokenUsedTwice));
      throw RegistryErrors.tokenAlreadyUsed();
    }
    throw RegistryErrors.unknownTokenOnConnect();
  }

  attach(claimed: ClaimedSession, stream: AttachedStream): void {
    // Listed first, so a notice from now on finds it; then checked, for a notice that came before.
    this.local.set(claimed.tokenHash, { sessionId: claimed.id, stream });
    this.track(
      this.db
        .updateTable('voice_sessions')
        .set({ detached_at: null })
        .where('id', '=', claimed.id)
        .where('token_hash', '=', claimed.tokenHash)
        .where('instance_id', '=', this.instanceId)
        .returning('id')
        .execute()
        .then((rows) => {
          if (rows.length === 0) this.dropLocal(claimed.tokenHash, EndReasons.ended);
        }),
    );
  }

  detach(claimed: ClaimedSession, stream: AttachedStream, finished: boolean): void {
    if (this.local.get(claimed.tokenHash)?.stream !== stream) return;
    this.local.delete(claimed.tokenHash);
    // Only while the session is still the one this stream opened (not rotated or ended meanwhile).
    const write = finished
      ? this.db
          .deleteFrom('voice_sessions')
          .where('id', '=', claimed.id)
          .where('token_hash', '=', claimed.tokenHash)
          .execute()
      : this.db
          .updateTable('voice_sessions')
          .set({ detached_at: this.options.now(), instance_id: null })
          .where('id', '=', claimed.id)
          .where('token_hash', '=', claimed.tokenHash)
          .execute();
    this.track(write);
  }

  async openSessionCount(): Promise<number> {
    const now = this.options.now();
    const { open } = await this.db
      .selectFrom('voice_sessions')
      .select((eb) => eb.fn.countAll<number>().as('open'))
      .where((eb) => eb.not(this.expired(now)))
      .executeTakeFirstOrThrow();
    return Number(open);
  }

  /**
   * This instance stops: its streams close with 1001 and their sessions become detached, so the clients can
   * reconnect through another instance (GET /v3/voice/realtime?token=) within the detached time.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const { stream } of [...this.local.values()]) stream.drop(EndReasons.serverStopping, true);
    // The streams report their end through promise callbacks: let them run, then wait for their writes.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.allSettled([...this.writes]);
    await this.listener.close();
    await this.db
      .deleteFrom('voice_instances')
      .where('id', '=', this.instanceId)
      .execute()
      .catch(() => undefined);
  }

  /**
   * SQL condition of a session that is over without anyone having ended it: its token was not used in time,
   * it has had no stream for the detached time, or the instance holding its stream is gone.
   */
  private expired(now: number): RawBuilder<boolean> {
    const { tokenTtlMs, detachedTtlMs, instanceTimeoutMs } = this.options;
    return sql<boolean>`(
      (NOT voice_sessions.token_used AND voice_sessions.token_issued_at < ${now - tokenTtlMs})
      OR (voice_sessions.detached_at IS NOT NULL AND voice_sessions.detached_at < ${now - detachedTtlMs})
      OR (voice_sessions.token_used AND voice_sessions.detached_at IS NULL AND COALESCE(
        (SELECT i.seen_at FROM voice_instances i WHERE i.id = voice_sessions.instance_id), 0) < ${now - instanceTimeoutMs - detachedTtlMs})
    )`;
  }

  /** Ends a session (its tokens go with it) and tells the instance holding its stream. */
  private end(sessionId: string, reason: string): Promise<void> {
    return this.db.transaction().execute((trx) => this.endIn(trx, sessionId, reason));
  }

  private async endIn(trx: Kysely<VoiceSchema>, sessionId: string, reason: string): Promise<void> {
    await trx.deleteFrom('voice_sessions').where('id', '=', sessionId).execute();
    await this.notifyIn(trx, { session: sessionId, reason });
  }

  private async notifyIn(trx: Kysely<VoiceSchema>, notice: SessionNotice): Promise<void> {
    await sql`SELECT pg_notify(${SESSION_NOTICE_CHANNEL}, ${encodeSessionNotice(notice)})`.execute(trx);
  }

  private onNotice(notice: SessionNotice): void {
    if (notice.token !== undefined) {
      if (this.local.get(notice.token)?.sessionId === notice.session) this.dropLocal(notice.token, notice.reason);
      return;
    }
    for (const [tokenHash, entry] of [...this.local])
      if (entry.sessionId === notice.session) this.dropLocal(tokenHash, notice.reason);
  }

  private dropLocal(tokenHash: string, reason: string): void {
    const entry = this.local.get(tokenHash);
    if (!entry) return;
    this.local.delete(tokenHash);
    entry.stream.drop(reason);
  }

  /** After notices may have been missed: every local stream whose session changed meanwhile is dropped. */
  private recheckLocalStreams(): void {
    const hashes = [...this.local.keys()];
    if (hashes.length === 0) return;
    this.track(
      this.db
        .selectFrom('voice_sessions')
        .select('token_hash')
        .where('token_hash', 'in', hashes)
        .where('token_used', '=', true)
        .execute()
        .then((rows) => {
          const current = new Set(rows.map((row) => row.token_hash));
          for (const hash of hashes) if (!current.has(hash)) this.dropLocal(hash, EndReasons.ended);
        }),
    );
  }

  /** Heartbeat: alive, expired sessions swept, own sessions without a stream here marked detached. */
  private async beat(): Promise<void> {
    const now = this.options.now();
    try {
      await this.db
        .insertInto('voice_instances')
        .values({ id: this.instanceId, started_at: now, seen_at: now })
        .onConflict((conflict) => conflict.column('id').doUpdateSet({ seen_at: now }))
        .execute();
      await this.db.deleteFrom('voice_sessions').where(this.expired(now)).execute();
      // A detach write that failed (database briefly away) would leave a session "streaming" here forever.
      let orphans = this.db
        .updateTable('voice_sessions')
        .set({ detached_at: now, instance_id: null })
        .where('instance_id', '=', this.instanceId)
        .where('detached_at', 'is', null);
      const streaming = [...this.local.keys()];
      if (streaming.length > 0) orphans = orphans.where('token_hash', 'not in', streaming);
      await orphans.execute();
      await this.db
        .deleteFrom('voice_instances')
        .where('seen_at', '<', now - 24 * 60 * 60_000)
        .execute();
      if (this.heartbeatFailing) console.error('voice-stream: session store reachable again');
      this.heartbeatFailing = false;
    } catch (error) {
      if (!this.heartbeatFailing)
        console.error(`voice-stream: session store heartbeat failed: ${(error as Error).message}`);
      this.heartbeatFailing = true;
    }
  }

  /** Database errors become 503 answers; refusals pass through. */
  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof VoiceApiError) throw error;
      console.error(`voice-stream: session store error: ${(error as Error).message}`);
      throw RegistryErrors.storeUnavailable();
    }
  }

  /** Writes nobody waits for (a stream's start and end), logged on failure and awaited by close(). */
  private track(write: Promise<unknown>): void {
    const tracked = write
      .catch((error: unknown) => console.error(`voice-stream: session store write failed: ${(error as Error).message}`))
      .finally(() => this.writes.delete(tracked));
    this.writes.add(tracked);
  }
}
