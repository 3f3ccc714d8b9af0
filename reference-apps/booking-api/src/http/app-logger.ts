import { createLogger, type Logger } from 'rest.uws';
import type { LogLevel } from 'app-support';

/** tsyringe token of the app's logger (exception handlers log what they answer with 500). */
export const LOGGER = 'booking-api:logger';

/** Warnings and errors as JSON lines on stderr (pino), unless the app is given a logger. */
export function defaultLogger(): Logger {
  return createLogger({ level: 'warn', name: 'booking-api', base: null }, process.stderr);
}

/**
 * The server's log (main.ts): JSON lines on stdout at `level` (pino, written at the end of each event-loop turn);
 * at info, one access line per request with its request id (`reqId`).
 */
export function bookingLogger(config: { logLevel: LogLevel }): Logger {
  return createLogger({ level: config.logLevel, name: 'booking-api', base: null });
}
