import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  parseLogLevel,
  parseRequestsPerMinute,
  parseTrustProxy,
  readServerConfig,
  type LogLevel,
  type ServerConfig,
  type TrustProxySetting,
} from 'app-support';
import { defaultMaxSessions } from './domain/session-capacity';
import { DEFAULT_JOB_LIMITS } from './domain/jobs/job-request';

/** The embedded default: a SQLite file in the app's data folder (git-ignored). */
export const DEFAULT_DATABASE_FILE = path.resolve(__dirname, '..', '..', 'data', 'voice-stream.db');
export const DEFAULT_PORT = 8083;

/** SIGTERM/SIGINT end the process within this time, whatever the sessions are doing. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/** Session requests (POST /v3/voice/realtime) an API key may make per minute, unless --session-rate-limit says otherwise. */
export const DEFAULT_SESSION_RATE_LIMIT_PER_MINUTE = 60;

export interface VoiceConfig extends ServerConfig {
  /** Sessions (streams) this instance runs at once; more are answered 503 server_busy. */
  readonly maxSessions: number;
  /** After SIGTERM/SIGINT the process exits within this time. */
  readonly shutdownTimeoutMs: number;
  /** Which proxies' X-Forwarded-* headers count (streaming_url's wss and host, client address): off by default. */
  readonly trustProxy: TrustProxySetting;
  /** Session requests per minute per API key, or false for no limit. */
  readonly sessionRateLimitPerMinute: number | false;
  /** Level of the JSON log on stdout: info writes one access line per request (with its request id). */
  readonly logLevel: LogLevel;
  /** Audio-file jobs: their folder (default beside the SQLite file), how many run at once, and their limits. */
  readonly jobs: {
    readonly directory?: string;
    readonly concurrency: number;
    readonly maxFileBytes: number;
    readonly maxDurationMs: number;
  };
}

function positiveInteger(value: string, source: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed < 1) {
    throw new Error(`Invalid value "${value}" from ${source}: expected a positive integer`);
  }
  return parsed;
}

function positiveOr(given: [string, string] | undefined, fallback: number): number {
  return given ? positiveInteger(...given) : fallback;
}

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  database: { type: 'string' },
  'max-sessions': { type: 'string' },
  'shutdown-timeout': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'session-rate-limit': { type: 'string' },
  'log-level': { type: 'string' },
  'jobs-directory': { type: 'string' },
  'job-concurrency': { type: 'string' },
  'job-max-file-size': { type: 'string' },
  'job-max-duration': { type: 'string' },
} as const;

/**
 * Port, host and database from flags (--port, --host, --database) or VOICE_* / generic env variables;
 * --max-sessions / VOICE_MAX_SESSIONS and --shutdown-timeout / VOICE_SHUTDOWN_TIMEOUT (seconds); --trust-proxy /
 * VOICE_TRUST_PROXY (off, a hop count, or addresses and ranges), --session-rate-limit / VOICE_SESSION_RATE_LIMIT
 * (session requests per minute per API key, or off) and --log-level / VOICE_LOG_LEVEL; the audio-file jobs'
 * --jobs-directory, --job-concurrency, --job-max-file-size (bytes) and --job-max-duration (seconds), or
 * VOICE_JOBS_DIRECTORY, VOICE_JOB_CONCURRENCY, VOICE_JOB_MAX_FILE_SIZE, VOICE_JOB_MAX_DURATION. Unknown
 * flags and flags without a value are errors (node:util parseArgs); positionals are left to the caller.
 */
export function readVoiceConfig(
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): VoiceConfig {
  const flags = parseArgs({ args: [...argv], options: FLAGS, allowPositionals: true, strict: true }).values;
  const serverFlags = (['port', 'host', 'database'] as const).flatMap((name) =>
    flags[name] === undefined ? [] : [`--${name}`, flags[name]],
  );
  const server = readServerConfig(
    { port: DEFAULT_PORT, databaseUrl: DEFAULT_DATABASE_FILE, envPrefix: 'VOICE' },
    serverFlags,
    env,
  );
  type Flag =
    | 'max-sessions'
    | 'shutdown-timeout'
    | 'trust-proxy'
    | 'session-rate-limit'
    | 'log-level'
    | 'jobs-directory'
    | 'job-concurrency'
    | 'job-max-file-size'
    | 'job-max-duration';
  const pick = (flag: Flag, envName: string): [string, string] | undefined => {
    const fromFlag = flags[flag];
    if (fromFlag !== undefined) return [fromFlag, `--${flag}`];
    const fromEnv = env[envName];
    return fromEnv ? [fromEnv, envName] : undefined;
  };
  const maxSessions = pick('max-sessions', 'VOICE_MAX_SESSIONS');
  const shutdownTimeout = pick('shutdown-timeout', 'VOICE_SHUTDOWN_TIMEOUT');
  const text = (flag: Flag, envName: string): [string | undefined, string] =>
    pick(flag, envName) ?? [undefined, envName];
  return {
    ...server,
    maxSessions: maxSessions ? positiveInteger(...maxSessions) : defaultMaxSessions(),
    shutdownTimeoutMs: shutdownTimeout ? positiveInteger(...shutdownTimeout) * 1000 : DEFAULT_SHUTDOWN_TIMEOUT_MS,
    trustProxy: parseTrustProxy(...text('trust-proxy', 'VOICE_TRUST_PROXY')),
    sessionRateLimitPerMinute: parseRequestsPerMinute(
      ...text('session-rate-limit', 'VOICE_SESSION_RATE_LIMIT'),
      DEFAULT_SESSION_RATE_LIMIT_PER_MINUTE,
    ),
    logLevel: parseLogLevel(...text('log-level', 'VOICE_LOG_LEVEL'), 'info'),
    jobs: {
      directory: pick('jobs-directory', 'VOICE_JOBS_DIRECTORY')?.[0],
      concurrency: positiveOr(pick('job-concurrency', 'VOICE_JOB_CONCURRENCY'), 1),
      maxFileBytes: positiveOr(pick('job-max-file-size', 'VOICE_JOB_MAX_FILE_SIZE'), DEFAULT_JOB_LIMITS.maxFileBytes),
      maxDurationMs:
        positiveOr(pick('job-max-duration', 'VOICE_JOB_MAX_DURATION'), DEFAULT_JOB_LIMITS.maxDurationMs / 1000) * 1000,
    },
  };
}
