import {
  ConstraintException,
  WebApplicationException,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
} from 'rest.uws';
import { VoiceApiError } from '../domain/voice-api-error';
import { readAuthKey } from './deepl-authorization';

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

interface ErrorBody {
  message: string;
  detail?: string;
  code: string;
}

/**
 * A failed validation (`@Valid` body, constrained arguments) in the API's words: it reports one problem, the first
 * violation, with the code its constraint carries as context (see http/dto); unknown fields all together.
 */
function violationBody(error: ConstraintException): ErrorBody {
  const unknown = error.violations.filter((violation) => violation.constraint === 'whitelistValidation');
  if (unknown.length > 0)
    return {
      message: `Unknown parameter(s): ${unknown.map((violation) => violation.path).join(', ')}`,
      code: 'unknown_parameter',
    };
  const first = error.violations[0];
  const code = first?.context?.code;
  return { message: first?.message ?? error.message, code: typeof code === 'string' ? code : 'invalid_request' };
}

/** What rest.uws says in its own words, where the API says more. */
function frameworkMessage(error: WebApplicationException, request: HttpServerRequest): string {
  switch (error.code) {
    case 'RU_ERR_NO_CREDENTIALS': {
      const read = readAuthKey(request.getHeader('authorization'));
      return 'problem' in read ? read.problem : error.message;
    }
    case 'RU_ERR_MISSING_BODY':
      return 'The request body must be a JSON object with at least source_media_content_type';
    case 'RU_ERR_BODY_TYPE':
      return 'The request body must be a JSON object';
    default:
      return error.message;
  }
}

/**
 * Every REST error (and every refused WebSocket upgrade) as the real API's `ErrorResponse`
 * `{message, code}`: the app's own refusals (VoiceApiError), validation failures, and what rest.uws refuses before
 * a resource runs (401 without a key, 404, 405, 406, 413, 415, malformed JSON, 429 of the rate limit). rest.uws has
 * already set headers such as `WWW-Authenticate`, `Allow` and `Retry-After`. Unexpected errors answer 500 with a
 * fixed message, never internals.
 */
export class VoiceExceptionHandler implements ExceptionHandler<unknown> {
  /** What the OpenAPI document shows for every error answer: the API's `ErrorResponse`. */
  readonly errorBody = {
    name: 'ErrorResponse',
    schema: {
      type: 'object',
      properties: {
        message: { type: 'string', description: 'What went wrong, for people' },
        detail: { type: 'string', description: "The specific problem, beside message (the glossaries' refusals)" },
        code: {
          type: 'string',
          description: 'A machine code: invalid_request, unauthorized, forbidden, too_many_sessions, server_busy...',
        },
      },
      required: ['message', 'code'],
    },
  };

  write(error: unknown, request: HttpServerRequest, response: HttpServerResponse): void {
    let status = 500;
    let body: ErrorBody = { message: 'Internal error; the request was not completed', code: 'internal_error' };
    if (error instanceof VoiceApiError) {
      status = error.status;
      body =
        error.detail === undefined
          ? { message: error.message, code: error.code }
          : { message: error.message, detail: error.detail, code: error.code };
      if (error.retryAfterSeconds !== undefined) response.putHeader('Retry-After', String(error.retryAfterSeconds));
    } else if (error instanceof ConstraintException) {
      status = 400;
      body = violationBody(error);
    } else if (error instanceof WebApplicationException && error.status < 500) {
      status = error.status;
      body = { message: frameworkMessage(error, request), code: CODE_BY_STATUS[error.status] ?? 'invalid_request' };
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
