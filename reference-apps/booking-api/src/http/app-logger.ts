import { createLogger, type Logger } from 'rest.uws';

/** tsyringe token of the app's logger (exception handlers log what they answer with 500). */
export const LOGGER = 'booking-api:logger';

/** Warnings and errors as JSON lines on stderr (pino), unless the app is given a logger. */
export function defaultLogger(): Logger {
  return createLogger({ level: 'warn', name: 'booking-api', base: null }, process.stderr);
}
