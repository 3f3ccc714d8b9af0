import type { ExceptionHandler, HttpServerRequest, HttpServerResponse } from 'rest.uws';
import { errorResponse } from './error-response';

/**
 * Every error of the API as the partner API's JSON envelope `{status, error: {code, message}}`:
 * domain refusals (BookingError) and what rest.uws raises before a resource runs (400 malformed JSON or
 * conversion, 401, 404, 405, 413, 415...). rest.uws has already logged unexpected errors and set headers
 * such as `Allow` and `WWW-Authenticate`.
 */
export class BookingExceptionHandler implements ExceptionHandler<unknown> {
  write(error: unknown, request: HttpServerRequest, response: HttpServerResponse): void {
    const { status, body } = errorResponse(error, () => undefined, (name) => request.getHeader(name));
    response.setStatusCode(status);
    response.putHeader('Content-Type', 'application/json');
    response.end(JSON.stringify(body));
  }
}
