/**
 * Every error code rest.uws gives, with the status it answers (`null`: thrown to the app's own code, never sent
 * to a client), what it means and, where the status does not say it, the class of error it is (`type`; see
 * ErrorType). Codes are public API (docs/versioning.md): clients and apps may match on them.
 * docs/reference/error-codes.md lists the same table, and a test fails when code, table and throws disagree. Each
 * code has one factory (errors/factories.ts): the framework builds its errors only through them. An HTTP error an
 * app builds without a code gets `RU_HTTP_<status>`.
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
  RU_ERR_ARGUMENT: { status: 400, title: 'An argument is missing or cannot be converted', type: 'argument' },
  RU_ERR_MISSING_ARGUMENT: {
    status: 400,
    title: 'A required path, query, header, cookie, matrix or form value is missing',
    type: 'argument',
  },
  RU_ERR_CONVERSION: { status: 400, title: "A value cannot be converted to its parameter's type", type: 'argument' },
  RU_ERR_MISSING_BODY: { status: 400, title: 'The route needs a body and none was sent', type: 'argument' },
  RU_ERR_MALFORMED_JSON: { status: 400, title: 'The JSON body cannot be parsed', type: 'argument' },
  RU_ERR_JSON_TOO_DEEP: {
    status: 400,
    title: 'The JSON body nests objects and arrays deeper than 256 levels',
    type: 'argument',
  },
  RU_ERR_BODY_TYPE: { status: 400, title: "The body's JSON does not fit the parameter's type", type: 'argument' },
  RU_ERR_CONTEXT: { status: 400, title: 'A @Context value cannot be provided', type: 'argument' },
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
    type: 'type',
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
  RU_ERR_ASYNCAPI: { status: null, title: 'Invalid AsyncAPI options or message declarations' },
  RU_ERR_CLIENT: { status: null, title: 'A typed client cannot be generated from these documents' },
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
  RU_ERR_STATIC_ROOT: {
    status: null,
    title: 'A file route has no root folder, or its root is missing or not a folder',
  },
  RU_ERR_PLUGIN_CONFLICT: {
    status: null,
    title: 'Two plugins take a part an app has one of (body streamer, origin reader, component filler)',
  },

  // Usage: a decorator, a plugin or an API of rest.uws given something it cannot use (a TypeError or RangeError,
  // thrown where it is called: when classes are declared, the app is built, or from a handler, which answers 500).
  RU_ERR_DECORATOR_ARGUMENT: { status: null, title: 'A decorator was given an argument it cannot use', type: 'type' },
  RU_ERR_DECORATOR_TARGET: { status: null, title: 'A decorator is on something it does not go on', type: 'type' },
  RU_ERR_SERVER_OPTIONS: { status: null, title: 'Invalid listen or serve options', type: 'type' },
  RU_ERR_CORS_OPTIONS: { status: null, title: 'Invalid enableCors options', type: 'type' },
  RU_ERR_COMPRESSION_OPTIONS: { status: null, title: 'Invalid compression options', type: 'type' },
  RU_ERR_RATE_LIMIT_OPTIONS: {
    status: null,
    title: 'Invalid rateLimit options or rule, or a @RateLimit naming no rule',
    type: 'type',
  },
  RU_ERR_REQUEST_ID_OPTIONS: {
    status: null,
    title: 'Invalid requestId options, or its generate() returned no well-formed id',
    type: 'type',
  },
  RU_ERR_HEALTH_OPTIONS: { status: null, title: 'Invalid health options or readiness checks', type: 'type' },
  RU_ERR_TRUST_PROXY_OPTIONS: { status: null, title: 'Invalid trustProxy setting', type: 'type' },
  RU_ERR_LOGGING_OPTIONS: { status: null, title: 'Invalid request logging or log destination options', type: 'type' },
  RU_ERR_PROBLEM_DETAILS_OPTIONS: { status: null, title: 'Invalid problemDetails options', type: 'type' },
  RU_ERR_SECURITY_OPTIONS: {
    status: null,
    title: 'Invalid authentication or authorization provider, or provider options',
    type: 'type',
  },
  RU_ERR_SECURITY_PROVIDER: {
    status: null,
    title: 'An authentication provider yielded something that is not a User',
    type: 'type',
  },
  RU_ERR_VALIDATION_OPTIONS: { status: null, title: 'Invalid validateWith options', type: 'type' },
  RU_ERR_STATIC_OPTIONS: { status: null, title: 'Invalid static files or file writer options', type: 'type' },
  RU_ERR_FILE_PATH_TYPE: {
    status: null,
    title: 'A FileResponseWriter route returned something that is not a relative file path',
    type: 'type',
  },
  RU_ERR_COOKIE_KEYS: {
    status: null,
    title: "Signed cookies without the app's keys, or keys that are not a list of secrets",
    type: 'type',
  },
  RU_ERR_SET_COOKIE: { status: null, title: 'A cookie to set has an invalid name, value or attribute', type: 'type' },
  RU_ERR_SSE_EVENT: { status: null, title: 'A server-sent event with a field it cannot carry', type: 'type' },
  RU_ERR_SSE_OPTIONS: { status: null, title: 'Invalid event stream options', type: 'type' },
  RU_ERR_SSE_SOURCE: {
    status: null,
    title: 'An event stream route returned no iterable or EventStream, or an EventStream sent twice',
    type: 'type',
  },
  RU_ERR_HEADER_NAME: { status: null, title: 'A header name that is not an HTTP token', type: 'type' },
  RU_ERR_HEADER_VALUE: { status: null, title: 'A header value with CR, LF or NUL', type: 'type' },
  RU_ERR_FRAMING_HEADER: {
    status: null,
    title: 'Content-Length or Transfer-Encoding set by hand (the server sets them from the body)',
    type: 'type',
  },
  RU_ERR_STATUS: { status: null, title: 'A response status that is not a whole number from 100 to 999', type: 'range' },
  RU_ERR_CLOSE_CODE: { status: null, title: 'A WebSocket close code a server may not send', type: 'range' },
  RU_ERR_FILE_BODY_ADMISSION: {
    status: null,
    title: 'A @FileBody admission check returned something that is not a whole number of bytes',
    type: 'type',
  },
  RU_ERR_NOT_AN_APP: { status: null, title: 'inject() was given an app without rest.uws routes', type: 'type' },

  // Failures thrown to the app's code (an Error): starting, streaming and shutting down.
  RU_ERR_LISTEN: { status: null, title: 'The server cannot listen on the host and port', type: 'error' },
  RU_ERR_WORKER_START: { status: null, title: 'A serve() worker failed or exited before listening', type: 'error' },
  RU_ERR_UWS_LOAD: {
    status: null,
    title: 'uWebSockets.js cannot be loaded, or only its JavaScript fallback is and it was not allowed',
    type: 'error',
  },
  RU_ERR_ASYNC_CONTEXT_FIELD: {
    status: null,
    title: 'A @Context field of a reader, writer or handler was provided asynchronously',
    type: 'error',
  },
  RU_ERR_ABORTED: {
    status: null,
    title: "A request's AbortSignal fired: the client went away, or the stream was closed",
    type: 'error',
  },
  RU_ERR_FILE_CHANGED: { status: null, title: 'A file shrank while it was sent (the answer is cut)', type: 'error' },
  RU_ERR_FILE_EXISTS: { status: null, title: 'FileUpload.moveTo: the destination already exists', type: 'error' },
  RU_ERR_THROWN_VALUE: {
    status: null,
    title: 'A handler threw something that is not an Error (it is wrapped, its value as the message)',
    type: 'error',
  },
  RU_ERR_EXCEPTION_HANDLER: {
    status: null,
    title: 'An exception handler failed; the built-in handler answered instead',
    type: 'error',
  },
  RU_ERR_WEBSOCKET_REFUSED: {
    status: null,
    title: 'connectWebSocket: the upgrade was answered with an HTTP response, not 101 (WebSocketUpgradeRefused)',
    type: 'error',
  },
  RU_ERR_WEBSOCKET_CLIENT: {
    status: null,
    title: "connectWebSocket's client: the connection is closed, or the server's handshake was wrong",
    type: 'error',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/**
 * The class an error of a code is, when the status alone does not say it: `argument` an ArgumentException (400),
 * `type` a TypeError, `range` a RangeError, `error` an Error. Without it, a code with a status is that status's
 * HTTP exception and a code without one a RegistrationError.
 */
export type ErrorType = 'argument' | 'type' | 'range' | 'error';

/** What an error code means. */
export interface ErrorCodeInfo {
  /** The HTTP status it answers; null for an error thrown to the app's code (registration, usage), never sent to a client. */
  readonly status: number | null;
  /** What it means, in a few words (problem details use it as `title`). */
  readonly title: string;
  /** The class of error it is, when the status does not say it (ErrorType). */
  readonly type?: ErrorType;
}

/** A code of rest.uws's own errors. */
export type ErrorCode = keyof typeof CODES;

/** The registry as declared, each entry's status and type as literal types (errors/factories.ts types its factories by it). */
export type ErrorCodeTable = typeof CODES;

/**
 * Every error code rest.uws gives, with its status and meaning (the table of docs/reference/error-codes.md).
 */
export const ERROR_CODES: Readonly<Record<ErrorCode, ErrorCodeInfo>> = CODES;

/** What a code means, or undefined for a code that is not rest.uws's. */
export function describeErrorCode(code: string): ErrorCodeInfo | undefined {
  return Object.hasOwn(CODES, code) ? CODES[code as ErrorCode] : undefined;
}
