import type { HttpServerRequest, HttpServerResponse } from 'rest.uws';
import type { CachedGraphqlAnswer, GraphqlResponse } from '../graphql/graphql-response';

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';

/** Whether the client prefers GraphQL over HTTP's `application/graphql-response+json` to `application/json`. */
export function wantsGraphqlResponse(req: HttpServerRequest): boolean {
  const accept = (req.getHeader('accept') ?? '').toLowerCase();
  if (!accept.includes('application/graphql-response+json')) return false;
  const json = accept.indexOf('application/json');
  return json === -1 || accept.indexOf('application/graphql-response+json') < json;
}

/**
 * Writes what the GraphQL service answered: the CMS's statuses for `application/json`, and 400 for request, parse,
 * validation and variable errors for a client that takes `application/graphql-response+json`.
 */
export function answer(
  req: HttpServerRequest,
  res: HttpServerResponse,
  response: GraphqlResponse | CachedGraphqlAnswer,
): void {
  let status = response.status;
  if (wantsGraphqlResponse(req) && ['request', 'parse', 'validation', 'variables'].includes(response.phase))
    status = 400;
  writeJson(req, res, status, response.body);
}

/** An error of the endpoint itself, in GraphQL's shape: `{"errors":[{"message": ...}]}`. */
export function sendError(req: HttpServerRequest, res: HttpServerResponse, status: number, message: string): void {
  writeJson(req, res, status, JSON.stringify({ errors: [{ message }] }));
}

function writeJson(req: HttpServerRequest, res: HttpServerResponse, status: number, body: string | Buffer): void {
  cors(res);
  res
    .setStatusCode(status)
    .putHeader('Content-Type', wantsGraphqlResponse(req) ? GRAPHQL_RESPONSE_TYPE : JSON_TYPE)
    .end(body);
}

export function cors(res: HttpServerResponse): void {
  res
    .putHeader('Access-Control-Allow-Origin', '*')
    .putHeader(
      'Access-Control-Allow-Headers',
      'Authorization, Content-Type, X-Craft-Authorization, X-Craft-Token, X-Craft-Gql-Cache',
    );
}
