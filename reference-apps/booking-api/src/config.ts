import path from 'node:path';
import { readFlag, readServerConfig, type PostgresPoolOptions, type ServerConfig } from 'app-support';

/** The embedded default: a SQLite file in the app's data folder (git-ignored). */
export const DEFAULT_DATABASE_FILE = path.resolve(__dirname, '..', '..', 'data', 'booking.db');
export const DEFAULT_PORT = 8081;

/** PostgreSQL pool of one instance: at most this many connections (each instance has its own pool). */
export const DEFAULT_POOL_SIZE = 10;
/** A statement running longer is cancelled by the server and the request answered 503 (no request needs seconds). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** A request waits at most this long for a connection (pool exhausted, server unreachable), then 503. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** How often the fulfilment worker looks for captured bookings it was not told about (other instances, restarts). */
export const DEFAULT_FULFILMENT_INTERVAL_MS = 1000;
/** How often overdue UNCAPTURED bookings are written CAPTURE_TIMEOUT (reads see the timeout at once anyway). */
export const DEFAULT_SWEEP_INTERVAL_MS = 30_000;

export interface BookingConfig extends ServerConfig {
  /** Base of absolute links (voucher, tickets); PUBLIC_BASE_URL or --public-url, else http://localhost:<port>. */
  publicBaseUrl: string | undefined;
  /** Worker threads of rest.uws serve() sharing the port (0 or 1: one thread, the default; more need PostgreSQL). */
  workers: number;
  /**
   * Rounds of the background jobs (each also runs at start; fulfilment also right after a capture), or false when
   * this instance only serves requests and other instances do the background work.
   */
  background: false | { fulfilmentIntervalMs: number; sweepIntervalMs: number };
  /** PostgreSQL pool settings, per thread (ignored on SQLite). */
  postgresPool: Required<Pick<PostgresPoolOptions, 'max' | 'statementTimeoutMs' | 'connectionTimeoutMs'>>;
}

/** A whole number from a flag or an environment variable, within bounds, or the default. */
function readInteger(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  flag: string,
  envName: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const fromFlag = readFlag(argv, flag);
  const [text, source] = fromFlag !== undefined ? [fromFlag, `--${flag}`] : [env[envName], envName];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw new Error(`Invalid ${source} "${text}": expected a whole number from ${min} to ${max}`);
  }
  return value;
}

/**
 * Port, host and database from flags (--port, --host, --database) or BOOKING_* / generic env variables; the
 * PostgreSQL pool from --db-pool-size, --db-statement-timeout-ms, --db-connect-timeout-ms or BOOKING_DB_* (0 = no limit);
 * worker threads from --workers or BOOKING_WORKERS; background rounds from --fulfilment-interval-ms, --sweep-interval-ms
 * or BOOKING_FULFILMENT_INTERVAL_MS, BOOKING_SWEEP_INTERVAL_MS; --background-jobs off (BOOKING_BACKGROUND_JOBS=off) leaves
 * fulfilment and the timeout sweep to other instances.
 */
export function readBookingConfig(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): BookingConfig {
  const server = readServerConfig({ port: DEFAULT_PORT, databaseUrl: DEFAULT_DATABASE_FILE, envPrefix: 'BOOKING' }, argv, env);
  const publicBaseUrl = readFlag(argv, 'public-url') ?? env.BOOKING_PUBLIC_BASE_URL ?? env.PUBLIC_BASE_URL;
  if (publicBaseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(publicBaseUrl)) {
    throw new Error(`Invalid public base URL "${publicBaseUrl}": expected http(s)://host[:port]`);
  }
  const postgresPool = {
    max: readInteger(argv, env, 'db-pool-size', 'BOOKING_DB_POOL_SIZE', DEFAULT_POOL_SIZE, 1, 1000),
    statementTimeoutMs: readInteger(argv, env, 'db-statement-timeout-ms', 'BOOKING_DB_STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 0, 3_600_000),
    connectionTimeoutMs: readInteger(argv, env, 'db-connect-timeout-ms', 'BOOKING_DB_CONNECT_TIMEOUT_MS', DEFAULT_CONNECT_TIMEOUT_MS, 0, 3_600_000),
  };
  const workers = readInteger(argv, env, 'workers', 'BOOKING_WORKERS', 0, 0, 256);
  const jobs = readFlag(argv, 'background-jobs') ?? env.BOOKING_BACKGROUND_JOBS ?? 'on';
  if (jobs !== 'on' && jobs !== 'off') throw new Error(`Invalid background jobs setting "${jobs}": expected on or off`);
  const background = jobs === 'off' ? (false as const) : {
    fulfilmentIntervalMs: readInteger(argv, env, 'fulfilment-interval-ms', 'BOOKING_FULFILMENT_INTERVAL_MS', DEFAULT_FULFILMENT_INTERVAL_MS, 10, 3_600_000),
    sweepIntervalMs: readInteger(argv, env, 'sweep-interval-ms', 'BOOKING_SWEEP_INTERVAL_MS', DEFAULT_SWEEP_INTERVAL_MS, 10, 3_600_000),
  };
  return { ...server, publicBaseUrl: publicBaseUrl?.replace(/\/+$/, ''), postgresPool, workers, background };
}
