import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  DEFAULT_POSTGRES_POOL_SIZE,
  parseLogLevel,
  parseRequestsPerMinute,
  parseTrustProxy,
  serverConfigFrom,
  type LogLevel,
  type PostgresPoolOptions,
  type ServerConfig,
  type TrustProxySetting,
} from 'app-support';

/** The embedded default: a SQLite file in the app's data folder (git-ignored). */
export const DEFAULT_DATABASE_FILE = path.resolve(__dirname, '..', '..', 'data', 'booking.db');
export const DEFAULT_PORT = 8081;

/** PostgreSQL pool of one instance: at most this many connections (each instance has its own pool). */
export const DEFAULT_POOL_SIZE = DEFAULT_POSTGRES_POOL_SIZE;
/** A statement running longer is cancelled by the server and the request answered 503 (no request needs seconds). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** A request waits at most this long for a connection (pool exhausted, server unreachable), then 503. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** How often the fulfilment worker looks for captured bookings it was not told about (other instances, restarts). */
export const DEFAULT_FULFILMENT_INTERVAL_MS = 1000;
/** Requests a partner API key may send per minute (a token bucket: bursts up to this many), unless --rate-limit says otherwise. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

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
  /** Which proxies' X-Forwarded-* headers count (client address, https, host): off unless --trust-proxy says. */
  trustProxy: TrustProxySetting;
  /** Requests per minute per API key, or false for no limit. */
  rateLimitPerMinute: number | false;
  /** Level of the JSON log on stdout: info writes one access line per request (with its request id). */
  logLevel: LogLevel;
}

/** Every flag of the server (and of the keys CLI, which opens the same database): all take a value. */
export const BOOKING_FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  database: { type: 'string' },
  'public-url': { type: 'string' },
  'db-pool-size': { type: 'string' },
  'db-statement-timeout-ms': { type: 'string' },
  'db-connect-timeout-ms': { type: 'string' },
  workers: { type: 'string' },
  'background-jobs': { type: 'string' },
  'fulfilment-interval-ms': { type: 'string' },
  'sweep-interval-ms': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'rate-limit': { type: 'string' },
  'log-level': { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export type BookingFlags = Partial<Record<keyof typeof BOOKING_FLAGS, string>>;

/** The flags in `argv` (node:util parseArgs; an unknown flag or one without its value is an error); positionals only when allowed. */
export function parseBookingFlags(
  argv: readonly string[],
  allowPositionals = false,
): { flags: BookingFlags; positionals: string[] } {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: BOOKING_FLAGS,
    strict: true,
    allowPositionals,
  });
  return { flags: values, positionals };
}

/** A whole number from a flag or an environment variable, within bounds, or the default. */
function readInteger(
  flags: BookingFlags,
  env: NodeJS.ProcessEnv,
  flag: keyof BookingFlags,
  envName: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const fromFlag = flags[flag];
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
 * fulfilment and the timeout sweep to other instances; --trust-proxy (BOOKING_TRUST_PROXY: off, a hop count, or
 * addresses and ranges), --rate-limit (BOOKING_RATE_LIMIT: requests per minute per API key, or off) and --log-level
 * (BOOKING_LOG_LEVEL: error, warn, info, debug). An unknown flag is an error.
 */
export function readBookingConfig(
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): BookingConfig {
  return bookingConfigFrom(parseBookingFlags(argv).flags, env);
}

/** The configuration from flags already parsed (the keys CLI parses its command words with them). */
export function bookingConfigFrom(flags: BookingFlags, env: NodeJS.ProcessEnv = process.env): BookingConfig {
  const server = serverConfigFrom(
    { port: DEFAULT_PORT, databaseUrl: DEFAULT_DATABASE_FILE, envPrefix: 'BOOKING' },
    flags,
    env,
  );
  const publicBaseUrl = flags['public-url'] ?? env.BOOKING_PUBLIC_BASE_URL ?? env.PUBLIC_BASE_URL;
  if (publicBaseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(publicBaseUrl)) {
    throw new Error(`Invalid public base URL "${publicBaseUrl}": expected http(s)://host[:port]`);
  }
  const postgresPool = {
    max: readInteger(flags, env, 'db-pool-size', 'BOOKING_DB_POOL_SIZE', DEFAULT_POOL_SIZE, 1, 1000),
    statementTimeoutMs: readInteger(
      flags,
      env,
      'db-statement-timeout-ms',
      'BOOKING_DB_STATEMENT_TIMEOUT_MS',
      DEFAULT_STATEMENT_TIMEOUT_MS,
      0,
      3_600_000,
    ),
    connectionTimeoutMs: readInteger(
      flags,
      env,
      'db-connect-timeout-ms',
      'BOOKING_DB_CONNECT_TIMEOUT_MS',
      DEFAULT_CONNECT_TIMEOUT_MS,
      0,
      3_600_000,
    ),
  };
  const workers = readInteger(flags, env, 'workers', 'BOOKING_WORKERS', 0, 0, 256);
  const jobs = flags['background-jobs'] ?? env.BOOKING_BACKGROUND_JOBS ?? 'on';
  if (jobs !== 'on' && jobs !== 'off') throw new Error(`Invalid background jobs setting "${jobs}": expected on or off`);
  const background =
    jobs === 'off'
      ? (false as const)
      : {
          fulfilmentIntervalMs: readInteger(
            flags,
            env,
            'fulfilment-interval-ms',
            'BOOKING_FULFILMENT_INTERVAL_MS',
            DEFAULT_FULFILMENT_INTERVAL_MS,
            10,
            3_600_000,
          ),
          sweepIntervalMs: readInteger(
            flags,
            env,
            'sweep-interval-ms',
            'BOOKING_SWEEP_INTERVAL_MS',
            DEFAULT_SWEEP_INTERVAL_MS,
            10,
            3_600_000,
          ),
        };
  const pick = (flag: 'trust-proxy' | 'rate-limit' | 'log-level', envName: string): [string | undefined, string] =>
    flags[flag] !== undefined ? [flags[flag], `--${flag}`] : [env[envName], envName];
  const trustProxy = parseTrustProxy(...pick('trust-proxy', 'BOOKING_TRUST_PROXY'));
  const rateLimitPerMinute = parseRequestsPerMinute(
    ...pick('rate-limit', 'BOOKING_RATE_LIMIT'),
    DEFAULT_RATE_LIMIT_PER_MINUTE,
  );
  const logLevel = parseLogLevel(...pick('log-level', 'BOOKING_LOG_LEVEL'), 'info');
  return {
    ...server,
    publicBaseUrl: publicBaseUrl?.replace(/\/+$/, ''),
    postgresPool,
    workers,
    background,
    trustProxy,
    rateLimitPerMinute,
    logLevel,
  };
}
