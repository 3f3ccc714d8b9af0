import {
  ConstraintException,
  accepts,
  errors,
  statusText,
  summarizeError,
  type ExceptionHandler,
  type HandlerErrorBody,
  type HttpServerRequest,
  type HttpServerResponse,
  type RestPlugin,
} from '../../plugin';
import { PROBLEM_SCHEMA } from './problem-schema';

/** Options of `problemDetails()`. */
export interface ProblemDetailsOptions {
  /**
   * The `type` member: a base URI the error's code is appended to (`https://errors.example.com/` gives
   * `https://errors.example.com/RU_ERR_VALIDATION`), or a function of status and code. Default `about:blank`.
   */
  type?: string | ((status: number, code: string | undefined) => string);
}

const MEDIA_TYPE = 'application/problem+json';

/**
 * Answers every error the framework answers (404, 405, 400 arguments and validation, 401/403, 406, 413, 415, 429,
 * CORS refusals, server errors) as an RFC 9457 problem.
 */
export class ProblemDetailsHandler implements ExceptionHandler<unknown> {
  /** What the OpenAPI document shows for the answers of this handler: `Problem`, or the message as text. */
  readonly errorBody: ReadonlyArray<HandlerErrorBody> = [
    { name: 'Problem', mediaType: MEDIA_TYPE, schema: PROBLEM_SCHEMA },
    { mediaType: 'text/plain', schema: { type: 'string' } },
  ];

  constructor(private readonly typeOf: (status: number, code: string | undefined) => string) {}

  /** Writes `{ type, title, status, detail, instance, code, violations }` as `application/problem+json` (text for clients that take no JSON). */
  write(error: unknown, request: HttpServerRequest, response: HttpServerResponse): void {
    const { status, message, code, exposed } = summarizeError(error, response);
    response.setStatusCode(status);
    const accept = request.headerOrEmpty('accept');
    if (!accepts(accept, MEDIA_TYPE) && !accepts(accept, 'application/json')) {
      response.putHeader('content-type', 'text/plain; charset=utf-8');
      response.end(message);
      return;
    }
    const problem: Record<string, unknown> = { type: this.typeOf(status, code), title: statusText(status), status };
    // An internal error's message stays internal: the title says all the client may know.
    if (exposed) problem.detail = message;
    problem.instance = request.path();
    if (code !== undefined) problem.code = code;
    if (error instanceof ConstraintException) problem.violations = error.violations;
    response.putHeader('content-type', MEDIA_TYPE);
    response.end(JSON.stringify(problem));
  }
}

/**
 * Every error the framework answers becomes RFC 9457 `application/problem+json`: `type`, `title` (the reason
 * phrase), `status`, `detail` (the message, for errors the client may see), `instance` (the request's path), and
 * the extension members `code` and, for validation failures, `violations`. Off unless used: the default error
 * body stays `{ status, error, message, code }`. The app's own exception handlers (and a route's `@CatchWith`)
 * still answer the errors they take.
 *
 * ```ts
 * new RestBuilder().use(problemDetails({ type: 'https://errors.example.com/' }))
 * ```
 */
export function problemDetails(options: ProblemDetailsOptions = {}): RestPlugin {
  const type = options.type ?? 'about:blank';
  let typeOf: (status: number, code: string | undefined) => string;
  if (typeof type === 'function') typeOf = type;
  else if (typeof type === 'string' && type !== '')
    typeOf =
      type === 'about:blank' ? () => type : (_status, code) => (code === undefined ? 'about:blank' : `${type}${code}`);
  else
    throw errors.RU_ERR_PROBLEM_DETAILS_OPTIONS(
      'rest.uws: problemDetails: type is a base URI or a function of (status, code)',
    );
  const handler = new ProblemDetailsHandler(typeOf);
  return {
    name: 'problem-details',
    setup(app) {
      // A plugin's handlers come before those of plugins used earlier: validation's failures are answered here too.
      app.errorHandler(Error, handler);
    },
  };
}
