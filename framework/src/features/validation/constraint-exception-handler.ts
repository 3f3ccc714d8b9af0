import {
  ConstraintException,
  DefaultExceptionHandler,
  Handles,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
} from '../../plugin';

/**
 * Answers a `ConstraintException` with 400, `X-Status-Reason: Validation failed` and a JSON body
 * listing every violation (never the rejected values, which may be secrets):
 *
 * ```json
 * { "status": 400, "error": "Bad Request", "message": "Validation failed", "code": "RU_ERR_VALIDATION",
 *   "violations": [{ "in": "body", "path": "email", "constraint": "isEmail", "message": "email must be an email" }] }
 * ```
 *
 * It is the built-in handler for the type; a route's `@CatchWith` or a registered handler takes precedence.
 */
@Handles(ConstraintException)
export class ConstraintExceptionHandler implements ExceptionHandler<ConstraintException> {
  /** What the OpenAPI document shows for its answers: the built-in handler's JSON body (always JSON). */
  readonly errorBody = new DefaultExceptionHandler().errorBody.filter((body) => body.mediaType === 'application/json');

  /** Writes the 400 answer listing every violation. */
  write(error: ConstraintException, _request: HttpServerRequest, response: HttpServerResponse): void {
    response.setStatusCode(400);
    response.putHeader('X-Status-Reason', 'Validation failed');
    response.putHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        status: 400,
        error: 'Bad Request',
        message: error.message,
        code: error.code,
        violations: error.violations,
      }),
    );
  }
}
