import pino from 'pino';
import type { Logger } from '../../plugin';
import { BufferedDestination, type LogDestination } from './buffered-destination';

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
  /**
   * Write each line to stdout as it is logged (about 15 µs a line), instead of collecting the lines of an
   * event-loop turn and writing them together (the default: see `BufferedDestination`). Ignored when a
   * destination is given.
   */
  sync?: boolean;
  [option: string]: unknown;
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
 * A pino logger (JSON lines to stdout, or to `destination`) that fits `RestBuilder.logger`, `logRequests` and
 * `serve`. Levels below `level` (default `info`) cost nothing: pino replaces them with no-ops. Its types stay
 * pino's own concern: this package's declarations do not import pino.
 *
 * Lines go to stdout at the end of each event-loop turn, several in one write (`BufferedDestination`): a
 * request's log line then costs about a microsecond instead of a system call. Every write is synchronous, so
 * nothing is lost when the thread exits (`process.exit`, an uncaught exception, `serve`'s shutdown, a worker's
 * end); `sync: true` writes each line at once.
 *
 * ```ts
 * const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info' });
 * ```
 */
export function createLogger(options: CreateLoggerOptions = {}, destination?: LogDestination): PinoLogger {
  const { sync, ...rest } = options;
  const settings = { level: 'info', ...rest } as pino.LoggerOptions;
  // Never pino's asynchronous stdout: it loses the last lines when a worker thread exits (its flush does not
  // wait for a write in progress), and those are the crash reports. The buffered one writes synchronously.
  const stream = (destination ??
    (sync === true ? pino.destination({ dest: 1, sync: true }) : new BufferedDestination())) as pino.DestinationStream;
  return pino(settings, stream) as unknown as PinoLogger;
}
