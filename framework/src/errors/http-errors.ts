import { statusText } from '../http/status';

/**
 * An error that carries an HTTP status (JAX-RS style). Exception handlers see it like any error;
 * without one, the response gets its status and message.
 */
export class WebApplicationException extends Error {
  readonly status: number;
  /** A stable code naming the error, for clients and docs (e.g. `RU_ERR_MISSING_ARGUMENT`). */
  readonly code: string;
  /** Extra headers to send with the error response (e.g. `Allow` with 405). */
  readonly headers: Record<string, string>;

  constructor(message?: string, status = 500, options: { code?: string; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message ?? `HTTP ${status} ${statusText(status)}`, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.status = status;
    this.code = options.code ?? `RU_HTTP_${status}`;
    this.headers = options.headers ?? {};
  }
}

function httpError(status: number, defaultCode: string) {
  return class extends WebApplicationException {
    constructor(message?: string, options: { code?: string; headers?: Record<string, string>; cause?: unknown } = {}) {
      super(message ?? `HTTP ${status} ${statusText(status)}`, status, { code: defaultCode, ...options });
    }
  };
}

export class BadRequestException extends httpError(400, 'RU_ERR_BAD_REQUEST') {}
export class UnauthorizedException extends httpError(401, 'RU_ERR_UNAUTHORIZED') {}
export class ForbiddenException extends httpError(403, 'RU_ERR_FORBIDDEN') {}
export class NotFoundException extends httpError(404, 'RU_ERR_NOT_FOUND') {}
export class MethodNotAllowedException extends httpError(405, 'RU_ERR_METHOD_NOT_ALLOWED') {}
export class NotAcceptableException extends httpError(406, 'RU_ERR_NOT_ACCEPTABLE') {}
export class ConflictException extends httpError(409, 'RU_ERR_CONFLICT') {}
export class GoneException extends httpError(410, 'RU_ERR_GONE') {}
export class PayloadTooLargeException extends httpError(413, 'RU_ERR_PAYLOAD_TOO_LARGE') {}
export class UnsupportedMediaTypeException extends httpError(415, 'RU_ERR_UNSUPPORTED_MEDIA_TYPE') {}
export class UnprocessableEntityException extends httpError(422, 'RU_ERR_UNPROCESSABLE_ENTITY') {}
export class TooManyRequestsException extends httpError(429, 'RU_ERR_TOO_MANY_REQUESTS') {}
export class InternalServerErrorException extends httpError(500, 'RU_ERR_INTERNAL') {}
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
  readonly code: string;
  constructor(message: string, code = 'RU_ERR_REGISTRATION') {
    super(message);
    this.name = 'RegistrationError';
    this.code = code;
  }
}
