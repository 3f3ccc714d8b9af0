import type { ExceptionHandler } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import type { HttpServerRequest } from '../http/request';
import type { HttpServerResponse } from '../http/response';
import { statusText } from '../errors/http-status';
import { accepts } from '../io/media-type';
import type { Provided } from '../io/registry';
import type { Logger } from '../util/log';
import { resolvedClassMetadata } from '../metadata/store';
import type { Constructor } from '../metadata/types';
import type { ComponentFactory } from '../settings/components';
import { isThenable } from './context-values';
import { WebApplicationException } from '../errors/http-errors';
import { CODE, errors } from '../errors/factories';

/** A handler ready to use, with the error type it declared (`@Handles`), Error when none. */
export interface BoundHandler {
  type: Function;
  /** The cached handler; absent for `@NoCache` / `@Context`-field handlers, made per request by `perRequest`. */
  handler?: ExceptionHandler<unknown>;
  perRequest?: (ctx: RoutingContext) => ExceptionHandler<unknown>;
}

export function bindHandler(
  provided: Provided<ExceptionHandler<unknown>>,
  components: ComponentFactory,
  type?: Function,
): BoundHandler {
  const ctor = typeof provided === 'function' ? provided : (provided as object).constructor;
  const handles = type ?? resolvedClassMetadata(ctor).handles ?? Error;
  if (components.isPerRequest(provided)) return { type: handles, perRequest: components.accessor(provided) };
  return { type: handles, handler: components.get(provided) as ExceptionHandler<unknown> };
}

function bindHandlers(list: readonly Constructor[] | undefined, components: ComponentFactory): BoundHandler[] {
  return (list ?? []).map((h) => bindHandler(h as Provided<ExceptionHandler<unknown>>, components));
}

/**
 * A route's (or upgrade's) own handlers: the method's `@CatchWith`, then the class's; an empty method
 * `@CatchWith()` leaves the class's out.
 */
export function routeHandlersOf(
  methodCatchWith: readonly Constructor[] | undefined,
  classCatchWith: readonly Constructor[] | undefined,
  components: ComponentFactory,
): BoundHandler[] {
  const classHandlers =
    methodCatchWith !== undefined && methodCatchWith.length === 0 ? [] : bindHandlers(classCatchWith, components);
  return [...bindHandlers(methodCatchWith, components), ...classHandlers];
}

/** The status an error maps to before any handler runs: its own for HTTP errors, else 500. */
function statusOf(error: unknown): number {
  if (error instanceof WebApplicationException) return error.status;
  const s =
    (error as { status?: unknown; statusCode?: unknown } | null)?.status ??
    (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof s === 'number' && Number.isInteger(s) && s >= 400 && s <= 599 ? s : 500;
}

/** What an error answer may tell the client: its status, and its message and code when they are the client's to see. */
export interface ErrorSummary {
  /** The status to answer: the one already set on the response, else the error's own, else 500. */
  status: number;
  /** The error's message when exposed, else the status's reason phrase. */
  message: string;
  /** The error's stable code, when exposed and it has one. */
  code: string | undefined;
  /** HTTP errors, and 4xx errors whose status is their own, are exposed; anything else is internal. */
  exposed: boolean;
}

/**
 * The built-in handlers' rule for what an error answer tells: the status set on the response (or the error's),
 * and, for exposed errors only, their message and code: a body never carries internals of a server error.
 */
export function summarizeError(error: unknown, response: HttpServerResponse): ErrorSummary {
  const status = response.getStatusCode() >= 400 ? response.getStatusCode() : statusOf(error);
  const exposed = error instanceof WebApplicationException || (status < 500 && statusOf(error) === status);
  const message = exposed && (error as Error)?.message ? (error as Error).message : statusText(status);
  const code = exposed ? (error as { code?: unknown })?.code : undefined;
  return { status, message, code: typeof code === 'string' ? code : undefined, exposed };
}

/** The JSON Schema of an error body's `violations` (every `ConstraintViolation` of a validation failure), for API documents. */
export const VIOLATIONS_SCHEMA: Record<string, unknown> = {
  type: 'array',
  description: `Every broken constraint, when validation failed (${CODE.RU_ERR_VALIDATION}).`,
  items: {
    type: 'object',
    properties: {
      in: { type: 'string', description: 'Where the value came from: body, query, path, header, cookie...' },
      path: { type: 'string', description: 'The property path in that value, or the parameter name.' },
      constraint: { type: 'string', description: 'The constraint broken (isEmail, min...).' },
      message: { type: 'string' },
      context: {
        type: 'object',
        description: "The constraint's context option (an error code of the API...), when it has one.",
      },
    },
    required: ['path', 'constraint', 'message'],
  },
};

/** The built-in handlers' JSON body: `DefaultExceptionHandler`'s, and `ConstraintExceptionHandler`'s with the violations. */
const ERROR_SCHEMA: Record<string, unknown> = {
  type: 'object',
  description: "rest.uws's error body (JSON when the client accepts it, else the message as text/plain).",
  properties: {
    status: { type: 'integer', description: 'The HTTP status.' },
    error: { type: 'string', description: 'Its reason phrase.' },
    message: { type: 'string', description: 'What went wrong, for people.' },
    code: { type: 'string', description: 'A stable code (RU_ERR_...), for programs.' },
    violations: VIOLATIONS_SCHEMA,
  },
  required: ['status', 'error', 'message', 'code'],
};

/** One body a built-in handler writes, as the OpenAPI document shows it (an app's handlers may use `OpenApiErrorBody`). */
export interface HandlerErrorBody {
  /** Key in `components.schemas` for `schema`; without one the schema is written inline. */
  name?: string;
  /** The body's media type. */
  mediaType: string;
  /** The body's JSON Schema. */
  schema: Record<string, unknown>;
}

/**
 * The built-in handler: a JSON body when the client takes JSON, text otherwise. Server errors that
 * are not HTTP errors get a generic message: a body never carries a stack trace or internals.
 */
export class DefaultExceptionHandler implements ExceptionHandler<unknown> {
  /** What the OpenAPI document shows for the answers this handler writes: `Error` as JSON, or the message as text. */
  readonly errorBody: ReadonlyArray<HandlerErrorBody> = [
    { name: 'Error', mediaType: 'application/json', schema: ERROR_SCHEMA },
    { mediaType: 'text/plain', schema: { type: 'string' } },
  ];

  /** Writes the error as `{ status, error, message, code }` JSON, or as plain text when the client does not take JSON. */
  write(error: unknown, request: HttpServerRequest, response: HttpServerResponse): void {
    const { status, message, code } = summarizeError(error, response);
    response.setStatusCode(status);
    if (accepts(request.headerOrEmpty('accept'), 'application/json')) {
      response.putHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ status, error: statusText(status), message, ...(code !== undefined ? { code } : {}) }),
      );
    } else {
      response.putHeader('content-type', 'text/plain; charset=utf-8');
      response.end(message);
    }
  }
}

const defaultHandler = new DefaultExceptionHandler();

/** Who answers an app's errors after a route's own `@CatchWith` handlers, decided when the app is built. */
export interface ErrorPolicy {
  /** The app's (then the global) registered handlers, in registration order. */
  readonly appHandlers: readonly BoundHandler[];
  /** Handlers plugins added for their own errors (ConstraintException...), tried after the app's. */
  readonly pluginHandlers: readonly BoundHandler[];
  /** The plugins' error hooks, composed (null when none). */
  readonly onError: ((error: unknown, ctx: RoutingContext) => void) | null;
  readonly logger: Logger;
}

/**
 * Where a compiled route reads its app's error policy when it fails: the app replaces the policy (never changes it
 * in place) when plugins are added, and routes compiled before see the new one.
 */
export interface ErrorPolicySource {
  readonly errors: ErrorPolicy;
}

/** Non-Error throws (strings, numbers) become Errors so handlers can match types; objects stay as they are. */
export function normalizeError(error: unknown): unknown {
  if (error instanceof Error) return error;
  if (error !== null && typeof error === 'object') return error;
  return errors.RU_ERR_THROWN_VALUE(String(error));
}

/**
 * Sends an error through the first matching handler: the route's `@CatchWith` (method then class),
 * then the app's registered ones in registration order, then the plugins' ones, then the built-in one.
 * The status is set before the handler runs, so a handler that sets none keeps it. A handler that fails
 * falls back to the built-in handler with 500.
 */
export function handleError(
  ctx: RoutingContext,
  error: unknown,
  routeHandlers: readonly BoundHandler[],
  policy: ErrorPolicy,
): void | Promise<void> {
  const { logger } = policy;
  const response = ctx.response;
  if (policy.onError !== null) {
    try {
      policy.onError(error, ctx);
    } catch (err) {
      logger.error({ err }, 'error hook failed');
    }
  }
  if (response.aborted()) return;
  if (response.ended() || response.headersSent()) {
    logger.error({ err: error, path: ctx.request.path() }, 'error after the response was sent; closing the connection');
    response.close();
    return;
  }
  const status = statusOf(error);
  response.setStatusCode(status);
  try {
    // Inside the try: a header the response refuses (a CR or LF from the request, say) falls back to a 500.
    if (error instanceof WebApplicationException)
      for (const [k, v] of Object.entries(error.headers)) response.putHeader(k, v);
    const appHandler = pick(error, routeHandlers, ctx) ?? pick(error, policy.appHandlers, ctx);
    // An error the app's own handlers answer is theirs to log; only unexpected ones are logged here.
    if (appHandler === undefined && status >= 500 && !(error instanceof WebApplicationException)) {
      logger.error({ err: error, method: ctx.request.method(), path: ctx.request.path() }, 'unhandled error in route');
    }
    const handler = appHandler ?? pick(error, policy.pluginHandlers, ctx) ?? defaultHandler;
    const out = handler.write(error, ctx.request, response);
    if (isThenable(out)) {
      return Promise.resolve(out).then(
        () => finish(ctx),
        (err) => fallback(ctx, err, logger),
      );
    }
    finish(ctx);
  } catch (err) {
    fallback(ctx, err, logger);
  }
}

function pick(
  error: unknown,
  handlers: readonly BoundHandler[],
  ctx: RoutingContext,
): ExceptionHandler<unknown> | undefined {
  for (const h of handlers) {
    if (h.type === Error ? true : error instanceof (h.type as any))
      return h.perRequest !== undefined ? h.perRequest(ctx) : h.handler;
  }
  return undefined;
}

function finish(ctx: RoutingContext): void {
  if (!ctx.response.ended()) ctx.response.end();
}

function fallback(ctx: RoutingContext, err: unknown, logger: Logger): void {
  logger.error({ err }, 'exception handler failed');
  const response = ctx.response;
  if (response.ended() || response.aborted()) return;
  if (response.headersSent()) {
    response.close();
    return;
  }
  response.setStatusCode(500);
  defaultHandler.write(
    errors.RU_ERR_EXCEPTION_HANDLER('exception handler failed', { cause: err }),
    ctx.request,
    response,
  );
}
