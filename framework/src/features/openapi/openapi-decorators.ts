import { marker } from '../../decorators/decorator-forms';
import { classMetadata, methodMetadata } from '../../metadata/store';

/** Metadata key of `@ApiOperation` (method extension). */
export const API_OPERATION = Symbol('rest.uws:api-operation');
/** Metadata key of `@ApiResponse` (class and method extension): a list of [status, options]. */
export const API_RESPONSES = Symbol('rest.uws:api-responses');
/** Metadata key of `@ApiTags` (class and method extension). */
export const API_TAGS = Symbol('rest.uws:api-tags');
/** Metadata key of `@ApiExclude` (class and method extension). */
export const API_EXCLUDE = Symbol('rest.uws:api-exclude');

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
  /** What the response means (default: `Success`, `Redirect`, `Client error` or `Server error` by status). */
  description?: string;
  /** The entity class (a DTO: its schema comes from its class-validator decorators), or String, Number, Boolean. */
  type?: Function;
  /** The body is a list of `type`. */
  isArray?: boolean;
  /** Media type of the body (default: the route's first `@Produces`, else application/json). */
  mediaType?: string;
}

type ClassOrMethodDecorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void;

function extensionsOf(target: object, key: string | symbol | undefined): Map<symbol, unknown> {
  return key === undefined ? classMetadata(target as Function).extensions : methodMetadata(target, key).extensions;
}

/** Summary, description, operationId and deprecation of a route in the OpenAPI document. */
export function ApiOperation(options: ApiOperationOptions): MethodDecorator {
  return (target, key) => void methodMetadata(target, key).extensions.set(API_OPERATION, { ...options });
}

/**
 * Documents a response: `@ApiResponse(200, { type: BookingDto })`, `@ApiResponse(404, { description: 'No such booking' })`.
 * Needed for methods returning a Promise, whose entity type TypeScript's metadata cannot see.
 * Repeatable; on a class it applies to every route of the class.
 */
export function ApiResponse(status: number | 'default', options: ApiResponseOptions = {}): ClassOrMethodDecorator {
  if (status !== 'default' && (!Number.isInteger(status) || status < 100 || status > 599)) throw new TypeError(`rest.uws: @ApiResponse takes an HTTP status, got ${String(status)}`);
  return (target, key) => {
    const ext = extensionsOf(target, key);
    const list = (ext.get(API_RESPONSES) as Array<[number | 'default', ApiResponseOptions]> | undefined) ?? [];
    ext.set(API_RESPONSES, [...list, [status, { ...options }]]);
  };
}

/** Groups routes under tags (default: the class name). On a class or a method. */
export function ApiTags(...tags: string[]): ClassOrMethodDecorator {
  if (tags.length === 0 || tags.some((t) => typeof t !== 'string' || t === '')) throw new TypeError('rest.uws: @ApiTags takes one or more tag names');
  return (target, key) => void extensionsOf(target, key).set(API_TAGS, tags);
}

/** Leaves a route (or a whole class) out of the OpenAPI document. */
export const ApiExclude = marker((target: object, key?: string | symbol) => void extensionsOf(target, key).set(API_EXCLUDE, true));
