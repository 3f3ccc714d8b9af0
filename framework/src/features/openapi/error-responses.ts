import * as httpErrors from '../../errors/http-errors';
import type { RouteAnswer } from '../../pipeline/route-hooks';
import { VIOLATIONS_SCHEMA } from '../validation';
import type { JsonSchema } from './constraint-keywords';
import type { SchemaRegistry } from './schema-registry';

/**
 * How an exception handler's answers appear in the OpenAPI document: an `errorBody` property (or method) of the
 * handler. Without one, the document says nothing of the body of the errors the handler answers.
 *
 * ```ts
 * class ApiErrorHandler implements ExceptionHandler<unknown> {
 *   errorBody = { type: ApiErrorDto };          // or { name: 'Problem', mediaType: 'application/problem+json', schema }
 *   write(error, request, response) { ... }
 * }
 * ```
 */
export interface OpenApiErrorBody {
  /** Key in `components.schemas` for `schema` (a `type` is listed under its class name). */
  name?: string;
  /** The body's media type (default `application/json`). */
  mediaType?: string;
  /** The body's class (a DTO with class-validator decorators). */
  type?: Function;
  /** The body's JSON Schema, when no class describes it. */
  schema?: JsonSchema;
}

/** The exception handlers after a route's own, in the order they are tried. */
export type ErrorHandlerList = ReadonlyArray<{
  /** The error class it takes. */
  readonly type: Function;
  /** The handler, whose `errorBody` is read (undefined when one is made per request). */
  readonly handler: object | undefined;
}>;

/** The built-in handlers' body: `DefaultExceptionHandler`, and `ConstraintExceptionHandler` with the violations. */
export const ERROR_SCHEMA: JsonSchema = {
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

/** An error answer of an operation, before its body is known. */
export interface ErrorAnswer {
  status: number;
  description: string;
  /** The error class thrown for it: which handler writes the body depends on it. */
  error: Function;
  headers?: Readonly<Record<string, string>>;
}

const ERROR_BY_STATUS = new Map<number, Function>([
  [400, httpErrors.BadRequestException],
  [401, httpErrors.UnauthorizedException],
  [403, httpErrors.ForbiddenException],
  [404, httpErrors.NotFoundException],
  [406, httpErrors.NotAcceptableException],
  [409, httpErrors.ConflictException],
  [413, httpErrors.PayloadTooLargeException],
  [415, httpErrors.UnsupportedMediaTypeException],
  [429, httpErrors.TooManyRequestsException],
  [503, httpErrors.ServiceUnavailableException],
]);

/** The HTTP error class a status is thrown as. */
export function errorClassOf(status: number): Function {
  return ERROR_BY_STATUS.get(status) ?? httpErrors.WebApplicationException;
}

/** A plugin hook's answer as an error answer. */
export function fromRouteAnswer(a: RouteAnswer): ErrorAnswer {
  return { status: a.status, description: a.description, error: a.error ?? errorClassOf(a.status), ...(a.headers !== undefined ? { headers: a.headers } : {}) };
}

/**
 * The bodies errors are answered with, as the document shows them: the first of the app's (then the plugins')
 * exception handlers that takes the error writes it, described by its `errorBody`; with none, the built-in
 * handler's `Error` schema.
 */
export class ErrorBodies {
  constructor(private readonly handlers: ErrorHandlerList, private readonly schemas: SchemaRegistry) {}

  /** The `content` of the answer to an error of class `error`, or undefined when the handler does not describe its body. */
  contentFor(error: Function): JsonSchema | undefined {
    const taker = this.handlers.find((h) => h.type === Error || h.type === error || error.prototype instanceof h.type);
    if (taker === undefined) {
      this.schemas.components.Error ??= ERROR_SCHEMA;
      return { 'application/json': { schema: { $ref: '#/components/schemas/Error' } }, 'text/plain': { schema: { type: 'string' } } };
    }
    const body = declaredBody(taker.handler);
    if (body === undefined) return undefined;
    let schema: JsonSchema;
    if (body.type !== undefined) schema = this.schemas.schemaFor(body.type);
    else if (body.name !== undefined) {
      this.schemas.components[body.name] ??= body.schema!;
      schema = { $ref: `#/components/schemas/${body.name}` };
    } else schema = body.schema!;
    return { [body.mediaType ?? 'application/json']: { schema } };
  }
}

function declaredBody(handler: object | undefined): OpenApiErrorBody | undefined {
  const own = (handler as { errorBody?: unknown } | undefined)?.errorBody;
  const body = typeof own === 'function' ? (own as () => unknown).call(handler) : own;
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as OpenApiErrorBody;
  return typeof b.type === 'function' || (b.schema !== null && typeof b.schema === 'object') ? b : undefined;
}
