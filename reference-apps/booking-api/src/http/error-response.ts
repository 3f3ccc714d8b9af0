import { BookingError, ErrorCode } from '../domain/booking-error';

export interface ErrorResponse {
  status: number;
  body: { status: number; error: { code: string; message: string } };
}

/**
 * The error body of every failure, `{status, error: {code, message}}` (the partner API's envelope).
 * Unexpected errors answer 500 with a fixed message: never a stack trace or an internal message in a body.
 */
export function errorResponse(error: unknown, log: (error: unknown) => void = (e) => console.error(e)): ErrorResponse {
  if (error instanceof BookingError) {
    return { status: error.httpStatus, body: { status: error.httpStatus, error: { code: error.code, message: error.message } } };
  }
  log(error);
  return { status: 500, body: { status: 500, error: { code: 'E_INTERNAL', message: 'Internal error; the request was not completed' } } };
}

export function unauthorized(message: string): BookingError {
  return new BookingError('unauthorized', ErrorCode.UNAUTHORIZED, message);
}
