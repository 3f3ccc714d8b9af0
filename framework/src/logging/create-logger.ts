import pino, { type LoggerOptions } from 'pino';
import type { Logger } from '../log';

/**
 * A pino logger (JSON lines on stdout) that fits `RestBuilder.logger`, `logRequests` and `serve`.
 * Levels below `level` (default `info`) cost nothing: pino replaces them with no-ops.
 *
 *     const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info' });
 */
export function createLogger(options: LoggerOptions = {}): Logger & pino.Logger {
  return pino({ level: 'info', ...options });
}
