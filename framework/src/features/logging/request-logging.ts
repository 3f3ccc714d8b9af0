import type { RoutingContext } from '../../context/routing-context';
import type { Logger } from '../../util/log';
import { RestBuilder } from '../../builder/rest-builder';
import { RestRouter } from '../../builder/rest-router';
import { onRuntimeCreated, type AppRuntime } from '../../app/app-runtime';
import { globalSettings } from '../../settings/settings';
import { addRequestHook } from '../../app/request-hooks';

/** Levels a request line can be written at (the `Logger` methods). */
export type RequestLogLevel = 'error' | 'warn' | 'info' | 'debug';

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

declare module '../../builder/rest-builder' {
  interface RestBuilder {
    /**
     * Logs one line per request once it is answered: `{ method, path, status, durationMs }` with
     * the message `request` (`aborted: true` when the client left first). Off unless called;
     * `logRequests(false)` turns it off again.
     *
     * ```ts
     * new RestBuilder().logger(createLogger({ level: 'info' })).logRequests({ level: 'info' })
     * ```
     */
    logRequests(options?: RequestLoggingOptions | boolean): this;
  }
}

declare module '../../builder/rest-router' {
  namespace RestRouter {
    /** Request logging for apps built with `RestRouter.register` (a builder's own setting wins for its app). */
    function logRequests(options?: RequestLoggingOptions | boolean): void;
  }
}

function normalize(options: RequestLoggingOptions | boolean | undefined): RequestLoggingOptions | false {
  if (options === false) return false;
  const o = options === true || options === undefined ? {} : options;
  if (o.level !== undefined && !['error', 'warn', 'info', 'debug'].includes(o.level)) {
    throw new TypeError(`rest.uws: logRequests level must be error, warn, info or debug, got ${JSON.stringify(o.level)}`);
  }
  return { ...o };
}

RestBuilder.prototype.logRequests = function (this: RestBuilder, options) {
  this.settings.extensions.set(REQUEST_LOGGING, normalize(options));
  return this;
};

(RestRouter as unknown as { logRequests: typeof RestRouter.logRequests }).logRequests = (options) => {
  globalSettings.extensions.set(REQUEST_LOGGING, normalize(options));
};

onRuntimeCreated(installRequestLogging);

function installRequestLogging(rt: AppRuntime): void {
  const options = rt.settings.extension<RequestLoggingOptions | false>(REQUEST_LOGGING);
  if (options === undefined || options === false) return;
  const level = options.level ?? 'info';
  const explicit = options.logger;
  const probe = explicit ?? rt.logger;
  // A pino logger says whether the level is on; when it is off, nothing is installed at all.
  const enabled = (probe as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled;
  if (typeof enabled === 'function' && !enabled.call(probe, level)) return;
  const withAddress = options.remoteAddress === true;
  addRequestHook(rt, (ctx: RoutingContext) => {
    const start = performance.now();
    // Read now: after the response ends uWebSockets.js no longer knows the connection.
    const remoteAddress = withAddress ? ctx.request.remoteAddress() : undefined;
    let done = false;
    const write = (aborted: boolean) => {
      if (done) return;
      done = true;
      const line: Record<string, unknown> = {
        method: ctx.request.method(),
        path: ctx.request.path(),
        status: ctx.response.getStatusCode(),
        durationMs: Math.round((performance.now() - start) * 1000) / 1000,
      };
      if (aborted) line.aborted = true;
      if (remoteAddress !== undefined) line.remoteAddress = remoteAddress;
      // Looked up per line: the app's logger may be configured after the runtime exists.
      (explicit ?? rt.logger)[level](line, 'request');
    };
    ctx.response.onEnd(() => write(false));
    ctx.response.onAborted(() => write(true));
  });
}
