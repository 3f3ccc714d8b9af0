/**
 * rest.uws: JAX-RS style decorator routing on uWebSockets.js.
 * Public exports only; everything else is internal.
 * @packageDocumentation
 */
import './metadata/load-reflect-metadata'; // reflect-metadata, with a clear message when it is not installed

export { RestRouter } from './builder/rest-router';
export { RestBuilder, type BodyHandlerOptions } from './builder/rest-builder';

export { ApplicationPath, Path, GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS, Get, Post, Put, Delete, Patch, Head, Options, Consumes, Produces, RouteOrder, Header } from './decorators/routing';
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
export { DefaultExceptionHandler } from './pipeline/exception-handling';

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
export { loadUws, ALLOW_FALLBACK_ENV } from './adapter/load-uws';

// Security, events, CORS, validation, injection and caching (issue 3, first half).
import './features/security/app-security';
import './features/security/security-extension';
export type { RestAuthenticationProvider, AuthorizationProvider } from './features/security/contracts';
export { Authenticate, Authorize, RolesAllowed, PermitAll, DenyAll, routeSecurity, type RouteSecurity, type AccessRule } from './features/security/decorators';
export { appSecurity } from './features/security/app-security';
export { BearerAuthenticationProvider, type TokenVerifier, type BearerOptions } from './features/security/bearer-provider';
export { BasicAuthenticationProvider, type BasicCredentials, type PasswordVerifier, type BasicAccount, type BasicOptions } from './features/security/basic-provider';
export { hashPassword, verifyPassword, secretsEqual } from './features/security/constant-time';
export { NoCache } from './decorators/no-cache';
export { Inject } from './decorators/inject';
export { TsyringeInjectionProvider } from './features/injection/tsyringe-provider';
import './features/events/events-extension';
export type { RestEvent } from './features/events/contracts';
export { Event, type EventOptions, type EventBinding, EVENTS } from './features/events/event-decorator';
import './features/cors/enable-cors';
export type { CorsOptions } from './features/cors/cors-options';
import './features/validation/validate-with';
import './features/validation/validation-extension';
export { Valid } from './features/validation/valid-decorator';
export { Constraint, Min, Max, Positive, PositiveOrZero, Negative, NegativeOrZero, Size, Pattern, Email, NotNull, NotEmpty, NotBlank, Past, Future, type ConstraintDecorator, type ConstraintOptions } from './features/validation/constraints';
export { ConstraintException, type ConstraintViolation } from './features/validation/constraint-exception';
export { ConstraintExceptionHandler } from './features/validation/constraint-exception-handler';
export { ClassValidator, type Validator, type ClassValidatorOptions } from './features/validation/validator';

// Static files (issue 3): FileResponseWriter, folder mounts, RestBuilder/RestRouter.staticFiles.
import './features/static/static-settings';
export { FileResponseWriter, type FileResponseWriterOptions } from './features/static/file-response-writer';
export { staticFolder } from './features/static/static-folder';
export type { DotFiles } from './features/static/safe-path';

// WebSocket endpoints (issue 4): @WebSocket classes registered like REST classes.
import './features/websocket/endpoint-registrar';
export { WebSocket, WEBSOCKET_ENDPOINT, type WebSocketEndpointMetadata } from './features/websocket/websocket-decorator';
export { WebSocketConnection, WebSocketCloseException, type SendStatus, type WebSocketData } from './features/websocket/websocket-connection';
export type { WebSocketOptions } from './features/websocket/websocket-options';
export { closeAllWebSockets, openConnections } from './features/websocket/open-connections';

// Serving, graceful shutdown and request logging (issue 4).
import './features/logging/request-logging';
export { serve, isServeWorker } from './server/serve';
export type { AppFactory, ServeContext, ServeOptions, ServeHandle } from './server/serve-types';
export { startServer, type ListenOptions, type Server, type ShutdownReport } from './server/start-server';
export { REQUEST_LOGGING, type RequestLoggingOptions, type RequestLogLevel } from './features/logging/request-logging';
export { createLogger, type CreateLoggerOptions, type LogDestination, type PinoLogger } from './features/logging/create-logger';

// Uploads (issue 3): multipart/form-data streamed to the uploads folder, ctx.fileUploads(), RestRouter.setBodyHandler.
import './features/uploads/uploads-setup';
export { FileUpload } from './features/uploads/file-upload';
export { DEFAULT_UPLOADS_DIRECTORY } from './features/uploads/upload-options';

// OpenAPI 3.1 documents (issue 4).
import './features/openapi/openapi-builder';
export { openApiDocument } from './features/openapi/openapi-builder';
export { buildOpenApiDocument, type OpenApiOptions } from './features/openapi/document-builder';
export { ApiOperation, ApiResponse, ApiTags, ApiExclude, API_OPERATION, API_RESPONSES, API_TAGS, API_EXCLUDE, type ApiOperationOptions, type ApiResponseOptions } from './features/openapi/openapi-decorators';
export type { OpenApiSecurityScheme } from './features/openapi/security-schemes';
export type { JsonSchema } from './features/openapi/constraint-keywords';

// Adoption (issue 9): types the API reference (npm run -w rest.uws docs) links to from public members.
export type { ParamSource } from './metadata/types';

// Compiled validation: how a class is validated and built (generated code, or class-validator/class-transformer and why).
export type { Compilation, CompilationMode, CompiledMode, NotCompiledMode } from './features/validation/validator';
