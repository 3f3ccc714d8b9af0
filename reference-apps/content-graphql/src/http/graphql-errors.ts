import {
  DefaultExceptionHandler,
  Handles,
  WebApplicationException,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
  type RouteDefinition,
} from 'rest.uws';
import { sendError } from './graphql-answers';
import { FRAMEWORK_ERROR_BODIES, GRAPHQL_ERROR_BODIES } from './openapi-schemas';

const GENERIC_ERROR = 'Something went wrong when processing the GraphQL query.';
const builtIn = new DefaultExceptionHandler();

/**
 * Every error of the GraphQL endpoint is answered in GraphQL's shape, whoever raised it: an HTTP error keeps its
 * status and message (413 for a body over the limit, 405 for another method, 400 for bad framing); anything else
 * is logged and answered 500 with the CMS's generic message.
 */
function writeGraphqlError(error: unknown, req: HttpServerRequest, res: HttpServerResponse): void {
  if (error instanceof WebApplicationException) {
    sendError(req, res, res.getStatusCode(), error.message);
    return;
  }
  console.error('content-graphql: unexpected error on the GraphQL endpoint:', error);
  sendError(req, res, 500, GENERIC_ERROR);
}

/** For the GraphQL resource's own routes (`@CatchWith`). */
@Handles(Error)
export class GraphqlRouteErrorHandler implements ExceptionHandler<unknown> {
  /** What the OpenAPI document shows for its answers: GraphQL's error shape. */
  readonly errorBody = GRAPHQL_ERROR_BODIES;

  write(error: unknown, req: HttpServerRequest, res: HttpServerResponse): void {
    writeGraphqlError(error, req, res);
  }
}

/**
 * For the errors the framework raises before a route runs (body limit, method, framing): GraphQL's shape on the
 * GraphQL path, the framework's own everywhere else.
 */
export class GraphqlEndpointErrorHandler implements ExceptionHandler<WebApplicationException> {
  constructor(private readonly graphqlPath: string) {}

  /** What the OpenAPI document shows for its answers: GraphQL's shape on the endpoint, the framework's elsewhere. */
  errorBody(route: RouteDefinition) {
    return route.path === this.graphqlPath ? GRAPHQL_ERROR_BODIES : FRAMEWORK_ERROR_BODIES;
  }

  write(error: WebApplicationException, req: HttpServerRequest, res: HttpServerResponse): void {
    if (req.path() === this.graphqlPath) writeGraphqlError(error, req, res);
    else builtIn.write(error, req, res);
  }
}
