import { inject } from 'tsyringe';
import { Inject, type ExceptionHandler, type HttpServerRequest, type HttpServerResponse, type Logger } from 'rest.uws';
import { LOGGER } from './app-logger';
import { DatabaseOutageLog } from './database-outage-log';
import { errorResponse } from './error-response';
import { ApiErrorDto } from './dto/api-error.dto';

/**
 * Every error of the API as the partner API's JSON envelope `{status, error: {code, message}}`:
 * domain refusals (BookingError), @Valid violations, and what rest.uws raises before a resource runs (400 malformed
 * JSON or conversion, 401, 404, 405, 406, 413, 415). rest.uws has already set headers such as `Allow` and
 * `WWW-Authenticate`. An unexpected error is answered 500 without details and logged here, with its cause; a database
 * outage is answered 503 with Retry-After and logged at most every 10 s (DatabaseOutageLog).
 */
@Inject
export class BookingExceptionHandler implements ExceptionHandler<unknown> {
  /** What the OpenAPI document shows for every error answer this handler writes. */
  readonly errorBody = { type: ApiErrorDto };

  constructor(
    @inject(LOGGER) private readonly logger: Logger,
    private readonly outages: DatabaseOutageLog,
  ) {}

  write(error: unknown, request: HttpServerRequest, response: HttpServerResponse): void {
    const log = (err: unknown) =>
      this.logger.error({ err, method: request.method(), path: request.path() }, 'unexpected error in route');
    const { status, body, headers } = errorResponse(error, log, (name) => request.getHeader(name));
    if (status === 503) this.outages.record(error, request.method(), request.path());
    response.setStatusCode(status);
    for (const [name, value] of Object.entries(headers ?? {})) response.putHeader(name, value);
    response.putHeader('Content-Type', 'application/json');
    response.end(JSON.stringify(body));
  }
}
