import { Kysely } from 'kysely';
import type pg from 'pg';
import { parseDatabaseUrl } from './database-url';
import { createSqliteDialect, openSqliteConnection } from './sqlite-dialect';
import { createPostgresDialect, createPostgresPool, type PostgresPoolOptions } from './postgres-dialect';

export type DatabaseDialect = 'sqlite' | 'postgres';

export interface Database<DB> {
  db: Kysely<DB>;
  dialect: DatabaseDialect;
  /**
   * The PostgreSQL pool behind `db` (undefined on SQLite), for what speaks SQL without Kysely: rest.uws's
   * PostgreSQL rate limit store shares it, so an instance's connections stay within its pool size.
   */
  postgresPool: pg.Pool | undefined;
  /** Closes the SQLite file or the PostgreSQL pool. Safe to call twice. */
  destroy(): Promise<void>;
}

export interface OpenDatabaseOptions {
  postgres?: PostgresPoolOptions;
}

/**
 * Opens SQLite (default; a file path, `sqlite:<path>` or `sqlite::memory:`) or PostgreSQL (`postgres://...`)
 * behind one Kysely instance. See parseDatabaseUrl for the accepted forms.
 */
export async function openDatabase<DB>(url?: string, options: OpenDatabaseOptions = {}): Promise<Database<DB>> {
  const location = parseDatabaseUrl(url);
  let db: Kysely<DB>;
  let postgresPool: pg.Pool | undefined;
  if (location.dialect === 'sqlite') {
    db = new Kysely<DB>({ dialect: createSqliteDialect(openSqliteConnection(location.file)) });
  } else {
    const pool = createPostgresPool(location.connectionString, options.postgres);
    postgresPool = pool;
    db = new Kysely<DB>({ dialect: createPostgresDialect(pool) });
    // Fail now, with the cause, rather than on the first request.
    try {
      await firstConnection(pool);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new Error(`Cannot connect to PostgreSQL: ${(error as Error).message}`, { cause: error });
    }
  }
  let destroyed: Promise<void> | undefined;
  return {
    db,
    dialect: location.dialect,
    postgresPool,
    destroy: () => (destroyed ??= db.destroy()),
  };
}

/**
 * How long the start-up check waits for a first connection that times out. The pool's connect timeout bounds how long
 * a request waits for a busy pool (it may be 100 ms); a first connection to a loaded or starting server can take
 * longer than that without anything being wrong, so timeouts are retried until this has passed. Any other error
 * (refused, wrong password, unknown database) fails at once.
 */
const STARTUP_CONNECT_MS = 5000;

async function firstConnection(pool: pg.Pool): Promise<void> {
  const deadline = Date.now() + STARTUP_CONNECT_MS;
  for (;;) {
    try {
      (await pool.connect()).release();
      return;
    } catch (error) {
      if (!/timeout/i.test((error as Error).message) || Date.now() >= deadline) throw error;
    }
  }
}
