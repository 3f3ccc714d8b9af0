/**
 * rest.uws: JAX-RS style decorator routing on uWebSockets.js.
 * Public exports only; everything else is internal.
 * @packageDocumentation
 */
import './metadata/load-reflect-metadata'; // reflect-metadata, with a clear message when it is not installed

export { RestRouter } from './rest-router';
export { RestBuilder, type BodyHandlerOptions } from './rest-builder';

export { Path, GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS, Get, Post, Put, Delete, Patch, Head, Options, Consumes, Produces, RouteOrder, Header } from './decorators/routing';
export { PathParam, QueryParam, MatrixParam, CookieParam, HeaderParam, FormParam, BodyParam, BeanParam, Context, DefaultValue, Raw, Optional, type ArgumentDecorator } from './decorators/arguments';
export { RequestReader, ResponseWriter, ContextReader, CatchWith, SuppressCheck, Handles } from './decorators/binding';

export type { ValueReader, HttpResponseWriter, ExceptionHandler, NotFoundResponseWriter, ContextProvider, ContextProviderFunction } from './context/contracts';
export { RoutingContext } from './context/routing-context';
export { User } from './context/user';
export { UwsApp } from './context/uws-app';
export { RouteDefinition, type ParameterDefinition } from './metadata/route-definition';
export type { ArgumentOptions, ArgumentType, Constructor, HttpMethod } from './metadata/types';

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
} from './errors/http-errors';
export { DefaultExceptionHandler } from './errors/exception-handling';

export { JsonValueReader, TextValueReader, FormValueReader, GenericValueReader } from './io/readers';
export { JsonResponseWriter, PlainResponseWriter, GenericResponseWriter } from './io/writers';
export { MediaType, negotiate } from './io/media-type';
export type { MediaTypeRegistry, Provided } from './io/registry';

export type { InjectionProvider, NotFoundHandler } from './runtime/settings';
export type { Logger } from './log';
export type { Router, RouteSlot, RouteMatch, MethodMismatch } from './routing/router';
export { TrieRouter } from './routing/trie-router';
export { LinearRouter } from './routing/linear-router';
export type { RouteHolder } from './runtime/app-runtime';

export { inject, type InjectOptions, type InjectResponse } from './testing/inject';
export { loadUws, ALLOW_FALLBACK_ENV } from './uws/load-uws';

// Security, events, CORS, validation, injection and caching (issue 3, first half).
import './security/app-security';
import './security/security-extension';
export type { RestAuthenticationProvider, AuthorizationProvider } from './security/contracts';
export { Authenticate, Authorize, RolesAllowed, PermitAll, DenyAll, routeSecurity, type RouteSecurity, type AccessRule } from './security/decorators';
export { appSecurity } from './security/app-security';
export { BearerAuthenticationProvider, type TokenVerifier, type BearerOptions } from './security/bearer-provider';
export { BasicAuthenticationProvider, type BasicCredentials, type PasswordVerifier, type BasicAccount, type BasicOptions } from './security/basic-provider';
export { hashPassword, verifyPassword, secretsEqual } from './security/constant-time';
export { NoCache } from './injection/no-cache';
export { Inject } from './injection/inject-decorator';
export { TsyringeInjectionProvider } from './injection/tsyringe-provider';
import './events/events-extension';
export type { RestEvent } from './events/contracts';
export { Event, type EventOptions, type EventBinding, EVENTS } from './events/event-decorator';
import './cors/enable-cors';
export type { CorsOptions } from './cors/cors-options';
import './validation/validate-with';
import './validation/validation-extension';
export { Valid } from './validation/valid-decorator';
export { Constraint, Min, Max, Positive, PositiveOrZero, Negative, NegativeOrZero, Size, Pattern, Email, NotNull, NotEmpty, NotBlank, Past, Future, type ConstraintDecorator, type ConstraintOptions } from './validation/constraints';
export { ConstraintException, type ConstraintViolation } from './validation/constraint-exception';
export { ConstraintExceptionHandler } from './validation/constraint-exception-handler';
export { ClassValidator, type Validator, type ClassValidatorOptions } from './validation/validator';

// Static files (issue 3): FileResponseWriter, folder mounts, RestBuilder/RestRouter.staticFiles.
import './static/static-settings';
export { FileResponseWriter, type FileResponseWriterOptions } from './static/file-response-writer';
export { staticFolder } from './static/static-folder';
export type { DotFiles } from './static/safe-path';

// WebSocket endpoints (issue 4): @WebSocket classes registered like REST classes.
import './websocket/endpoint-registrar';
export { WebSocket, WEBSOCKET_ENDPOINT, type WebSocketEndpointMetadata } from './websocket/websocket-decorator';
export { WebSocketConnection, WebSocketCloseException, type SendStatus, type WebSocketData } from './websocket/websocket-connection';
export type { WebSocketOptions } from './websocket/websocket-options';
export { closeAllWebSockets, openConnections } from './websocket/open-connections';

// Serving, graceful shutdown and request logging (issue 4).
import './logging/request-logging';
export { serve, isServeWorker } from './server/serve';
export type { AppFactory, ServeContext, ServeOptions, ServeHandle } from './server/serve-types';
export { startServer, type ListenOptions, type Server, type ShutdownReport } from './server/start-server';
export { REQUEST_LOGGING, type RequestLoggingOptions, type RequestLogLevel } from './logging/request-logging';
export { createLogger, type CreateLoggerOptions, type LogDestination, type PinoLogger } from './logging/create-logger';

// Uploads (issue 3): multipart/form-data streamed to the uploads folder, ctx.fileUploads(), RestRouter.setBodyHandler.
import './uploads/uploads-setup';
export { FileUpload } from './uploads/file-upload';
export { DEFAULT_UPLOADS_DIRECTORY } from './uploads/upload-options';

// OpenAPI 3.1 documents (issue 4).
import './openapi/openapi-builder';
export { openApiDocument } from './openapi/openapi-builder';
export { buildOpenApiDocument, type OpenApiOptions } from './openapi/document-builder';
export { ApiOperation, ApiResponse, ApiTags, ApiExclude, API_OPERATION, API_RESPONSES, API_TAGS, API_EXCLUDE, type ApiOperationOptions, type ApiResponseOptions } from './openapi/openapi-decorators';
export type { OpenApiSecurityScheme } from './openapi/security-schemes';
export type { JsonSchema } from './openapi/constraint-keywords';

// Adoption (issue 9): types the API reference (npm run -w rest.uws docs) links to from public members.
export type { ParamSource } from './metadata/types';

// Compiled validation: how a class is validated and built (generated code, or class-validator/class-transformer and why).
export type { Compilation, CompilationMode, CompiledMode, NotCompiledMode } from './validation/validator';
