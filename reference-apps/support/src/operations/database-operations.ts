import { sql } from 'kysely';
import { MemoryRateLimitStore, PostgresRateLimitStore, type RateLimitOptions, type ReadinessCheck } from 'rest.uws';
import type { Database } from '../database/open-database';

/** How long the database check of `/ready` may take before it counts as failed. */
export const DATABASE_CHECK_TIMEOUT_MS = 2000;

/**
 * The readiness check of an app's database (rest.uws `health({ checks })`), named `database`: a statement that
 * needs the database itself. On PostgreSQL `select 1` needs a pooled connection (a server that is down, full or
 * refusing connections fails it, or it times out); on SQLite a read of the schema table reads the file (a closed
 * handle or an unreadable file fails it). The error is logged by rest.uws, never sent.
 */
export function databaseReadinessCheck<DB>(
  database: Pick<Database<DB>, 'db' | 'dialect'>,
  timeoutMs = DATABASE_CHECK_TIMEOUT_MS,
): ReadinessCheck {
  const statement = database.dialect === 'postgres' ? sql`select 1` : sql`select count(*) from sqlite_master`;
  return { name: 'database', timeoutMs, check: () => statement.execute(database.db) };
}

/** Where an app's rate limits are counted, and what a failing store does. */
export interface AppRateLimitStore {
  /** `store` and `onStoreError` for rest.uws `rateLimit(...)`. */
  options: Required<Pick<RateLimitOptions, 'store' | 'onStoreError'>>;
  /** True when the instances on the same database share the limits (PostgreSQL). */
  shared: boolean;
}

/**
 * The rate limit store of an app on `database`: on PostgreSQL, rest.uws's `PostgresRateLimitStore` on the app's own
 * pool (every instance on the database shares the limits; the table is created now, so a missing privilege fails at
 * startup), with requests refused (503, Retry-After: 1) while it cannot count; on SQLite, which serves one process,
 * memory. The memory store cannot fail, so its routes document no 503 for it (`onStoreError: 'allow'`).
 */
export async function appRateLimitStore<DB>(
  database: Pick<Database<DB>, 'dialect' | 'postgresPool'>,
): Promise<AppRateLimitStore> {
  if (database.dialect === 'postgres' && database.postgresPool !== undefined) {
    const store = new PostgresRateLimitStore({ pool: database.postgresPool });
    await store.migrate();
    return { options: { store, onStoreError: 'refuse' }, shared: true };
  }
  return { options: { store: new MemoryRateLimitStore(), onStoreError: 'allow' }, shared: false };
}
