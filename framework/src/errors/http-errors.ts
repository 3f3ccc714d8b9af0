import { statusText } from './http-status';

/**
 * An error that carries an HTTP status (JAX-RS style). Exception handlers see it like any error;
 * without one, the response gets its status and message.
 */
export class WebApplicationException extends Error {
  /** The HTTP status the response gets. */
  readonly status: number;
  /** A stable code naming the error, for clients and docs (e.g. `RU_ERR_MISSING_ARGUMENT`). */
  readonly code: string;
  /** Extra headers to send with the error response (e.g. `Allow` with 405); an array sends one header per value. */
  readonly headers: Record<string, string | readonly string[]>;

  constructor(message?: string, status = 500, options: { code?: string; headers?: Record<string, string | readonly string[]>; cause?: unknown } = {}) {
    super(message ?? `HTTP ${status} ${statusText(status)}`, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.status = status;
    this.code = options.code ?? `RU_HTTP_${status}`;
    this.headers = options.headers ?? {};
  }
}

function httpError(status: number, defaultCode: string) {
  return class extends WebApplicationException {
    constructor(message?: string, options: { code?: string; headers?: Record<string, string | readonly string[]>; cause?: unknown } = {}) {
      super(message ?? `HTTP ${status} ${statusText(status)}`, status, { code: defaultCode, ...options });
    }
  };
}

/** 400: the request is malformed or an argument is wrong. */
export class BadRequestException extends httpError(400, 'RU_ERR_BAD_REQUEST') {}
/** 401: no or invalid credentials (`"HTTP 401 Unauthorized"` by default). */
export class UnauthorizedException extends httpError(401, 'RU_ERR_UNAUTHORIZED') {}
/** 403: authenticated, but not allowed (`"HTTP 403 Forbidden"` by default). */
export class ForbiddenException extends httpError(403, 'RU_ERR_FORBIDDEN') {}
/** 404: nothing at this path, or no such resource. */
export class NotFoundException extends httpError(404, 'RU_ERR_NOT_FOUND') {}
/** 405: the path exists, the method does not; send `Allow` in `headers`. */
export class MethodNotAllowedException extends httpError(405, 'RU_ERR_METHOD_NOT_ALLOWED') {}
/** 406: none of the media types the client accepts can be produced. */
export class NotAcceptableException extends httpError(406, 'RU_ERR_NOT_ACCEPTABLE') {}
/** 409: the request conflicts with the current state (a duplicate, a stale version). */
export class ConflictException extends httpError(409, 'RU_ERR_CONFLICT') {}
/** 410: the resource existed and was removed for good. */
export class GoneException extends httpError(410, 'RU_ERR_GONE') {}
/** 413: the body is larger than the limit. */
export class PayloadTooLargeException extends httpError(413, 'RU_ERR_PAYLOAD_TOO_LARGE') {}
/** 415: the body's Content-Type is not one the route consumes. */
export class UnsupportedMediaTypeException extends httpError(415, 'RU_ERR_UNSUPPORTED_MEDIA_TYPE') {}
/** 422: well-formed, but semantically wrong. */
export class UnprocessableEntityException extends httpError(422, 'RU_ERR_UNPROCESSABLE_ENTITY') {}
/** 429: rate limited; consider a `Retry-After` header. */
export class TooManyRequestsException extends httpError(429, 'RU_ERR_TOO_MANY_REQUESTS') {}
/** 500: a failure the client cannot fix. */
export class InternalServerErrorException extends httpError(500, 'RU_ERR_INTERNAL') {}
/** 503: temporarily unable to answer (overloaded, shutting down). */
export class ServiceUnavailableException extends httpError(503, 'RU_ERR_SERVICE_UNAVAILABLE') {}

/**
 * An argument that is missing or cannot be converted (the reference library's IllegalArgumentException):
 * always 400, with a message naming the argument and why.
 */
export class ArgumentException extends BadRequestException {
  constructor(message: string, code = 'RU_ERR_ARGUMENT', cause?: unknown) {
    super(message, { code, cause });
  }
}

/** A route, reader, writer or provider that cannot work as declared: thrown at registration. */
export class RegistrationError extends Error {
  /** A stable code naming the problem (`RU_ERR_ROUTE_CONFLICT`, `RU_ERR_NO_DECORATOR_METADATA`...). */
  readonly code: string;
  constructor(message: string, code = 'RU_ERR_REGISTRATION') {
    super(message);
    this.name = 'RegistrationError';
    this.code = code;
  }
}
