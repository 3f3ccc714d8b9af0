/**
 * rest.uws: JAX-RS style decorator routing on uWebSockets.js.
 * Public exports only; everything else is internal.
 * @packageDocumentation
 */
import './metadata/load-reflect-metadata'; // reflect-metadata, with a clear message when it is not installed

export { RestRouter } from './builder/rest-router';
export { RestBuilder, type BodyHandlerOptions } from './builder/rest-builder';

export {
  ApplicationPath,
  Path,
  GET,
  POST,
  PUT,
  DELETE,
  PATCH,
  HEAD,
  OPTIONS,
  TRACE,
  Get,
  Post,
  Put,
  Delete,
  Patch,
  Head,
  Options,
  Trace,
  Consumes,
  Produces,
  RouteOrder,
  Header,
} from './decorators/routing';
export {
  PathParam,
  QueryParam,
  MatrixParam,
  CookieParam,
  HeaderParam,
  FormParam,
  BodyParam,
  BeanParam,
  Context,
  DefaultValue,
  Raw,
  Optional,
  type ArgumentDecorator,
} from './decorators/arguments';
export { RequestReader, ResponseWriter, ContextReader, CatchWith, SuppressCheck, Handles } from './decorators/binding';

export type {
  ValueReader,
  HttpResponseWriter,
  ExceptionHandler,
  NotFoundResponseWriter,
  ContextProvider,
  ContextProviderFunction,
} from './context/contracts';
export { RoutingContext } from './context/routing-context';
export { User } from './context/user';
export { UwsApp } from './context/uws-app';
export { RouteDefinition, type ParameterDefinition } from './metadata/route-definition';
export type {
  ArgumentOptions,
  ArgumentType,
  ClassMetadata,
  Constructor,
  CookieParamOptions,
  HttpMethod,
  MethodMetadata,
  ParamMetadata,
} from './metadata/types';

export { HttpServerRequest } from './http/request';
export { HttpServerResponse, type ResponseChunk } from './http/response';
export { Response, ResponseBuilder } from './http/response-entity';

export {
  WebApplicationException,
  BadRequestException,
  UnauthorizedException,
  ForbiddenException,
  NotFoundException,
  MethodNotAllowedException,
  NotAcceptableException,
  ConflictException,
  GoneException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
  UnprocessableEntityException,
  TooManyRequestsException,
  InternalServerErrorException,
  ServiceUnavailableException,
  ArgumentException,
  RegistrationError,
  type CheckedErrorCode,
  type HttpErrorOptions,
} from './errors/http-errors';
export { ERROR_CODES, describeErrorCode, type ErrorCode, type ErrorCodeInfo, type ErrorType } from './errors/codes';
export {
  DefaultExceptionHandler,
  summarizeError,
  type ErrorSummary,
  type HandlerErrorBody,
} from './pipeline/exception-handling';

export { JsonValueReader, TextValueReader, FormValueReader, GenericValueReader } from './io/readers';
export { JsonResponseWriter, PlainResponseWriter, GenericResponseWriter } from './io/writers';
export { MediaType, negotiate } from './io/media-type';
export type { MediaTypeRegistry, Provided } from './io/registry';

export type { InjectionProvider, NotFoundHandler } from './settings/settings';
export type { Logger } from './util/log';
export type { Router, RouteSlot, RouteMatch, MethodMismatch } from './routing/router';
export { TrieRouter } from './routing/trie-router';
export { LinearRouter } from './routing/linear-router';
export type { RouteHolder } from './app/app-runtime';

export { inject, type InjectOptions, type InjectResponse } from './testing/inject';
export { injectEvents, type InjectedEventStream, type ReceivedEvent } from './testing/inject-events';
export {
  connectWebSocket,
  WebSocketUpgradeRefused,
  type TestWebSocket,
  type WebSocketClientOptions,
  type WebSocketClosed,
  type WebSocketMessage,
  type WebSocketTarget,
} from './testing/websocket-client';
export { loadUws, ALLOW_FALLBACK_ENV } from './adapter/load-uws';
// Tracing channels of the request lifecycle (node:diagnostics_channel), docs/reference/observability.md.
export {
  REQUEST_CHANNEL,
  HANDLER_CHANNEL,
  UPGRADE_CHANNEL,
  MESSAGE_CHANNEL,
  type RequestTrace,
  type HandlerTrace,
  type MessageTrace,
} from './pipeline/diagnostics';

// Plugins: the public API every feature is built on (docs/reference/plugins.md).
export type {
  RestPlugin,
  PluginContext,
  RouteScope,
  ClassScope,
  RequestHook,
  ResponseHook,
  ErrorHook,
  SendHook,
  ShutdownHook,
  LogFields,
  LogFieldProvider,
  BodyConsumer,
  BodyFlow,
  BodyStreamer,
  RouteHookFactory,
  ClassHandler,
  ComponentFill,
  ComponentFiller,
} from './pipeline/plugin';
export type { RouteHooks, RouteAnswer } from './pipeline/route-hooks';
export type { WebSocketRoute, WebSocketHandler, WebSocketHandlerName } from './pipeline/websocket-route';
export { SetMetadata } from './decorators/set-metadata';

// Security: authentication and authorization.
export {
  securityPlugin,
  appSecurity,
  Authenticate,
  Authorize,
  RolesAllowed,
  PermitAll,
  DenyAll,
  routeSecurity,
  BearerAuthenticationProvider,
  BasicAuthenticationProvider,
  hashPassword,
  verifyPassword,
  secretsEqual,
} from './features/security';
export type {
  RestAuthenticationProvider,
  AuthorizationProvider,
  RouteSecurity,
  AccessRule,
  TokenVerifier,
  BearerOptions,
  BasicCredentials,
  PasswordVerifier,
  BasicAccount,
  BasicOptions,
} from './features/security';

// Injection and caching.
export { NoCache } from './decorators/no-cache';
export { injectionPlugin, Inject, TsyringeInjectionProvider } from './features/injection';

// Events.
export { eventsPlugin, Event, EVENTS, type RestEvent, type EventOptions, type EventBinding } from './features/events';

// CORS.
export { cors, type CorsOptions } from './features/cors';

// Rate limiting: token buckets per key, in memory or PostgreSQL.
export {
  rateLimit,
  RateLimit,
  SkipRateLimit,
  byAddress,
  byHeader,
  byUser,
  MemoryRateLimitStore,
  PostgresRateLimitStore,
} from './features/rate-limit';
export type {
  RateLimitOptions,
  RateLimitRule,
  RateLimitKey,
  RateLimitStore,
  RateLimitState,
  RateLimitWindow,
  MemoryRateLimitStoreOptions,
  PostgresRateLimitStoreOptions,
  SqlQueryable,
  SqlResult,
} from './features/rate-limit';

// Compression: brotli and gzip from Accept-Encoding, for complete and streamed bodies.
export {
  compression,
  NoCompression,
  isCompressibleType,
  type CompressionOptions,
  type Coding,
} from './features/compression';
export type { SentBody } from './http/body-pipe';

// Server-sent events: event stream routes (async iterables or a push API), disconnect signals.
export {
  serverSentEventsPlugin,
  ServerSentEvents,
  ServerSentEvent,
  EventStream,
  EventStreamWriter,
} from './features/sse';
export type { ServerSentEventFields, EventStreamOptions, EventStreamSettings, EventSource } from './features/sse';

// Validation.
export {
  validationPlugin,
  Valid,
  Constraint,
  Min,
  Max,
  Positive,
  PositiveOrZero,
  Negative,
  NegativeOrZero,
  Size,
  Pattern,
  Email,
  NotNull,
  NotEmpty,
  NotBlank,
  Past,
  Future,
  ConstraintException,
  ConstraintExceptionHandler,
  ClassValidator,
} from './features/validation';
export type {
  ConstraintDecorator,
  ConstraintOptions,
  ConstraintViolation,
  Validator,
  ClassValidatorOptions,
  Compilation,
  CompilationMode,
  CompiledMode,
  NotCompiledMode,
  StandardSchemaV1,
  StandardJsonSchemaConverter,
  SchemaDecorator,
} from './features/validation';

// Static files: FileResponseWriter, folder mounts, RestBuilder/RestRouter.staticFiles.
export {
  staticFilesPlugin,
  FileResponseWriter,
  staticFolder,
  type FileResponseWriterOptions,
  type DotFiles,
} from './features/static';

// WebSocket endpoints: @WebSocket classes registered like REST classes.
export {
  webSocketPlugin,
  WebSocket,
  WEBSOCKET_ENDPOINT,
  type WebSocketEndpointMetadata,
  type WebSocketOptions,
} from './features/websocket';
export {
  WebSocketConnection,
  WebSocketCloseException,
  type SendStatus,
  type WebSocketData,
} from './context/websocket-connection';
export { closeAllWebSockets, openConnections } from './adapter/open-connections';

// Serving, graceful shutdown and request logging.
export { serve, isServeWorker } from './server/serve';
export type { AppFactory, ServeContext, ServeOptions, ServeHandle } from './server/serve-types';
export { startServer, type ListenOptions, type Server, type ShutdownReport } from './server/start-server';
export {
  requestLoggingPlugin,
  REQUEST_LOGGING,
  createLogger,
  excludeFromAccessLog,
  RequestLogger,
  BufferedDestination,
  type RequestLoggingOptions,
  type RequestLogLevel,
  type CreateLoggerOptions,
  type LogDestination,
  type PinoLogger,
  type BufferedDestinationOptions,
} from './features/logging';

// Health and readiness: GET /health, GET /ready with the app's checks (503 while one fails or shutting down).
export { health, type HealthOptions, type ReadinessCheck } from './features/health';
export {
  openTelemetry,
  type OpenTelemetryOptions,
  type TracerProviderLike,
  type MeterProviderLike,
  type TextMapPropagatorLike,
  type MetricsAccess,
} from './features/opentelemetry';

// Behind proxies: remoteAddress(), protocol() and host() from trusted proxies' Forwarded / X-Forwarded-* headers.
export { trustProxy, type TrustProxyOptions, type TrustSetting, type ForwardingHeaders } from './features/trust-proxy';
export type { ClientOrigin, OriginResolver } from './http/client-origin';

// Cookies: Set-Cookie with every attribute, signed cookies (HMAC-SHA256, key rotation), @CookieParam(name, { signed: true }).
export {
  cookies,
  Cookies,
  CookieSigner,
  serializeCookie,
  setCookie,
  clearCookie,
  type CookiesOptions,
  type SetCookieOptions,
  type CookieOptions,
} from './features/cookies';
export { SignedCookieVerifier } from './context/signed-cookies';

// Problem details: every framework error as RFC 9457 application/problem+json (off unless used).
export { problemDetails, ProblemDetailsHandler, type ProblemDetailsOptions } from './features/problem-details';

// Request ids: X-Request-Id taken when well formed, generated otherwise, sent back and logged.
export { requestId, requestIdOf, type RequestIdOptions } from './features/request-id';

// Uploads: multipart/form-data and @FileBody bodies streamed to the uploads folder, ctx.fileUploads(), RestRouter.setBodyHandler.
export {
  uploadsPlugin,
  FileUpload,
  DEFAULT_UPLOADS_DIRECTORY,
  FileBody,
  type FileBodyOptions,
  type FileBodyAdmission,
} from './features/uploads';

// OpenAPI 3.1 documents.
export {
  openApi,
  buildOpenApiDocument,
  ApiOperation,
  ApiResponse,
  ApiTags,
  ApiExclude,
  API_OPERATION,
  API_RESPONSES,
  API_TAGS,
  API_EXCLUDE,
  asyncApi,
  buildAsyncApiDocument,
  ApiMessages,
  API_MESSAGES,
} from './features/openapi';
export type {
  AsyncApiOptions,
  AsyncApiServer,
  AsyncApiSource,
  ApiMessage,
  ApiMessagesOptions,
  OpenApiOptions,
  OpenApiSource,
  ApiOperationOptions,
  ApiResponseOptions,
  OpenApiSecurityScheme,
  OpenApiErrorBody,
  ErrorHandlerList,
  JsonSchema,
} from './features/openapi';
export { openApiDocument, asyncApiDocument } from './builder/open-api-document';
export { swaggerUi, type SwaggerUiOptions } from './features/swagger-ui';
// Typed clients from the OpenAPI and AsyncAPI documents.
export { generateClient, type ClientDocuments } from './features/client';

// Adoption (issue 9): types the API reference (npm run -w rest.uws docs) links to from public members.
export type { ParamSource } from './metadata/types';

// Last: the entry's exports as constants rather than tsc's getters (util/constant-exports.ts says why).
import { constantExports } from './util/constant-exports';
module.exports = constantExports(exports);
