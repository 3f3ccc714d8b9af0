import pino from 'pino';
import type { Logger } from '../../util/log';

/** Options of `createLogger`: pino's options (`level`, `name`, `base`, `redact`, `timestamp`...). */
export interface CreateLoggerOptions {
  /** Lowest level written: `fatal`, `error`, `warn`, `info` (default), `debug`, `trace` or `silent`. */
  level?: string;
  /** A `name` field on every line (which app or service wrote it). */
  name?: string;
  /** Fields on every line (pino's default: pid and hostname; null for none). */
  base?: Record<string, unknown> | null;
  /** Paths of fields to hide, e.g. `['req.headers.authorization']`. */
  redact?: string[];
  [option: string]: unknown;
}

/** Where lines go instead of stdout (`pino.destination(path)`, any stream with `write`). */
export interface LogDestination {
  /** Takes one JSON line (with its newline). */
  write(line: string): unknown;
}

/** The logger `createLogger` returns: the framework's `Logger` plus the pino methods rest.uws uses. */
export interface PinoLogger extends Logger {
  /** The lowest level written; assignable at run time. */
  level: string;
  /** Whether lines of `level` are written. */
  isLevelEnabled(level: string): boolean;
  /** Writes buffered lines; `serve` calls it before a thread exits. */
  flush(callback?: (err?: Error) => void): void;
  /** A logger that adds `bindings` to each of its lines. */
  child(bindings: Record<string, unknown>): PinoLogger;
}

/**
 * A pino logger (JSON lines written synchronously to stdout, or to `destination`) that fits `RestBuilder.logger`,
 * `logRequests` and `serve`. Levels below `level` (default `info`) cost nothing: pino replaces
 * them with no-ops. Its types stay pino's own concern: this package's declarations do not import pino.
 *
 * ```ts
 * const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info' });
 * ```
 */
export function createLogger(options: CreateLoggerOptions = {}, destination?: LogDestination): PinoLogger {
  const settings = { level: 'info', ...options } as pino.LoggerOptions;
  // Synchronous stdout by default: pino's asynchronous one loses the last lines when a worker thread
  // exits (its flush does not wait for a write in progress), and those are the crash reports.
  const stream = (destination ?? pino.destination({ dest: 1, sync: true })) as pino.DestinationStream;
  return pino(settings, stream) as unknown as PinoLogger;
}
