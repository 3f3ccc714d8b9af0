import { inject } from 'tsyringe';
import { Inject, type ExceptionHandler, type HttpServerRequest, type HttpServerResponse, type Logger } from 'rest.uws';
import { escapeHtml, htmlPage } from './pages/html';
import { LOGGER } from './app-logger';
import { DatabaseOutageLog } from './database-outage-log';
import { errorResponse } from './error-response';

/** Errors of the customer pages as a page (customers open them in a browser), with the same status as the API's. */
@Inject
export class CustomerPageErrorHandler implements ExceptionHandler<unknown> {
  /** What the OpenAPI document shows for the pages' error answers: a page. */
  readonly errorBody = { mediaType: 'text/html', schema: { type: 'string' } };

  constructor(
    @inject(LOGGER) private readonly logger: Logger,
    private readonly outages: DatabaseOutageLog,
  ) {}

  write(error: unknown, request: HttpServerRequest, response: HttpServerResponse): void {
    const log = (err: unknown) =>
      this.logger.error({ err, method: request.method(), path: request.path() }, 'unexpected error in page');
    const { status, body, headers } = errorResponse(error, log);
    if (status === 503) this.outages.record(error, request.method(), request.path());
    const heading =
      status === 404
        ? 'This link is not valid (yet)'
        : status === 503
          ? 'Please try again in a moment'
          : 'Something went wrong';
    const hint =
      status === 404
        ? '<p>Vouchers and tickets appear once the booking is confirmed. Check the link in your confirmation.</p>'
        : '';
    response.setStatusCode(status);
    for (const [name, value] of Object.entries(headers ?? {})) response.putHeader(name, value);
    response.putHeader('Content-Type', 'text/html; charset=utf-8');
    response.end(htmlPage(heading, `<h1>${heading}</h1>\n<p>${escapeHtml(body.error.message)}</p>\n${hint}`));
  }
}
