import type { LogFields, Logger } from '../../plugin';

/** What the logger may offer beyond `Logger`: pino's child loggers. */
interface WithChildren extends Logger {
  child(bindings: Record<string, unknown>): Logger;
}

/**
 * The logger of one request: the app's logger with the request's id on every line (`reqId`), when the app
 * uses `requestId()`, and the fields plugins add to a request's lines (`trace_id` and `span_id` of the request's
 * span with `openTelemetry()`). Take it with `@Context() log: RequestLogger`; it costs nothing until it writes a line
 * (the pino child logger is made on the first line written).
 *
 * ```ts
 * @GET @Path('/orders/{id}')
 * order(@PathParam('id') id: string, @Context() log: RequestLogger) {
 *   log.info({ orderId: id }, 'order read');     // {"reqId":"4f1c...","orderId":"42","msg":"order read",...}
 * }
 * ```
 */
export class RequestLogger implements Logger {
  private target: Logger | null = null;

  /**
   * @param base the app's logger
   * @param requestId the request's id (undefined when the app gives requests none)
   * @param fields more fields for every line (the plugins' `logFields`), after `reqId`
   */
  constructor(
    private readonly base: Logger,
    readonly requestId: string | undefined,
    private readonly fields?: LogFields,
  ) {}

  error(obj: unknown, msg?: string): void {
    this.logger().error(obj, msg);
  }

  warn(obj: unknown, msg?: string): void {
    this.logger().warn(obj, msg);
  }

  info(obj: unknown, msg?: string): void {
    this.logger().info(obj, msg);
  }

  debug(obj: unknown, msg?: string): void {
    this.logger().debug(obj, msg);
  }

  /** A logger with more fields on each line (the request id stays). */
  child(bindings: Record<string, unknown>): Logger {
    return childOf(this.logger(), bindings);
  }

  private logger(): Logger {
    if (this.target === null) {
      const fields = this.fields;
      if (fields === undefined)
        this.target = this.requestId === undefined ? this.base : childOf(this.base, { reqId: this.requestId });
      else
        this.target = childOf(this.base, this.requestId === undefined ? fields : { reqId: this.requestId, ...fields });
    }
    return this.target;
  }
}

/** pino's `child` when the logger has one; otherwise a logger that adds the fields to each line itself. */
function childOf(base: Logger, bindings: Record<string, unknown>): Logger {
  if (typeof (base as Partial<WithChildren>).child === 'function') return (base as WithChildren).child(bindings);
  const line = (obj: unknown): unknown => {
    if (obj instanceof Error) return { ...bindings, err: obj };
    if (obj !== null && typeof obj === 'object') return { ...bindings, ...(obj as object) };
    return obj === undefined ? { ...bindings } : { ...bindings, msg: String(obj) };
  };
  return {
    error: (obj, msg) => base.error(line(obj), msg),
    warn: (obj, msg) => base.warn(line(obj), msg),
    info: (obj, msg) => base.info(line(obj), msg),
    debug: (obj, msg) => base.debug(line(obj), msg),
  };
}
