import { errors, metadataExtensions } from '../../plugin';

/** Metadata key of `@ApiOperation` (method extension). */
export const API_OPERATION = Symbol('rest.uws:api-operation');
/** Metadata key of `@ApiResponse` (class and method extension): a list of [status, options]. */
export const API_RESPONSES = Symbol('rest.uws:api-responses');
/** Metadata key of `@ApiTags` (class and method extension). */
export const API_TAGS = Symbol('rest.uws:api-tags');

/** Texts of an operation in the OpenAPI document. */
export interface ApiOperationOptions {
  /** A one-line summary of the operation. */
  summary?: string;
  /** A longer description (CommonMark). */
  description?: string;
  /** Default: `ClassName_method`. Must be unique in the document. */
  operationId?: string;
  /** Marks the operation deprecated in the document. */
  deprecated?: boolean;
}

/** One documented response of an operation. */
export interface ApiResponseOptions {
  /** What the response means (default: the status's reason phrase, `Created` for 201). */
  description?: string;
  /**
   * The entity class (a DTO: its schema comes from its class-validator decorators), or String, Number, Boolean;
   * `[Booking]` is a list of bookings.
   */
  type?: Function | [Function];
  /** The body is a list of `type`. */
  isArray?: boolean;
  /**
   * The body's JSON Schema, for what no class describes (an interface: TypeScript keeps no trace of it at run
   * time). May `$ref` a schema of the document (`{ $ref: '#/components/schemas/Booking' }`).
   */
  schema?: Record<string, unknown>;
  /** Media type of the body (default: the route's first `@Produces`, else application/json). */
  mediaType?: string;
  /** Response headers sent with it, by name, each with what it says (`{ Location: 'The new booking' }`). */
  headers?: Record<string, string>;
}

type ClassOrMethodDecorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void;

const extensionsOf = metadataExtensions;

/** Summary, description, operationId and deprecation of a route in the OpenAPI document. */
export function ApiOperation(options: ApiOperationOptions): MethodDecorator {
  return (target, key) => void metadataExtensions(target, key).set(API_OPERATION, { ...options });
}

/** `ApiResponse`'s second argument in its short forms: the entity class, or the description. */
function responseOptions(
  second: ApiResponseOptions | Function | [Function] | string | undefined,
  description: string | undefined,
): ApiResponseOptions {
  if (typeof second === 'string') return { description: second };
  const options: ApiResponseOptions =
    typeof second === 'function' || Array.isArray(second) ? { type: second } : { ...(second ?? {}) };
  if (description !== undefined) options.description = description;
  if (Array.isArray(options.type)) {
    const [item] = options.type;
    if (options.type.length !== 1 || typeof item !== 'function')
      throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @ApiResponse takes a list type as [ItemClass]');
    options.type = item;
    options.isArray = true;
  } else if (options.type !== undefined && typeof options.type !== 'function') {
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @ApiResponse type must be a class (or [Class] for a list)');
  }
  if (options.schema !== undefined && (options.schema === null || typeof options.schema !== 'object'))
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @ApiResponse schema must be a JSON Schema object');
  return options;
}

/**
 * Documents a response: `@ApiResponse(201, Booking, 'Created')`, `@ApiResponse(200, [Booking])`,
 * `@ApiResponse(404, 'No such booking')`, or `@ApiResponse(200, { schema, headers, mediaType })`.
 * Needed where the code cannot tell: a `Promise` or an interface return type (TypeScript records neither's
 * shape), or a status set by a helper the method calls. Repeatable; on a class it applies to every route of the class.
 */
export function ApiResponse(
  status: number | 'default',
  options?: ApiResponseOptions | Function | [Function] | string,
  description?: string,
): ClassOrMethodDecorator {
  if (status !== 'default' && (!Number.isInteger(status) || status < 100 || status > 599))
    throw errors.RU_ERR_DECORATOR_ARGUMENT(`rest.uws: @ApiResponse takes an HTTP status, got ${String(status)}`);
  const entry = responseOptions(options, description);
  return (target, key) => {
    const ext = extensionsOf(target, key);
    const list = (ext.get(API_RESPONSES) as Array<[number | 'default', ApiResponseOptions]> | undefined) ?? [];
    ext.set(API_RESPONSES, [...list, [status, entry]]);
  };
}

/** Groups routes under tags (default: the class name). On a class or a method. */
export function ApiTags(...tags: string[]): ClassOrMethodDecorator {
  if (tags.length === 0 || tags.some((t) => typeof t !== 'string' || t === ''))
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @ApiTags takes one or more tag names');
  return (target, key) => void extensionsOf(target, key).set(API_TAGS, tags);
}
