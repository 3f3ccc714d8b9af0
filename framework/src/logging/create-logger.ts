import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import type { Logger } from '../log';

/**
 * A pino logger (JSON lines on stdout) that fits `RestBuilder.logger`, `logRequests` and `serve`.
 * Levels below `level` (default `info`) cost nothing: pino replaces them with no-ops.
 *
 * `destination` defaults to stdout (`pino.destination(path)` writes to a file).
 *
 *     const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info' });
 */
export function createLogger(options: LoggerOptions = {}, destination?: DestinationStream): Logger & pino.Logger {
  return destination === undefined ? pino({ level: 'info', ...options }) : pino({ level: 'info', ...options }, destination);
}
