/** Logging: a pino logger factory, and request logging as a plugin. */
export { requestLoggingPlugin, requestLoggingOptions, REQUEST_LOGGING, type RequestLoggingOptions, type RequestLogLevel } from './request-logging-plugin';
export { createLogger, type CreateLoggerOptions, type LogDestination, type PinoLogger } from './create-logger';
