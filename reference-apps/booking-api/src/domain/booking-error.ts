/**
 * Error codes of the booking API. The first three are the partner API's own (v2 error handling);
 * the others are this service's, for cases the partner API leaves undocumented.
 */
export const ErrorCode = {
  MISSING_PARAMETER: 'E_MISSING_PARAMETER',
  INVALID_ARGUMENT: 'E_INVALID_ARGUMENT',
  ERROR_PROCESSING_REQUEST: 'E_ERROR_PROCESSING_REQUEST',
  UNAUTHORIZED: 'E_UNAUTHORIZED',
  NOT_FOUND: 'E_NOT_FOUND',
  PRICE_MISMATCH: 'E_PRICE_MISMATCH',
  SOLD_OUT: 'E_SOLD_OUT',
  INVALID_STATE_TRANSITION: 'E_INVALID_STATE_TRANSITION',
  CAPTURE_TIMEOUT: 'E_CAPTURE_TIMEOUT',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** What kind of failure: the HTTP layer maps it to a status (see httpStatusOf). */
export type ErrorKind = 'invalid' | 'unauthorized' | 'not-found' | 'conflict';

const statusByKind: Record<ErrorKind, number> = { invalid: 400, unauthorized: 401, 'not-found': 404, conflict: 409 };

/** A refused request: a code a client can switch on and a message that names the field or the rule. */
export class BookingError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BookingError';
  }

  get httpStatus(): number {
    return statusByKind[this.kind];
  }

  /** The same, under the name HTTP layers look for (rest.uws treats an error with a 4xx `status` as the client's). */
  get status(): number {
    return this.httpStatus;
  }

  static missing(field: string): BookingError {
    return new BookingError('invalid', ErrorCode.MISSING_PARAMETER, `Missing required parameter: ${field}`);
  }

  static invalid(field: string, reason: string): BookingError {
    return new BookingError('invalid', ErrorCode.INVALID_ARGUMENT, `Invalid ${field}: ${reason}`);
  }

  static notFound(what: string, id: string): BookingError {
    return new BookingError('not-found', ErrorCode.NOT_FOUND, `${what} ${id} not found`);
  }

  static conflict(code: ErrorCode, message: string): BookingError {
    return new BookingError('conflict', code, message);
  }
}
