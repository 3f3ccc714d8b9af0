import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  BodyParam,
  CatchWith,
  Context,
  GET,
  HttpServerRequest,
  HttpServerResponse,
  OPTIONS,
  POST,
  Path,
  RateLimit,
} from 'rest.uws';
import type { GraphqlService } from '../graphql/graphql-service';
import type { GraphqlRequest } from '../graphql/graphql-response';
import { answer, cors, sendError } from './graphql-answers';
import { GraphqlRouteErrorHandler } from './graphql-errors';
import { GRAPHQL_RESPONSE } from './openapi-schemas';

/** The rate limit rule of the GraphQL endpoint (GET and POST share it); its numbers are the app's configuration (app.ts). */
export const GRAPHQL_RATE_LIMIT_RULE = 'graphql';

const ANSWER = {
  schema: GRAPHQL_RESPONSE,
  description:
    'The result: `data`, with `errors` for fields that failed; request, parse and validation errors are 200 with `errors` ' +
    'alone, as in the CMS (a client that accepts `application/graphql-response+json` gets that type, and 400 for them)',
};
const REFUSED =
  'An invalid Authorization token (expired, disabled or unknown), or a request the endpoint cannot read (variables that are not a JSON object)';
const DISABLED = 'The GraphQL API is not enabled (enableGql is false)';
const URL_TOO_LONG = `The URL is longer than ${4096} bytes: send long queries in a POST body`;

/**
 * Longest request target (path and query string) the endpoint answers; longer ones get 414. uWebSockets.js
 * buffers at most 4 KiB of request head (request line and headers) that does not arrive in one read and closes
 * the connection without an answer past that, so a longer GET query works or not depending on how the network
 * cut it into packets: refusing it always, with a message, beats working by chance.
 */
export const MAX_URL_BYTES = 4096;

/**
 * The three request forms of the CMS (GET `?query=`, POST `application/json`, POST `application/graphql`) on a
 * configurable path. Query-string parameters supersede body parameters, as in the CMS. Answers are the CMS's
 * (200 with `errors`) for `application/json`; a client that asks for `application/graphql-response+json` gets that
 * type and 400 for request, parse, validation and variable errors, as GraphQL over HTTP wants.
 */
export function graphqlResource(path: string, service: GraphqlService): object {
  @CatchWith(GraphqlRouteErrorHandler)
  @ApiTags('GraphQL')
  class GraphqlResource {
    @GET
    @Path(path)
    @RateLimit(GRAPHQL_RATE_LIMIT_RULE)
    @ApiOperation({
      summary: 'Runs a query given in the query string (`?query=&variables=&operationName=`); no mutations',
    })
    @ApiResponse(200, ANSWER)
    @ApiResponse(400, REFUSED)
    @ApiResponse(404, DISABLED)
    @ApiResponse(405, { description: 'A mutation sent with GET: send it with POST', headers: { Allow: 'POST' } })
    @ApiResponse(414, URL_TOO_LONG)
    async get(@Context() req: HttpServerRequest, @Context() res: HttpServerResponse): Promise<void> {
      if (urlTooLong(req, res)) return;
      const params = fromQueryString(req);
      if ('error' in params) return sendError(req, res, 400, params.error);
      if (typeof params.query === 'string') {
        const operation = service.operationType(params.query, params.operationName);
        if (operation === 'mutation' || operation === 'subscription') {
          res.putHeader('Allow', 'POST');
          return sendError(req, res, 405, 'Mutations cannot be sent with GET');
        }
      }
      answer(
        req,
        res,
        await service.execute({ ...params, authorization: req.getHeader('authorization'), useCache: useCache(req) }),
      );
    }

    @POST
    @Path(path)
    @RateLimit(GRAPHQL_RATE_LIMIT_RULE)
    @ApiOperation({
      summary:
        'Runs a query: a JSON body `{query, variables, operationName}`, or the query itself as `application/graphql`',
    })
    @ApiResponse(200, ANSWER)
    @ApiResponse(400, `${REFUSED}, or a JSON body that is not valid JSON or not an object`)
    @ApiResponse(404, DISABLED)
    @ApiResponse(414, URL_TOO_LONG)
    @ApiResponse(415, 'Neither application/json nor application/graphql')
    async post(
      @Context() req: HttpServerRequest,
      @Context() res: HttpServerResponse,
      @BodyParam({ optional: true }) body: Buffer,
    ): Promise<void> {
      if (urlTooLong(req, res)) return;
      const contentType = (req.getHeader('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      let params: Pick<GraphqlRequest, 'query' | 'variables' | 'operationName'>;
      let rawBody: Buffer | undefined;
      if (contentType === 'application/json') {
        // Query-string parameters would supersede the body's: only a bare body may be answered by its bytes alone.
        if (req.query() === '' && body !== undefined) {
          rawBody = body;
          if (useCache(req)) {
            const cached = service.cachedAnswer(req.getHeader('authorization'), body);
            if (cached) return answer(req, res, cached);
          }
        }
        const text = body?.toString('utf8') ?? '';
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return sendError(req, res, 400, 'The request body is not valid JSON');
        }
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
          return sendError(req, res, 400, 'The request body must be a JSON object with a "query"');
        }
        const json = parsed as Record<string, unknown>;
        params = { query: json.query, variables: json.variables, operationName: json.operationName };
      } else if (contentType === 'application/graphql') {
        params = { query: body?.toString('utf8') ?? '' };
      } else {
        const message = contentType
          ? `Unsupported Content-Type ${contentType}: use application/json or application/graphql`
          : 'Missing Content-Type: use application/json or application/graphql';
        return sendError(req, res, 415, message);
      }
      const fromQuery = fromQueryString(req);
      if ('error' in fromQuery) return sendError(req, res, 400, fromQuery.error);
      for (const key of ['query', 'variables', 'operationName'] as const)
        if (fromQuery[key] !== undefined) params[key] = fromQuery[key];
      answer(
        req,
        res,
        await service.execute({
          ...params,
          authorization: req.getHeader('authorization'),
          useCache: useCache(req),
          rawBody,
        }),
      );
    }

    /** CORS preflight: an empty 200, the query is not run. */
    @OPTIONS
    @Path(path)
    @ApiOperation({ summary: 'CORS preflight' })
    @ApiResponse(200, {
      description: 'An empty answer with the CORS headers',
      headers: {
        'Access-Control-Allow-Origin': 'Any origin (*)',
        'Access-Control-Allow-Headers': 'The headers a query may send',
      },
    })
    preflight(@Context() req: HttpServerRequest, @Context() res: HttpServerResponse): void {
      cors(res);
      res.setStatusCode(200).end();
      void req;
    }
  }
  return new GraphqlResource();
}

function useCache(req: HttpServerRequest): boolean {
  return (req.getHeader('x-craft-gql-cache') ?? '').toLowerCase() !== 'no-cache';
}

function fromQueryString(
  req: HttpServerRequest,
): Pick<GraphqlRequest, 'query' | 'variables' | 'operationName'> | { error: string } {
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

/** Answers 414 when the request target is longer than the endpoint reads (see MAX_URL_BYTES). */
function urlTooLong(req: HttpServerRequest, res: HttpServerResponse): boolean {
  const length = req.uri().length;
  if (length <= MAX_URL_BYTES) return false;
  sendError(
    req,
    res,
    414,
    `The URL has ${length} bytes; at most ${MAX_URL_BYTES} are accepted: send long queries in a POST body`,
  );
  return true;
}
