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
      const client = await pool.connect();
      client.release();
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
