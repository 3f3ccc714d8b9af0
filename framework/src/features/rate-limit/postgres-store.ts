import { createHash } from 'node:crypto';
import { stateAfter, intervalOf, type RateLimitState, type RateLimitWindow } from './gcra';
import type { RateLimitStore } from './store';
import { errors } from '../../plugin';

/** What the store needs of a PostgreSQL client: `query(text, values)`. A `pg` Pool or Client has it. */
export interface SqlQueryable {
  /** Runs one statement with `$1`-style parameters and resolves to its rows. */
  query(text: string, values?: unknown[]): Promise<SqlResult>;
}

/** What a query resolves to (a `pg` result has more; only the rows are read). */
export interface SqlResult {
  /** The statement's result rows. */
  rows: any[];
}

/** Settings of the PostgreSQL store: the pool it queries, its table, how often it sweeps. */
export interface PostgresRateLimitStoreOptions {
  /** A `pg` Pool (or anything with the same `query`); the store never loads `pg` itself. */
  pool: SqlQueryable;
  /** The table (created when missing; default `rest_uws_rate_limits`), optionally `schema.table`. */
  table?: string;
  /** How often rows of full buckets are deleted, at most (default 60 s; the delete runs beside a hit, not awaited). */
  sweepIntervalMs?: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/;

/**
 * Rate limits counted in PostgreSQL, so several instances of an app share them. Each hit is one atomic
 * upsert (`INSERT ... ON CONFLICT DO UPDATE`): the row of a key is locked while its bucket is updated, so
 * two instances never both spend the last request. Time is the database's clock (the instances' clocks
 * may differ). Keys are stored as SHA-256 hashes: API keys and tokens never reach the table.
 *
 * ```ts
 * import pg from 'pg';
 * const store = new PostgresRateLimitStore({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 * new RestBuilder().use(rateLimit({ store, global: { limit: 600, windowSeconds: 60 } }))
 * ```
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private readonly pool: SqlQueryable;
  private readonly table: string;
  private readonly hitSql: string;
  private readonly sweepIntervalMs: number;
  private ready: Promise<void> | undefined;
  private lastSweep = Date.now();

  constructor(options: PostgresRateLimitStoreOptions) {
    if (
      options === null ||
      typeof options !== 'object' ||
      options.pool === null ||
      typeof options.pool?.query !== 'function'
    ) {
      throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
        'rest.uws: PostgresRateLimitStore needs { pool }: a pg Pool, or anything with query(text, values)',
      );
    }
    const table = options.table ?? 'rest_uws_rate_limits';
    if (!IDENTIFIER.test(table))
      throw errors.RU_ERR_RATE_LIMIT_OPTIONS(
        `rest.uws: PostgresRateLimitStore table must be a lower-case identifier (schema.table allowed), got ${JSON.stringify(table)}`,
      );
    this.pool = options.pool;
    this.table = table;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    // $1 key, $2 interval (ms), $3 window (ms). The clock is read once, in the CTE; EXCLUDED.seen_at is that time.
    this.hitSql = `WITH clock AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS now)
INSERT INTO ${table} AS r (key, tat, allowed, seen_at)
SELECT $1, clock.now + $2::float8, true, clock.now FROM clock
ON CONFLICT (key) DO UPDATE SET
  allowed = GREATEST(r.tat, EXCLUDED.seen_at) + $2::float8 - EXCLUDED.seen_at <= $3::float8 + 1e-6,
  tat = CASE WHEN GREATEST(r.tat, EXCLUDED.seen_at) + $2::float8 - EXCLUDED.seen_at <= $3::float8 + 1e-6
             THEN GREATEST(r.tat, EXCLUDED.seen_at) + $2::float8 ELSE GREATEST(r.tat, EXCLUDED.seen_at) END,
  seen_at = EXCLUDED.seen_at
RETURNING tat, allowed, seen_at`;
  }

  /** Creates the table when missing (the first hit does it too; call it at startup to fail early). */
  migrate(): Promise<void> {
    this.ready ??= this.createTable().catch((err) => {
      this.ready = undefined; // try again on the next hit
      throw err;
    });
    return this.ready;
  }

  async hit(key: string, window: RateLimitWindow): Promise<RateLimitState> {
    await this.migrate();
    const hashed = createHash('sha256').update(key).digest('base64url');
    const { rows } = await this.pool.query(this.hitSql, [hashed, intervalOf(window), window.windowMs]);
    const row = rows[0] as { tat: number | string; allowed: boolean; seen_at: number | string };
    this.maybeSweep();
    return stateAfter(row.allowed, Number(row.tat), Number(row.seen_at), window);
  }

  /** Deletes the rows of full buckets now and then (a key without a row has a full bucket). */
  private maybeSweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < this.sweepIntervalMs) return;
    this.lastSweep = now;
    this.pool
      .query(`DELETE FROM ${this.table} WHERE tat < extract(epoch FROM clock_timestamp()) * 1000`)
      .catch(() => undefined);
  }

  private async createTable(): Promise<void> {
    const sql = `CREATE TABLE IF NOT EXISTS ${this.table} (key text PRIMARY KEY, tat float8 NOT NULL, allowed boolean NOT NULL, seen_at float8 NOT NULL)`;
    try {
      await this.pool.query(sql);
    } catch (err) {
      // Two instances creating the table at once: one wins, the other sees a duplicate table (42P07), or its row
      // type as a duplicate object (42710) or as a duplicate key in pg_type (23505), depending on the moment.
      const code = (err as { code?: string }).code;
      if (code !== '23505' && code !== '42P07' && code !== '42710') throw err;
    }
  }
}
