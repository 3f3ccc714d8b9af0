import * as httpErrors from '../../plugin';
import { DefaultExceptionHandler, type RouteAnswer, type RouteDefinition } from '../../plugin';
import type { JsonSchema } from './constraint-keywords';
import type { SchemaRegistry } from './schema-registry';

/**
 * How an exception handler's answers appear in the OpenAPI document: an `errorBody` property of the handler, or
 * a method `errorBody(route)` when the body depends on the route; a list when it writes several media types.
 * Without one, the document says nothing of the body of the errors the handler answers.
 *
 * ```ts
 * class ApiErrorHandler implements ExceptionHandler<unknown> {
 *   errorBody = { type: ApiErrorDto };          // or { name: 'Problem', mediaType: 'application/problem+json', schema }
 *   write(error, request, response) { ... }
 * }
 * ```
 *
 * A handler that hands some errors to rest.uws's `DefaultExceptionHandler` can say so with its `errorBody`.
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

/** The exception handlers of a route, in the order they are tried (its own `@CatchWith`, the app's, the plugins'). */
export type ErrorHandlerList = ReadonlyArray<{
  /** The error class it takes. */
  readonly type: Function;
  /** The handler, whose `errorBody` is read (undefined when one is made per request). */
  readonly handler: object | undefined;
  /** The route's own (`@CatchWith`): not asked for errors raised before the route runs. */
  readonly own?: true;
}>;

/** An error answer of an operation, before its body is known. */
export interface ErrorAnswer {
  status: number;
  description: string;
  /** The error class thrown for it: which handler writes the body depends on it. */
  error: Function;
  /**
   * Where it is raised: in the route (its own `@CatchWith` handlers answer first), before the route runs (the
   * router's 404, a path that cannot be decoded, a body over the limit: the app's handlers only), or either.
   */
  raised?: 'route' | 'outside' | 'both';
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
  return {
    status: a.status,
    description: a.description,
    error: a.error ?? errorClassOf(a.status),
    ...(a.headers !== undefined ? { headers: a.headers } : {}),
  };
}

/**
 * The bodies errors are answered with, as the document shows them: the first of the app's (then the plugins')
 * exception handlers that takes the error writes it, described by its `errorBody`; with none, the built-in
 * handler's `Error` schema.
 */
export class ErrorBodies {
  constructor(
    private readonly handlers: ErrorHandlerList,
    private readonly schemas: SchemaRegistry,
    /** The app answers unmatched paths with a not-found writer of its own, whose body is not described. */
    private readonly ownNotFound = false,
  ) {}

  /** The `content` of an error answer, or undefined when a handler that may write it does not describe its body. */
  contentOf(answer: ErrorAnswer, route: RouteDefinition): JsonSchema | undefined {
    const raised = answer.raised ?? 'route';
    if (raised !== 'route' && answer.status === 404 && this.ownNotFound) return undefined;
    const inRoute = raised === 'outside' ? undefined : this.contentFor(answer.error, this.handlers, route);
    const outside =
      raised === 'route'
        ? undefined
        : this.contentFor(
            answer.error,
            this.handlers.filter((h) => h.own !== true),
            route,
          );
    if (raised === 'route') return inRoute;
    if (raised === 'outside') return outside;
    if (inRoute === undefined || outside === undefined) return undefined;
    return mergeContent(inRoute, outside);
  }

  /**
   * The body of an error the route declares without saying which (`@ApiResponse(404, 'No such todo')`): the
   * body of the handler that takes every error (one registered for `Error`, else the built-in one), with the
   * bodies of the handlers of narrower types tried before it; undefined when one of those does not describe its body.
   */
  catchAllContent(route: RouteDefinition): JsonSchema | undefined {
    const last = this.handlers.findIndex((h) => h.type === Error);
    const narrower = last < 0 ? this.handlers : this.handlers.slice(0, last);
    let content = this.contentFor(Error, last < 0 ? [] : [this.handlers[last]!], route);
    for (const h of narrower) {
      const own = this.contentFor(h.type, [h], route);
      if (own === undefined || content === undefined) return undefined;
      content = mergeContent(content, own);
    }
    return content;
  }

  private contentFor(error: Function, handlers: ErrorHandlerList, route: RouteDefinition): JsonSchema | undefined {
    const taker = handlers.find((h) => h.type === Error || h.type === error || error.prototype instanceof h.type);
    // No handler of the app's takes it: the built-in one, which describes itself.
    const bodies = declaredBodies(taker === undefined ? BUILT_IN : taker.handler, route);
    if (bodies === undefined) return undefined;
    const content: JsonSchema = {};
    for (const body of bodies) {
      let schema: JsonSchema;
      if (body.type !== undefined) schema = this.schemas.schemaFor(body.type);
      else if (body.name !== undefined) {
        // A copy: a document is the app's to change (booking-api's nullable optionals), the handler's schema is not.
        this.schemas.components[body.name] ??= structuredClone(body.schema!);
        schema = { $ref: `#/components/schemas/${body.name}` };
      } else schema = structuredClone(body.schema!);
      content[body.mediaType ?? 'application/json'] = { schema };
    }
    return content;
  }
}

const BUILT_IN = new DefaultExceptionHandler();

/** Two possible bodies: every media type of either; one media type with two schemas takes either schema. */
function mergeContent(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a };
  for (const [type, media] of Object.entries(b)) {
    const mine = out[type] as JsonSchema | undefined;
    if (mine === undefined) out[type] = media;
    else if (JSON.stringify(mine.schema) !== JSON.stringify((media as JsonSchema).schema))
      out[type] = { schema: { anyOf: [mine.schema, (media as JsonSchema).schema] } };
  }
  return out;
}

/** A handler's `errorBody` for a route, as a list; undefined when it has none (or a malformed one). */
function declaredBodies(handler: object | undefined, route: RouteDefinition): OpenApiErrorBody[] | undefined {
  const own = (handler as { errorBody?: unknown } | undefined)?.errorBody;
  const declared = typeof own === 'function' ? (own as (route: RouteDefinition) => unknown).call(handler, route) : own;
  const list = Array.isArray(declared) ? declared : [declared];
  const valid = (b: unknown): b is OpenApiErrorBody =>
    b !== null &&
    typeof b === 'object' &&
    (typeof (b as OpenApiErrorBody).type === 'function' ||
      ((b as OpenApiErrorBody).schema !== null && typeof (b as OpenApiErrorBody).schema === 'object'));
  return list.length > 0 && list.every(valid) ? list : undefined;
}
