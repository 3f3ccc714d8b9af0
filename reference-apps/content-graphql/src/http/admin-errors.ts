import {
  DefaultExceptionHandler,
  Handles,
  WebApplicationException,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
} from 'rest.uws';
import { AdminInputError } from '../domain/admin-service';
import { AccessError } from '../storage/access-store';
import { ScopeError } from '../domain/access/scope';
import { FRAMEWORK_ERROR_BODIES } from './openapi-schemas';

const builtIn = new DefaultExceptionHandler();

/** The admin domain's refusals as the HTTP errors they are; undefined for anything else. */
function asHttpError(error: unknown): WebApplicationException | undefined {
  if (error instanceof WebApplicationException) return error;
  if (error instanceof AdminInputError)
    return new WebApplicationException(error.message, error.kind === 'not-found' ? 404 : 400, { code: error.code });
  if (error instanceof AccessError)
    return new WebApplicationException(error.message, error.status, { code: 'CG_ACCESS' });
  if (error instanceof ScopeError) return new WebApplicationException(error.message, 400, { code: 'CG_SCOPE' });
  return undefined;
}

/**
 * Answers the admin API's errors in the framework's JSON shape (`{status, error, message, code}`): refusals of the
 * domain with their status; anything unexpected is logged and answered 500 without internals.
 */
@Handles(Error)
export class AdminErrorHandler implements ExceptionHandler<unknown> {
  /** What the OpenAPI document shows for its answers: rest.uws's own (it writes them with the built-in handler). */
  readonly errorBody = FRAMEWORK_ERROR_BODIES;

  write(error: unknown, req: HttpServerRequest, res: HttpServerResponse): void {
    const http = asHttpError(error);
    if (!http) console.error('content-graphql: unexpected error in the admin API:', error);
    res.setStatusCode(http?.status ?? 500);
    builtIn.write(http ?? error, req, res);
  }
}
