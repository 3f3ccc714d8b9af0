/** What the GraphQL service takes and gives, whatever the transport. */

export interface GraphqlRequest {
  /** The raw `Authorization` header, if any. */
  authorization?: string | null;
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
  /** `false` skips the result cache for this request (the `X-Craft-Gql-Cache: no-cache` header). */
  useCache?: boolean;
  /**
   * The raw JSON body the request came as (its bytes), when query, variables and operation name all came from it: a
   * cached result is also kept under it, so that `cachedAnswer` can answer the same bytes again without decoding or
   * parsing them.
   */
  rawBody?: Uint8Array;
}

/**
 * Which step produced the answer, so that a transport can pick its status codes
 * (GraphQL-over-HTTP wants 400 for request, parse, validation and variable errors when the client accepts
 * `application/graphql-response+json`; the CMS answers 200 with `errors` for all of them).
 */
export type GraphqlPhase =
  | 'disabled'
  | 'authorization'
  | 'request'
  | 'parse'
  | 'validation'
  | 'variables'
  | 'execution';

export interface GraphqlResponse {
  status: number;
  /** The JSON body, serialized. */
  body: string;
  phase: GraphqlPhase;
  cached: boolean;
}

/** What `cachedAnswer` finds: a cached result, its JSON as the UTF-8 bytes that are sent. */
export interface CachedGraphqlAnswer {
  status: 200;
  body: Buffer;
  phase: 'execution';
  cached: true;
}
