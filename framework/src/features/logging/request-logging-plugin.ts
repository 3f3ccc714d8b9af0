import { performance } from 'node:perf_hooks';
import {
  errors,
  isExcludedFromAccessLog,
  requestIdOf,
  type Logger,
  type RestPlugin,
  type RoutingContext,
} from '../../plugin';
import { AccessLineWriter, type RequestLogLevel } from './access-line';
import { RequestLogger } from './request-logger';

export type { RequestLogLevel };

/** How requests are logged. */
export interface RequestLoggingOptions {
  /** Level of the per-request line (default `info`). Nothing is installed when the logger has it disabled. */
  level?: RequestLogLevel;
  /** Where lines go; default the app's logger (`RestBuilder.logger`). */
  logger?: Logger;
  /** Add the client's address (`remoteAddress`) to each line (default false: it costs a native call). */
  remoteAddress?: boolean;
}

/** Settings key of the request logging options. */
export const REQUEST_LOGGING = Symbol('rest.uws:request-logging');

/** Checks and copies the options of `logRequests` (false: off). */
export function requestLoggingOptions(
  options: RequestLoggingOptions | boolean | undefined,
): RequestLoggingOptions | false {
  if (options === false) return false;
  const o = options === true || options === undefined ? {} : options;
  if (o.level !== undefined && !['error', 'warn', 'info', 'debug'].includes(o.level)) {
    throw errors.RU_ERR_LOGGING_OPTIONS(
      `rest.uws: logRequests level must be error, warn, info or debug, got ${JSON.stringify(o.level)}`,
    );
  }
  return { ...o };
}

/**
 * Request logging: one line per request once it is answered (`logRequests` on the app, or
 * `RestRouter.logRequests` for every app): `{ method, path, status, durationMs }` with the message
 * `request` (`aborted: true` when the client left first, `reqId` when the app uses `requestId()`, and the fields
 * plugins add with `logFields`: `trace_id`, `span_id` with `openTelemetry()`).
 * Nothing is installed while it is off or its level is disabled. Every app can also give its routes a
 * `RequestLogger` (`@Context() log: RequestLogger`): the app's logger with the request's id on each line.
 */
export const requestLoggingPlugin: RestPlugin = {
  name: 'request-logging',
  setup(app) {
    // A provider costs nothing on routes that do not ask for it; an app's own provider for the type wins.
    if (app.settings.contextProvider(RequestLogger) === undefined) {
      app.addProvider(
        RequestLogger,
        (_request, ctx) => new RequestLogger(app.logger, requestIdOf(ctx), app.logFieldsOf(ctx)),
      );
    }
    const options = app.settings.extension<RequestLoggingOptions | false>(REQUEST_LOGGING);
    if (options === undefined || options === false) return;
    const level = options.level ?? 'info';
    const explicit = options.logger;
    const probe = explicit ?? app.logger;
    // A pino logger says whether the level is on; when it is off, nothing is installed at all.
    const enabled = (probe as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled;
    if (typeof enabled === 'function' && !enabled.call(probe, level)) return;
    const withAddress = options.remoteAddress === true;
    const writer = new AccessLineWriter(level);
    app.onRequest((ctx: RoutingContext) => {
      const start = performance.now();
      // Read now: after the response ends uWebSockets.js no longer knows the connection.
      const remoteAddress = withAddress ? ctx.request.remoteAddress() : undefined;
      let done = false;
      // One listener for both ends (answered, or the client left first): one closure per request.
      const finish = (): void => {
        if (done) return;
        done = true;
        // Looked up per line: the app's logger may be configured after the app is built.
        if (isExcludedFromAccessLog(ctx)) return;
        const { request, response } = ctx;
        const micros = Math.round((performance.now() - start) * 1000);
        writer.write(
          explicit ?? app.logger,
          request.method(),
          request.path(),
          response.getStatusCode(),
          micros,
          requestIdOf(ctx),
          response.aborted(),
          remoteAddress,
          app.logFieldsOf(ctx),
        );
      };
      ctx.response.onEnd(finish);
      ctx.response.onAborted(finish);
    });
  },
};
