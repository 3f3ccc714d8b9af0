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

/**
 * Connections per pool (per process) unless an app says otherwise. The TechEmpower harness measured `pg` with 4 and 16
 * connections per process on 2 cores: 4 served single queries and fortunes within 3-6% of 16 and multiple queries 17%
 * faster, with a quarter of the connections (docs/benchmarks/techempower.md, "Drivers and pools").
 */
export const DEFAULT_POSTGRES_POOL_SIZE = 4;

export interface PostgresPoolOptions {
  /** Connections in the pool (default DEFAULT_POSTGRES_POOL_SIZE, 4). */
  max?: number;
  /** How long a query waits to open a connection before it fails (default: pg's, no limit). */
  connectionTimeoutMs?: number;
  /** Server-side `statement_timeout` of every connection: longer statements are cancelled (default: none). */
  statementTimeoutMs?: number;
  /** Idle connections are closed after this long (default: pg's 10 s). */
  idleTimeoutMs?: number;
}

export function createPostgresPool(connectionString: string, options: PostgresPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? DEFAULT_POSTGRES_POOL_SIZE,
    types: portableTypes,
    ...(options.connectionTimeoutMs !== undefined ? { connectionTimeoutMillis: options.connectionTimeoutMs } : {}),
    ...(options.statementTimeoutMs !== undefined ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMillis: options.idleTimeoutMs } : {}),
  });
  // An idle client losing its connection (server restart) emits 'error' on the pool; without a listener that crashes the process.
  pool.on('error', (error) => {
    console.error(`postgres pool: idle connection error: ${error.message}`);
  });
  // pg-pool listens for errors only on idle clients. A client checked out but between two queries (inside a
  // transaction, or just acquired) that loses its connection (server stopped: 57P01) emits 'error' with no listener,
  // which ends the process. Every client gets a listener of its own: the error is reported to the next query on that
  // client ("not queryable"), and pg-pool drops the client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

export function createPostgresDialect(pool: pg.Pool): PostgresDialect {
  return new PostgresDialect({ pool });
}
