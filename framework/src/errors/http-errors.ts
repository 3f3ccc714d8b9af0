import type { ErrorCode } from './codes';
import { statusText } from './http-status';

/**
 * The code an error may be built with: any string of the app's own, but a code starting with `RU_` must be one
 * of rest.uws's registry (`ERROR_CODES`, errors/codes.ts), so a typo in a framework code fails compilation. `C` is
 * inferred from the code given; a code that is a plain `string` (not a literal) is not checked.
 */
export type CheckedErrorCode<C extends string> = C extends `RU_${string}`
  ? C extends ErrorCode | `RU_HTTP_${number}`
    ? C
    : "a code of rest.uws's registry (errors/codes.ts): codes starting with RU_ are rest.uws's"
  : C;

/** What an HTTP error is built with, besides its message (and status). */
export interface HttpErrorOptions<C extends string = string> {
  /** A stable code naming the error (`RU_ERR_...` for rest.uws's own; an app's own string for the app's). */
  code?: CheckedErrorCode<C>;
  /** Extra headers to send with the error response (e.g. `Allow` with 405); an array sends one header per value. */
  headers?: Record<string, string | readonly string[]>;
  /** The error that caused it. */
  cause?: unknown;
}

/**
 * An error that carries an HTTP status (JAX-RS style). Exception handlers see it like any error;
 * without one, the response gets its status and message.
 */
export class WebApplicationException<C extends string = string> extends Error {
  /** The HTTP status the response gets. */
  readonly status: number;
  /** A stable code naming the error, for clients and docs (e.g. `RU_ERR_MISSING_ARGUMENT`). */
  readonly code: string;
  /** Extra headers to send with the error response (e.g. `Allow` with 405); an array sends one header per value. */
  readonly headers: Record<string, string | readonly string[]>;

  constructor(message?: string, status = 500, options: HttpErrorOptions<C> = {}) {
    super(
      message ?? `HTTP ${status} ${statusText(status)}`,
      options.cause !== undefined ? { cause: options.cause } : undefined,
    );
    this.name = new.target.name;
    this.status = status;
    this.code = options.code ?? `RU_HTTP_${status}`;
    this.headers = options.headers ?? {};
  }
}

function httpError(status: number, defaultCode: ErrorCode) {
  return class<C extends string = string> extends WebApplicationException<C> {
    constructor(message?: string, options: HttpErrorOptions<C> = {}) {
      super(message ?? `HTTP ${status} ${statusText(status)}`, status, {
        code: defaultCode as CheckedErrorCode<C>,
        ...options,
      });
    }
  };
}

/** 400: the request is malformed or an argument is wrong. */
export class BadRequestException<C extends string = string> extends httpError(400, 'RU_ERR_BAD_REQUEST')<C> {}
/** 401: no or invalid credentials (`"HTTP 401 Unauthorized"` by default). */
export class UnauthorizedException<C extends string = string> extends httpError(401, 'RU_ERR_UNAUTHORIZED')<C> {}
/** 403: authenticated, but not allowed (`"HTTP 403 Forbidden"` by default). */
export class ForbiddenException<C extends string = string> extends httpError(403, 'RU_ERR_FORBIDDEN')<C> {}
/** 404: nothing at this path, or no such resource. */
export class NotFoundException<C extends string = string> extends httpError(404, 'RU_ERR_NOT_FOUND')<C> {}
/** 405: the path exists, the method does not; send `Allow` in `headers`. */
export class MethodNotAllowedException<C extends string = string> extends httpError(
  405,
  'RU_ERR_METHOD_NOT_ALLOWED',
)<C> {}
/** 406: none of the media types the client accepts can be produced. */
export class NotAcceptableException<C extends string = string> extends httpError(406, 'RU_ERR_NOT_ACCEPTABLE')<C> {}
/** 409: the request conflicts with the current state (a duplicate, a stale version). */
export class ConflictException<C extends string = string> extends httpError(409, 'RU_ERR_CONFLICT')<C> {}
/** 410: the resource existed and was removed for good. */
export class GoneException<C extends string = string> extends httpError(410, 'RU_ERR_GONE')<C> {}
/** 413: the body is larger than the limit. */
export class PayloadTooLargeException<C extends string = string> extends httpError(
  413,
  'RU_ERR_PAYLOAD_TOO_LARGE',
)<C> {}
/** 415: the body's Content-Type is not one the route consumes. */
export class UnsupportedMediaTypeException<C extends string = string> extends httpError(
  415,
  'RU_ERR_UNSUPPORTED_MEDIA_TYPE',
)<C> {}
/** 422: well-formed, but semantically wrong. */
export class UnprocessableEntityException<C extends string = string> extends httpError(
  422,
  'RU_ERR_UNPROCESSABLE_ENTITY',
)<C> {}
/** 429: rate limited; consider a `Retry-After` header. */
export class TooManyRequestsException<C extends string = string> extends httpError(
  429,
  'RU_ERR_TOO_MANY_REQUESTS',
)<C> {}
/** 500: a failure the client cannot fix. */
export class InternalServerErrorException<C extends string = string> extends httpError(500, 'RU_ERR_INTERNAL')<C> {}
/** 503: temporarily unable to answer (overloaded, shutting down). */
export class ServiceUnavailableException<C extends string = string> extends httpError(
  503,
  'RU_ERR_SERVICE_UNAVAILABLE',
)<C> {}

/**
 * An argument that is missing or cannot be converted (the reference library's IllegalArgumentException):
 * always 400, with a message naming the argument and why.
 */
export class ArgumentException<C extends string = string> extends BadRequestException<C> {
  constructor(message: string, code?: CheckedErrorCode<C>, cause?: unknown) {
    super(message, { code: code ?? ('RU_ERR_ARGUMENT' as CheckedErrorCode<C>), cause });
  }
}

/** A route, reader, writer or provider that cannot work as declared: thrown at registration. */
export class RegistrationError<C extends string = string> extends Error {
  /** A stable code naming the problem (`RU_ERR_ROUTE_CONFLICT`, `RU_ERR_NO_DECORATOR_METADATA`...). */
  readonly code: string;
  constructor(message: string, code?: CheckedErrorCode<C>, cause?: unknown) {
    super(message, cause !== undefined ? { cause } : undefined);
    this.name = 'RegistrationError';
    this.code = code ?? 'RU_ERR_REGISTRATION';
  }
}
