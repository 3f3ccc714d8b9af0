import { WebApplicationException, type ExceptionHandler, type HttpServerRequest, type HttpServerResponse } from 'rest.uws';
import { VoiceApiError } from '../domain/voice-api-error';

/** Machine codes for what rest.uws refuses before a resource runs. */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'service_unavailable',
};

/**
 * Every REST error (and every refused WebSocket upgrade) as the real API's `ErrorResponse`
 * `{message, code}`. Unexpected errors answer 500 with a fixed message, never internals.
 */
export class VoiceExceptionHandler implements ExceptionHandler<unknown> {
  /** What the OpenAPI document shows for every error answer: the API's `ErrorResponse`. */
  readonly errorBody = {
    name: 'ErrorResponse',
    schema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'What went wrong, for people' }, code: { type: 'string', description: 'A machine code: invalid_request, unauthorized, forbidden, too_many_sessions, server_busy...' } },
      required: ['message', 'code'],
    },
  };

  write(error: unknown, _request: HttpServerRequest, response: HttpServerResponse): void {
    let status = 500;
    let body = { message: 'Internal error; the request was not completed', code: 'internal_error' };
    if (error instanceof VoiceApiError) {
      status = error.status;
      body = { message: error.message, code: error.code };
      if (error.retryAfterSeconds !== undefined) response.putHeader('Retry-After', String(error.retryAfterSeconds));
    } else if (error instanceof WebApplicationException && error.status < 500) {
      status = error.status;
      body = { message: error.message, code: CODE_BY_STATUS[error.status] ?? 'invalid_request' };
    } else if (error instanceof WebApplicationException && error.status === 503) {
      status = 503;
      body = { message: error.message, code: 'service_unavailable' };
    } else {
      console.error('voice-stream: unexpected error', error);
    }
    response.setStatusCode(status);
    response.putHeader('Content-Type', 'application/json');
    response.end(JSON.stringify(body));
  }
}
