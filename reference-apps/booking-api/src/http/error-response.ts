import { ConstraintException, WebApplicationException } from 'rest.uws';
import { BookingError, ErrorCode } from '../domain/booking-error';
import { isDatabaseUnavailable } from '../storage/database-unavailable';
import { missingKeyMessage, UNKNOWN_KEY_MESSAGE } from './api-key-credentials';

/** Reads a request header by lower-case name (for messages that depend on what the client sent). */
export type HeaderReader = (lowerCaseName: string) => string | undefined;

export interface ErrorResponse {
  status: number;
  body: { status: number; error: { code: string; message: string } };
  /** Headers the answer needs beyond Content-Type (Retry-After of a 503). */
  headers?: Record<string, string>;
}

/** Codes of failures the framework detects before a resource runs (routing, body, arguments), beside the domain's. */
export const HttpErrorCode = {
  METHOD_NOT_ALLOWED: 'E_METHOD_NOT_ALLOWED',
  NOT_ACCEPTABLE: 'E_NOT_ACCEPTABLE',
  PAYLOAD_TOO_LARGE: 'E_PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'E_UNSUPPORTED_MEDIA_TYPE',
  FORBIDDEN: 'E_FORBIDDEN',
  CONFLICT: 'E_CONFLICT',
  TOO_MANY_REQUESTS: 'E_TOO_MANY_REQUESTS',
  UNAVAILABLE: 'E_SERVICE_UNAVAILABLE',
  INTERNAL: 'E_INTERNAL',
} as const;

const INTERNAL_MESSAGE = 'Internal error; the request was not completed';
/** What a client sees while the database is down or overloaded: nothing was done, retrying later is safe. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The booking database is unavailable; the request was not completed. Retry in a few seconds';
/** Seconds a client should wait before retrying after a 503 (a database restart usually takes a few). */
export const RETRY_AFTER_SECONDS = 5;

/** rest.uws error codes (RU_ERR_*) that name a partner-API code more precisely than the status does. */
const codeByFrameworkCode: Record<string, string> = {
  RU_ERR_MISSING_ARGUMENT: ErrorCode.MISSING_PARAMETER,
  RU_ERR_MISSING_BODY: ErrorCode.MISSING_PARAMETER,
  RU_ERR_CONVERSION: ErrorCode.INVALID_ARGUMENT,
  RU_ERR_MALFORMED_JSON: ErrorCode.INVALID_ARGUMENT,
};

const codeByStatus: Record<number, string> = {
  400: ErrorCode.INVALID_ARGUMENT,
  401: ErrorCode.UNAUTHORIZED,
  403: HttpErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: HttpErrorCode.METHOD_NOT_ALLOWED,
  406: HttpErrorCode.NOT_ACCEPTABLE,
  409: HttpErrorCode.CONFLICT,
  413: HttpErrorCode.PAYLOAD_TOO_LARGE,
  415: HttpErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: HttpErrorCode.TOO_MANY_REQUESTS,
  503: HttpErrorCode.UNAVAILABLE,
};

/** The framework's wording where a partner would not recognise it. */
function frameworkMessage(error: WebApplicationException, header: HeaderReader): string {
  // rest.uws's authentication says "Authentication required" / "Invalid credentials": say which key and how to send it.
  if (error.code === 'RU_ERR_NO_CREDENTIALS') return missingKeyMessage(header);
  if (error.code === 'RU_ERR_BAD_CREDENTIALS') return UNKNOWN_KEY_MESSAGE;
  if (error.code === 'RU_ERR_MISSING_BODY')
    return 'Missing required parameter: body (send a JSON object with Content-Type: application/json)';
  if (error.code === 'RU_ERR_BODY_TYPE') return 'Invalid body: expected a JSON object';
  // rest.uws names the decorator (`Missing @QueryParam("variantId") for: GET /...`); partners know the parameter.
  const missing = error.code === 'RU_ERR_MISSING_ARGUMENT' ? /^Missing @\w+\("([^"]+)"\)/.exec(error.message) : null;
  if (missing) return `Missing required parameter: ${missing[1]}`;
  return error.message;
}

/** class-validator constraints whose violation means "absent or empty" rather than "wrong". */
const PRESENCE_CONSTRAINTS: ReadonlySet<string> = new Set(['isDefined', 'isNotEmpty']);

/** The first broken field of a @Valid body, in the partner API's words (it reports one problem at a time). */
function violationResponse(error: ConstraintException): ErrorResponse {
  const first = error.violations[0];
  if (first === undefined) return envelope(400, ErrorCode.INVALID_ARGUMENT, error.message);
  const path = first.path === '' ? 'body' : first.path;
  const sameField = error.violations.filter((violation) => violation.path === first.path);
  if (sameField.some((violation) => PRESENCE_CONSTRAINTS.has(violation.constraint))) {
    return envelope(400, ErrorCode.MISSING_PARAMETER, `Missing required parameter: ${path}`);
  }
  return envelope(400, ErrorCode.INVALID_ARGUMENT, `Invalid ${path}: ${first.message}`);
}

function envelope(status: number, code: string, message: string): ErrorResponse {
  return { status, body: { status, error: { code, message } } };
}

/**
 * The error body of every failure, `{status, error: {code, message}}` (the partner API's envelope), for domain
 * errors and for the HTTP errors rest.uws raises (bad JSON 400, 401, 404, 405, 413, 415...).
 * A database that is down, restarting or overloaded answers 503 with Retry-After (see isDatabaseUnavailable), as does
 * the rate limit store failing (it counts in the same database).
 * Unexpected errors answer 500 with a fixed message: never a stack trace or an internal message in a body.
 */
export function errorResponse(
  error: unknown,
  log: (error: unknown) => void = (e) => console.error(e),
  header: HeaderReader = () => undefined,
): ErrorResponse {
  if (error instanceof BookingError) return envelope(error.httpStatus, error.code, error.message);
  if (error instanceof ConstraintException) return violationResponse(error);
  if (error instanceof WebApplicationException && error.status < 500) {
    const code = codeByFrameworkCode[error.code] ?? codeByStatus[error.status] ?? ErrorCode.ERROR_PROCESSING_REQUEST;
    return envelope(error.status, code, frameworkMessage(error, header));
  }
  // The rate limits are counted in the booking database (PostgreSQL): its store failing is that database's outage.
  if (
    isDatabaseUnavailable(error) ||
    (error instanceof WebApplicationException && error.code === 'RU_ERR_RATE_LIMIT_STORE')
  ) {
    return {
      ...envelope(503, HttpErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE),
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    };
  }
  if (error instanceof WebApplicationException && error.status === 503) {
    return envelope(503, HttpErrorCode.UNAVAILABLE, error.message);
  }
  log(error);
  return envelope(500, HttpErrorCode.INTERNAL, INTERNAL_MESSAGE);
}
