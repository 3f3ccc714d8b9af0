import { Context, GET, OPTIONS, POST, Path, BodyParam, HttpServerRequest, HttpServerResponse } from 'rest.uws';
import { getOperationAST, parse } from 'graphql';
import type { GraphqlService, GraphqlRequest, GraphqlResponse } from '../graphql/graphql-service';

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';

/**
 * The three request forms of the CMS (GET `?query=`, POST `application/json`, POST `application/graphql`) on a
 * configurable path. Query-string parameters supersede body parameters, as in the CMS. Answers are the CMS's
 * (200 with `errors`) for `application/json`; a client that asks for `application/graphql-response+json` gets that
 * type and 400 for request, parse, validation and variable errors, as GraphQL over HTTP wants.
 */
export function graphqlResource(path: string, service: GraphqlService): object {
  class GraphqlResource {
    @GET
    @Path(path)
    async get(@Context() req: HttpServerRequest, @Context() res: HttpServerResponse): Promise<void> {
      await afterCallback();
      const params = fromQueryString(req);
      if ('error' in params) return send(req, res, 400, { errors: [{ message: params.error }] });
      if (typeof params.query === 'string' && isMutation(params.query, params.operationName, service.settings.maxGraphqlTokens)) {
        res.putHeader('Allow', 'POST');
        return send(req, res, 405, { errors: [{ message: 'Mutations cannot be sent with GET' }] });
      }
      await answer(req, res, await service.execute({ ...params, authorization: req.getHeader('authorization'), useCache: useCache(req) }));
    }

    @POST
    @Path(path)
    async post(@Context() req: HttpServerRequest, @Context() res: HttpServerResponse, @BodyParam({ optional: true }) body: Buffer): Promise<void> {
      await afterCallback();
      const contentType = (req.getHeader('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      let params: Pick<GraphqlRequest, 'query' | 'variables' | 'operationName'>;
      let rawBody: string | undefined;
      if (contentType === 'application/json') {
        const text = body?.toString('utf8') ?? '';
        // Query-string parameters would supersede the body's: only a bare body may be answered by its text alone.
        if (req.query() === '') {
          rawBody = text;
          if (useCache(req)) {
            const cached = service.cachedAnswer(req.getHeader('authorization'), text);
            if (cached) return answer(req, res, cached);
          }
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return send(req, res, 400, { errors: [{ message: 'The request body is not valid JSON' }] });
        }
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
          return send(req, res, 400, { errors: [{ message: 'The request body must be a JSON object with a "query"' }] });
        }
        const json = parsed as Record<string, unknown>;
        params = { query: json.query, variables: json.variables, operationName: json.operationName };
      } else if (contentType === 'application/graphql') {
        params = { query: body?.toString('utf8') ?? '' };
      } else {
        const message = contentType ? `Unsupported Content-Type ${contentType}: use application/json or application/graphql` : 'Missing Content-Type: use application/json or application/graphql';
        return send(req, res, 415, { errors: [{ message }] });
      }
      const fromQuery = fromQueryString(req);
      if ('error' in fromQuery) return send(req, res, 400, { errors: [{ message: fromQuery.error }] });
      for (const key of ['query', 'variables', 'operationName'] as const) if (fromQuery[key] !== undefined) params[key] = fromQuery[key];
      await answer(req, res, await service.execute({ ...params, authorization: req.getHeader('authorization'), useCache: useCache(req), rawBody }));
    }

    /** CORS preflight: an empty 200, the query is not run. */
    @OPTIONS
    @Path(path)
    preflight(@Context() req: HttpServerRequest, @Context() res: HttpServerResponse): void {
      cors(res);
      res.setStatusCode(200).end();
      void req;
    }
  }
  return new GraphqlResource();
}

/**
 * Works around a framework bug: when an async route ends the response before its first await, the framework's
 * request.detach() then reads the remote address from the ended uWebSockets.js response, which throws
 * (uncaught). Yielding once lets the framework finish its synchronous part first.
 */
function afterCallback(): Promise<void> {
  return Promise.resolve();
}

function useCache(req: HttpServerRequest): boolean {
  return (req.getHeader('x-craft-gql-cache') ?? '').toLowerCase() !== 'no-cache';
}

function fromQueryString(req: HttpServerRequest): Pick<GraphqlRequest, 'query' | 'variables' | 'operationName'> | { error: string } {
  const query = req.getQueryParam('query');
  const operationName = req.getQueryParam('operationName');
  const variablesText = req.getQueryParam('variables');
  let variables: unknown;
  if (variablesText !== undefined && variablesText !== '') {
    try {
      variables = JSON.parse(variablesText);
    } catch {
      return { error: 'The variables param must be valid JSON' };
    }
  }
  return { query, variables, operationName };
}

function isMutation(query: string, operationName: unknown, maxTokens: number): boolean {
  try {
    const operation = getOperationAST(parse(query, maxTokens > 0 ? { maxTokens } : undefined), typeof operationName === 'string' ? operationName : undefined);
    return operation?.operation === 'mutation' || operation?.operation === 'subscription';
  } catch {
    return false;
  }
}

function wantsGraphqlResponse(req: HttpServerRequest): boolean {
  const accept = (req.getHeader('accept') ?? '').toLowerCase();
  if (!accept.includes('application/graphql-response+json')) return false;
  const json = accept.indexOf('application/json');
  return json === -1 || accept.indexOf('application/graphql-response+json') < json;
}

async function answer(req: HttpServerRequest, res: HttpServerResponse, response: GraphqlResponse): Promise<void> {
  let status = response.status;
  if (wantsGraphqlResponse(req) && ['request', 'parse', 'validation', 'variables'].includes(response.phase)) status = 400;
  if (response.phase === 'request' && status === 200 && wantsGraphqlResponse(req)) status = 400;
  cors(res);
  res.setStatusCode(status).putHeader('Content-Type', wantsGraphqlResponse(req) ? GRAPHQL_RESPONSE_TYPE : JSON_TYPE).end(response.body);
}

function send(req: HttpServerRequest, res: HttpServerResponse, status: number, body: unknown): void {
  cors(res);
  res.setStatusCode(status).putHeader('Content-Type', wantsGraphqlResponse(req) ? GRAPHQL_RESPONSE_TYPE : JSON_TYPE).end(JSON.stringify(body));
}

function cors(res: HttpServerResponse): void {
  res.putHeader('Access-Control-Allow-Origin', '*')
    .putHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Craft-Authorization, X-Craft-Token, X-Craft-Gql-Cache');
}
