/** Logging: a pino logger factory, the per-request logger, and request logging as a plugin. */
export {
  requestLoggingPlugin,
  requestLoggingOptions,
  REQUEST_LOGGING,
  type RequestLoggingOptions,
  type RequestLogLevel,
} from './request-logging-plugin';
export { excludeFromAccessLog } from '../../plugin';
export { createLogger, type CreateLoggerOptions, type PinoLogger } from './create-logger';
export type { LogDestination } from './buffered-destination';
export { RequestLogger } from './request-logger';
export { BufferedDestination, type BufferedDestinationOptions } from './buffered-destination';
