/**
 * Every error code rest.uws gives, with the status it answers (`null`: a registration error, thrown when the
 * app is built, never sent to a client) and what it means. Codes are public API (docs/versioning.md): clients
 * and apps may match on them. docs/reference/error-codes.md lists the same table, and a test fails when code,
 * table and throws disagree. An HTTP error built without a code gets `RU_HTTP_<status>`.
 */
const CODES = {
  // Requests: the generic code of each HTTP error class.
  RU_ERR_BAD_REQUEST: { status: 400, title: 'The request is malformed or an argument is wrong' },
  RU_ERR_UNAUTHORIZED: { status: 401, title: 'No or invalid credentials' },
  RU_ERR_FORBIDDEN: { status: 403, title: 'Authenticated, but not allowed' },
  RU_ERR_NOT_FOUND: { status: 404, title: 'Nothing at this path, or no such resource' },
  RU_ERR_METHOD_NOT_ALLOWED: { status: 405, title: 'The path exists, the method does not (see Allow)' },
  RU_ERR_NOT_ACCEPTABLE: { status: 406, title: 'None of the accepted media types is produced' },
  RU_ERR_CONFLICT: { status: 409, title: 'The request conflicts with the current state' },
  RU_ERR_GONE: { status: 410, title: 'The resource was removed for good' },
  RU_ERR_PAYLOAD_TOO_LARGE: { status: 413, title: 'The body is larger than the limit' },
  RU_ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, title: "The body's Content-Type is not one the route consumes" },
  RU_ERR_UNPROCESSABLE_ENTITY: { status: 422, title: 'Well-formed, but semantically wrong' },
  RU_ERR_TOO_MANY_REQUESTS: { status: 429, title: 'Rate limited (see Retry-After)' },
  RU_ERR_INTERNAL: { status: 500, title: 'A failure the client cannot fix' },
  RU_ERR_SERVICE_UNAVAILABLE: { status: 503, title: 'Temporarily unable to answer' },

  // Requests: what was wrong, precisely.
  RU_ERR_BODY_FRAMING: {
    status: 400,
    title: 'Ambiguous body framing (Content-Length / Transfer-Encoding); the connection is closed',
  },
  RU_ERR_CHUNKED_REFUSED: {
    status: 411,
    title:
      'A chunked body where the app accepts none (bodyHandler({ chunkedBodies: false })); the connection is closed',
  },
  RU_ERR_BAD_PATH: { status: 400, title: 'The path cannot be decoded' },
  RU_ERR_ARGUMENT: { status: 400, title: 'An argument is missing or cannot be converted' },
  RU_ERR_MISSING_ARGUMENT: {
    status: 400,
    title: 'A required path, query, header, cookie, matrix or form value is missing',
  },
  RU_ERR_CONVERSION: { status: 400, title: "A value cannot be converted to its parameter's type" },
  RU_ERR_MISSING_BODY: { status: 400, title: 'The route needs a body and none was sent' },
  RU_ERR_MALFORMED_JSON: { status: 400, title: 'The JSON body cannot be parsed' },
  RU_ERR_JSON_TOO_DEEP: { status: 400, title: 'The JSON body nests objects and arrays deeper than 256 levels' },
  RU_ERR_BODY_TYPE: { status: 400, title: "The body's JSON does not fit the parameter's type" },
  RU_ERR_CONTEXT: { status: 400, title: 'A @Context value cannot be provided' },
  RU_ERR_VALIDATION: { status: 400, title: 'Validation failed (the violations are listed)' },
  RU_ERR_MULTIPART: { status: 400, title: 'A malformed multipart/form-data body' },
  RU_ERR_NO_CREDENTIALS: { status: 401, title: 'The route needs credentials and none were sent' },
  RU_ERR_BAD_CREDENTIALS: { status: 401, title: 'The credentials were rejected' },
  RU_ERR_ROLE_REQUIRED: { status: 403, title: "The user has none of the route's roles (@RolesAllowed)" },
  RU_ERR_NOT_AUTHORIZED: { status: 403, title: 'The authorization provider refused the user' },
  RU_ERR_DENY_ALL: { status: 403, title: 'The route is available to no one (@DenyAll)' },
  RU_ERR_CORS: { status: 403, title: 'A CORS preflight asked for an origin, method or header that is not allowed' },
  RU_ERR_PATH_FORBIDDEN: { status: 403, title: 'A static file path leaves its folder, or names a hidden file' },
  RU_ERR_FILE_NOT_FOUND: { status: 404, title: 'No such static file' },
  RU_ERR_PRECONDITION_FAILED: { status: 412, title: 'If-Match / If-Unmodified-Since did not hold' },
  RU_ERR_UPLOAD_TOO_LARGE: { status: 413, title: 'An upload passes a file, field or count limit' },
  RU_ERR_RANGE_NOT_SATISFIABLE: { status: 416, title: 'The Range lies outside the file' },
  RU_ERR_STATIC_ROOT: { status: 500, title: 'A file route has no root folder (also refused at registration)' },
  RU_ERR_RATE_LIMITED: { status: 429, title: "Over the route's rate limit (see Retry-After and RateLimit-Reset)" },
  RU_ERR_RATE_LIMIT_STORE: { status: 503, title: 'The rate limit store failed (its database is down); retry shortly' },
  RU_ERR_WEBSOCKET_PROTOCOL: { status: 400, title: 'None of the offered WebSocket subprotocols is spoken' },

  // Registration: thrown when the app is built, with what to fix.
  RU_ERR_REGISTRATION: { status: null, title: 'A route, reader, writer or provider cannot work as declared' },
  RU_ERR_NO_DECORATOR_METADATA: {
    status: null,
    title: "An argument's type is unknown: no decorator metadata (esbuild, tsx, Bun) and no explicit type",
  },
  RU_ERR_STANDARD_DECORATORS: {
    status: null,
    title: 'Compiled with standard decorators; experimentalDecorators is needed',
  },
  RU_ERR_CONSTRUCTOR_ARGUMENTS: {
    status: null,
    title: 'A class whose constructor takes arguments is registered without an injector (register an instance)',
  },
  RU_ERR_MISSING_PACKAGE: { status: null, title: 'An optional package the app uses is not installed' },
  RU_ERR_NOT_A_METHOD: { status: null, title: 'A route decorator is on something that is not a method' },
  RU_ERR_METHOD_TWICE: { status: null, title: 'Two HTTP-method decorators on one method' },
  RU_ERR_MISSING_PATH: { status: null, title: 'A route has no @Path on the method or its class' },
  RU_ERR_MALFORMED_PATH: { status: null, title: 'A path pattern cannot be parsed' },
  RU_ERR_UNKNOWN_PATH_PARAM: { status: null, title: '@PathParam names no variable of the path' },
  RU_ERR_ROUTE_CONFLICT: { status: null, title: 'Two routes match the same paths with different variable names' },
  RU_ERR_NO_ROUTES: { status: null, title: 'A registered class has no routes' },
  RU_ERR_DUPLICATE_CLASS: { status: null, title: 'A class is registered twice on one app' },
  RU_ERR_APP_REUSED: { status: null, title: 'An app already has routes from another builder' },
  RU_ERR_CONTEXT_FIELD: { status: null, title: 'A REST class has a @Context field (REST classes are singletons)' },
  RU_ERR_AMBIGUOUS_BODY: { status: null, title: 'More than one undecorated parameter could be the body' },
  RU_ERR_BEAN_TYPE: { status: null, title: '@BeanParam without a class type' },
  RU_ERR_BEAN_PARAM: { status: null, title: 'A bean constructor parameter has no argument decorator' },
  RU_ERR_DEFAULT_VALUE: { status: null, title: 'A @DefaultValue cannot be converted to its type' },
  RU_ERR_READER_TYPE: { status: null, title: "A reader's @Handles type does not fit the parameter" },
  RU_ERR_WRITER_TYPE: { status: null, title: "A writer's @Handles type does not fit the return type" },
  RU_ERR_HEADER: { status: null, title: 'An invalid @Header line' },
  RU_ERR_DUPLICATE_HANDLER: { status: null, title: 'Two readers, writers or handlers for one type or media type' },
  RU_ERR_INSTANTIATION: { status: null, title: 'A component cannot be created' },
  RU_ERR_INJECTION_TYPES: { status: null, title: 'The injection container cannot see constructor types' },
  RU_ERR_VALID_TARGET: { status: null, title: '@Valid on something other than a body or bean' },
  RU_ERR_BODY_OPTIONS: { status: null, title: 'Invalid body handler options' },
  RU_ERR_UPLOADS_DIRECTORY: { status: null, title: 'The uploads folder cannot be used' },
  RU_ERR_OPENAPI: { status: null, title: 'Invalid OpenAPI options, or no routes to document' },
  RU_ERR_PLUGIN: { status: null, title: 'A plugin is not one, or its setup failed' },
  RU_ERR_SIGNED_COOKIE_KEYS: { status: null, title: 'A signed @CookieParam on an app without cookie signing keys' },
  RU_ERR_WEBSOCKET_APP: { status: null, title: 'WebSocket endpoints need a uWebSockets.js app' },
  RU_ERR_WEBSOCKET_HANDLERS: { status: null, title: 'A WebSocket endpoint has neither open nor message' },
  RU_ERR_WEBSOCKET_PARAMS: {
    status: null,
    title: "A WebSocket endpoint's open parameters are not readable at the upgrade",
  },
  RU_ERR_WEBSOCKET_OPTIONS: { status: null, title: 'Invalid WebSocket endpoint options' },
  RU_ERR_WEBSOCKET_CONFLICT: { status: null, title: 'Two WebSocket endpoints take the same uWebSockets.js route' },
} as const satisfies Record<string, ErrorCodeInfo>;

/** What an error code means. */
export interface ErrorCodeInfo {
  /** The HTTP status it answers; null for an error thrown at registration, never sent to a client. */
  readonly status: number | null;
  /** What it means, in a few words (problem details use it as `title`). */
  readonly title: string;
}

/** A code of rest.uws's own errors. */
export type ErrorCode = keyof typeof CODES;

/**
 * Every error code rest.uws gives, with its status and meaning (the table of docs/reference/error-codes.md).
 */
export const ERROR_CODES: Readonly<Record<ErrorCode, ErrorCodeInfo>> = CODES;

/** What a code means, or undefined for a code that is not rest.uws's. */
export function describeErrorCode(code: string): ErrorCodeInfo | undefined {
  return Object.hasOwn(CODES, code) ? CODES[code as ErrorCode] : undefined;
}
