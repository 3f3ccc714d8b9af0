import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { JobRequest } from '../domain/jobs/job-request';
import type { VoiceSchema } from './voice-schema';

/** A job as a whole: awaiting its file, queued, being processed, or finished. */
export type JobStatus = 'pending' | 'uploaded' | 'processing' | 'complete' | 'failed';

/** DeepL's `ResultStatus` of one target. */
export type ResultStatus = 'pending' | 'uploaded' | 'processing' | 'complete' | 'downloaded' | 'failed';

export interface TargetResult {
  readonly status: ResultStatus;
  readonly error?: string;
  /** Bytes of the finished result file. */
  readonly bytes?: number;
}

export interface StoredJob {
  readonly id: string;
  readonly ownerId: string;
  readonly request: JobRequest;
  readonly secret: string;
  readonly status: JobStatus;
  readonly results: readonly TargetResult[];
  readonly sourceBytes: number | null;
  readonly durationMs: number | null;
  readonly processedMs: number;
  readonly storageUsed: number;
  readonly error: string | null;
  readonly attempts: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number;
}

type Row = VoiceSchema['voice_jobs'];

function jobOf(row: Row): StoredJob {
  return {
    id: row.id,
    ownerId: row.owner_id,
    request: JSON.parse(row.request) as JobRequest,
    secret: row.secret,
    status: row.status as JobStatus,
    results: JSON.parse(row.results) as TargetResult[],
    sourceBytes: row.source_bytes === null ? null : Number(row.source_bytes),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    processedMs: Number(row.processed_ms),
    storageUsed: Number(row.storage_used),
    error: row.error,
    attempts: Number(row.attempts),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: Number(row.expires_at),
  };
}

/** The signature of an upload (`upload`) or of one target's download (`download:<index>`). */
export function signatureOf(job: Pick<StoredJob, 'secret' | 'id'>, purpose: string): string {
  return createHmac('sha256', Buffer.from(job.secret, 'base64url')).update(`${job.id}\n${purpose}`).digest('base64url');
}

/** Compares a presented signature with the expected one in constant time. */
export function signatureMatches(job: Pick<StoredJob, 'secret' | 'id'>, purpose: string, presented: string): boolean {
  const expected = Buffer.from(signatureOf(job, purpose));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const resultsWith = (count: number, status: ResultStatus): string =>
  JSON.stringify(Array.from({ length: count }, () => ({ status })));

/**
 * Jobs in the app's database, which is also their queue: workers of every instance on it claim queued jobs (on
 * PostgreSQL with `FOR UPDATE SKIP LOCKED`, on SQLite in a write transaction) with a lease they renew while they
 * work; a job whose lease ran out (its worker died) is claimed again. Reads by id name the owner: another key's job is
 * as unknown as one that never existed.
 */
export class JobStore {
  constructor(
    private readonly db: Kysely<VoiceSchema>,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}

  async create(ownerId: string, request: JobRequest, uploadWindowMs: number, now = Date.now()): Promise<StoredJob> {
    const row: Row = {
      id: randomUUID(),
      owner_id: ownerId,
      request: JSON.stringify(request),
      secret: randomBytes(32).toString('base64url'),
      status: 'pending',
      results: resultsWith(request.targets.length, 'pending'),
      source_bytes: null,
      duration_ms: null,
      processed_ms: 0,
      storage_used: 0,
      error: null,
      attempts: 0,
      lease_owner: null,
      lease_until: null,
      created_at: now,
      updated_at: now,
      expires_at: now + uploadWindowMs,
    };
    await this.db.insertInto('voice_jobs').values(row).execute();
    return jobOf(row);
  }

  /** Jobs of the key not finished yet (for the per-key limit); expired ones do not count. */
  async activeCount(ownerId: string, now = Date.now()): Promise<number> {
    const row = await this.db
      .selectFrom('voice_jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('owner_id', '=', ownerId)
      .where('status', 'in', ['pending', 'uploaded', 'processing'])
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** A job that has not expired, by id alone (uploads and downloads prove themselves with a signature). */
  async find(id: string, now = Date.now()): Promise<StoredJob | undefined> {
    const row = await this.db
      .selectFrom('voice_jobs')
      .selectAll()
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? jobOf(row) : undefined;
  }

  /** The key's job, or undefined (unknown, another key's, or expired). */
  async findOwned(ownerId: string, id: string, now = Date.now()): Promise<StoredJob | undefined> {
    const job = await this.find(id, now);
    return job?.ownerId === ownerId ? job : undefined;
  }

  /** The file arrived: the job is queued. False when it is no longer pending (uploaded twice, or expired). */
  async markUploaded(
    id: string,
    sourceBytes: number,
    durationMs: number,
    retentionMs: number,
    now = Date.now(),
  ): Promise<boolean> {
    const count = resultsWith((await this.find(id, now))?.request.targets.length ?? 0, 'uploaded');
    const result = await this.db
      .updateTable('voice_jobs')
      .set({
        status: 'uploaded',
        results: count,
        source_bytes: sourceBytes,
        duration_ms: durationMs,
        storage_used: sourceBytes,
        updated_at: now,
        expires_at: now + retentionMs,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Claims the oldest queued job, or one whose worker's lease ran out (an instance died while processing it), for
   * `leaseMs`. Returns undefined when there is none.
   */
  async claim(
    workerId: string,
    leaseMs: number,
    retentionMs: number,
    now = Date.now(),
  ): Promise<StoredJob | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('voice_jobs')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('status', '=', 'uploaded'),
            eb.and([eb('status', '=', 'processing'), eb('lease_until', '<', now)]),
          ]),
        )
        .where('expires_at', '>', now)
        .orderBy('updated_at')
        .limit(1);
      if (this.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const candidate = await query.executeTakeFirst();
      if (!candidate) return undefined;
      const updated = await trx
        .updateTable('voice_jobs')
        .set((eb) => ({
          status: 'processing',
          lease_owner: workerId,
          lease_until: now + leaseMs,
          processed_ms: 0,
          attempts: eb('attempts', '+', 1),
          updated_at: now,
          expires_at: now + retentionMs,
        }))
        .where('id', '=', candidate.id)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'uploaded'),
            eb.and([eb('status', '=', 'processing'), eb('lease_until', '<', now)]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
      if (!updated) return undefined;
      const job = jobOf(updated);
      const results = JSON.stringify(job.request.targets.map(() => ({ status: 'processing' })));
      await trx.updateTable('voice_jobs').set({ results }).where('id', '=', job.id).execute();
      return { ...job, results: job.request.targets.map(() => ({ status: 'processing' as const })) };
    });
  }

  /** Renews the lease and records progress; false when the job is no longer this worker's (claimed by another). */
  async heartbeat(
    id: string,
    workerId: string,
    processedMs: number,
    leaseMs: number,
    retentionMs: number,
    now = Date.now(),
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('voice_jobs')
      .set({
        lease_until: now + leaseMs,
        processed_ms: Math.round(processedMs),
        updated_at: now,
        expires_at: now + retentionMs,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', workerId)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The worker's outcome: every target's result; the job is kept until `expiresAt`. */
  async finish(
    id: string,
    workerId: string,
    outcome: { status: 'complete' | 'failed'; results: TargetResult[]; error?: string; processedMs: number },
    storageUsed: number,
    retentionMs: number,
    now = Date.now(),
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('voice_jobs')
      .set({
        status: outcome.status,
        results: JSON.stringify(outcome.results),
        error: outcome.error ?? null,
        processed_ms: Math.round(outcome.processedMs),
        storage_used: storageUsed,
        lease_owner: null,
        lease_until: null,
        updated_at: now,
        expires_at: now + retentionMs,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', workerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Jobs left processing by a run of this instance that ended without finishing them: queued again. */
  async requeueAbandoned(now = Date.now()): Promise<number> {
    const result = await this.db
      .updateTable('voice_jobs')
      .set({ status: 'uploaded', lease_owner: null, lease_until: null, updated_at: now })
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** A result was fetched: `complete` becomes `downloaded` (it stays downloadable until the job expires). */
  async markDownloaded(id: string, index: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Row-locked on PostgreSQL: downloads of several results at once must not undo each other's change.
      let query = trx.selectFrom('voice_jobs').select('results').where('id', '=', id);
      if (this.dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) return;
      const results = JSON.parse(row.results) as TargetResult[];
      if (results[index]?.status !== 'complete') return;
      results[index] = { ...results[index], status: 'downloaded' };
      await trx
        .updateTable('voice_jobs')
        .set({ results: JSON.stringify(results) })
        .where('id', '=', id)
        .execute();
    });
  }

  /** Deletes up to `limit` expired jobs and returns their ids (their files are the caller's to remove). */
  async deleteExpired(now = Date.now(), limit = 100): Promise<string[]> {
    const rows = await this.db
      .selectFrom('voice_jobs')
      .select('id')
      .where('expires_at', '<=', now)
      .where((eb) => eb.or([eb('status', '!=', 'processing'), eb('lease_until', '<', now)]))
      .limit(limit)
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    await this.db.deleteFrom('voice_jobs').where('id', 'in', ids).execute();
    return ids;
  }

  /** Ids of every job still stored (the sweeper removes folders of jobs that are gone). */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('voice_jobs').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }
}
