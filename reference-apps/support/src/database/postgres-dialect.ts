import pg from 'pg';
import { PostgresDialect } from 'kysely';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * pg returns int8 (bigint, count(*)) and numeric as strings, SQLite returns numbers.
 * Parse them to numbers per pool (not globally) so the same repository code sees the same types on both engines.
 * Values beyond Number.MAX_SAFE_INTEGER stay strings rather than silently losing precision.
 */
function toNumberIfSafe(value: string): number | string {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) || (!Number.isInteger(parsed) && Number.isFinite(parsed)) ? parsed : value;
}

const portableTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return toNumberIfSafe;
    return (pg.types.getTypeParser as (oid: number, format?: 'text' | 'binary') => unknown)(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

export interface PostgresPoolOptions {
  /** Connections in the pool (default 10). */
  max?: number;
}

export function createPostgresPool(connectionString: string, options: PostgresPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, types: portableTypes });
  // An idle client losing its connection (server restart) emits 'error' on the pool; without a listener that crashes the process.
  pool.on('error', (error) => {
    console.error(`postgres pool: idle connection error: ${error.message}`);
  });
  return pool;
}

export function createPostgresDialect(pool: pg.Pool): PostgresDialect {
  return new PostgresDialect({ pool });
}
