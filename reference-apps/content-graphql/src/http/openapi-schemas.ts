import { DefaultExceptionHandler, type OpenApiErrorBody } from 'rest.uws';

/**
 * JSON Schemas of what the HTTP layer answers, for the OpenAPI document (the answers are built from interfaces and
 * plain objects, of which TypeScript keeps nothing at run time).
 */

/** One GraphQL error as graphql-js formats it. */
const GRAPHQL_ERROR = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    locations: {
      type: 'array',
      items: {
        type: 'object',
        properties: { line: { type: 'integer' }, column: { type: 'integer' } },
        required: ['line', 'column'],
      },
    },
    path: { type: 'array', items: { type: ['string', 'integer'] } },
    extensions: { type: 'object', additionalProperties: true },
  },
  required: ['message'],
};

/**
 * A GraphQL answer: `data` (null when execution failed) and/or `errors`. The CMS answers request, parse and validation
 * errors with 200 and `errors` alone.
 */
export const GRAPHQL_RESPONSE = {
  type: 'object',
  properties: {
    data: {
      type: ['object', 'null'],
      additionalProperties: true,
      description: 'What the query selected; null when execution failed',
    },
    errors: { type: 'array', items: GRAPHQL_ERROR },
  },
};

/** An error of the endpoint itself (body limit, method, framing, rate limit): `{"errors":[{"message": ...}]}`. */
export const GRAPHQL_ERRORS = {
  type: 'object',
  properties: { errors: { type: 'array', items: GRAPHQL_ERROR, minItems: 1 } },
  required: ['errors'],
};

/** The endpoint's error bodies: GraphQL's shape, as JSON, or as GraphQL over HTTP's type for a client that asks for it. */
export const GRAPHQL_ERROR_BODIES: OpenApiErrorBody[] = [
  { name: 'GraphqlErrors', mediaType: 'application/json', schema: GRAPHQL_ERRORS },
  { name: 'GraphqlErrors', mediaType: 'application/graphql-response+json', schema: GRAPHQL_ERRORS },
];

/** rest.uws's own error bodies (`{status, error, message, code}` JSON, or the message as text): the admin API's and the assets'. */
export const FRAMEWORK_ERROR_BODIES = new DefaultExceptionHandler().errorBody;

const DATE = { type: 'string', description: 'ISO 8601 date and time' };

/** A GraphQL schema (a scope of content a token may read). */
export const SCHEMA_RECORD = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    uid: { type: 'string' },
    name: { type: 'string' },
    scope: {
      type: 'array',
      items: { type: 'string' },
      description: 'What the schema reads: sections.<uid>, volumes.<uid>, entrytypes.<uid>...',
    },
    isPublic: { type: 'boolean', description: 'The schema of requests without a token' },
    dateCreated: DATE,
    dateUpdated: DATE,
  },
  required: ['id', 'uid', 'name', 'scope', 'isPublic', 'dateCreated', 'dateUpdated'],
};

const TOKEN_PROPERTIES = {
  id: { type: 'integer' },
  uid: { type: 'string' },
  name: { type: 'string' },
  tokenPrefix: { type: 'string', description: 'The first characters of the secret, to tell tokens apart' },
  enabled: { type: 'boolean' },
  expiryDate: { type: ['string', 'null'], description: 'ISO 8601; null: never expires' },
  lastUsed: { type: ['string', 'null'] },
  schemaId: { type: ['integer', 'null'] },
  isPublic: { type: 'boolean' },
  dateCreated: DATE,
};
const TOKEN_REQUIRED = [
  'id',
  'uid',
  'name',
  'tokenPrefix',
  'enabled',
  'expiryDate',
  'lastUsed',
  'schemaId',
  'isPublic',
  'dateCreated',
];

/** A token, without its secret (stored as a hash only). */
export const TOKEN_RECORD = { type: 'object', properties: TOKEN_PROPERTIES, required: TOKEN_REQUIRED };

/** A token just created: the record and its secret, shown this once. */
export const CREATED_TOKEN = {
  type: 'object',
  properties: {
    ...TOKEN_PROPERTIES,
    token: { type: 'string', description: 'The secret: send it as `Authorization: Bearer <token>`; never shown again' },
  },
  required: [...TOKEN_REQUIRED, 'token'],
};

/** An asset file or a transform of it, as stored (images, documents). */
export const FILE = { type: 'string', format: 'binary' };
