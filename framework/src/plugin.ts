/**
 * rest.uws/plugin: the entry for plugin authors. It exports the core of `rest.uws` that a plugin is written with
 * (the same values: routing decorators, the request and response, errors, the plugin API's types) and what only a
 * plugin needs besides (the error factories, the records decorators write, the context keys plugins share, the
 * helpers of the body and response paths). The built-in plugins (framework/src/features) are written with this entry
 * only, as an adopter's plugin is; a test keeps it so (test/architecture/feature-imports.test.ts).
 * Nothing here imports a feature, so a feature imports it without a cycle. docs/reference/plugins.md describes it.
 * @packageDocumentation
 */

// ---- The core API, as `rest.uws` exports it --------------------------------------------------------------------

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
export { SetMetadata } from './decorators/set-metadata';
export { NoCache } from './decorators/no-cache';
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
export { FileUpload } from './context/file-upload';
export { SignedCookieVerifier } from './context/signed-cookies';
export { RouteDefinition, type ParameterDefinition } from './metadata/route-definition';
export type {
  ArgumentOptions,
  ArgumentType,
  Constructor,
  CookieParamOptions,
  HttpMethod,
  ParamSource,
} from './metadata/types';
export { HttpServerRequest } from './http/request';
export { HttpServerResponse, type ResponseChunk } from './http/response';
export { Response, ResponseBuilder } from './http/response-entity';
export type { SentBody } from './http/body-pipe';
export type { ClientOrigin, OriginResolver } from './http/client-origin';
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
export { ConstraintException, type ConstraintViolation } from './errors/constraint-exception';
export { ERROR_CODES, describeErrorCode, type ErrorCode, type ErrorCodeInfo } from './errors/codes';
export {
  DefaultExceptionHandler,
  summarizeError,
  VIOLATIONS_SCHEMA,
  type ErrorSummary,
  type HandlerErrorBody,
} from './pipeline/exception-handling';
export { MediaType, negotiate } from './io/media-type';
export type { MediaTypeRegistry, Provided } from './io/registry';
export type { Logger } from './util/log';
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
export type {
  WebSocketRoute,
  WebSocketHandler,
  WebSocketHandlerName,
  WebSocketOptions,
} from './pipeline/websocket-route';

// ---- Errors: one factory per code of the registry (docs/reference/error-codes.md) ---------------------------------

export {
  errors,
  CODE,
  type CodedError,
  type ErrorFactory,
  type ErrorFactoryOptions,
  type ErrorOf,
} from './errors/factories';
export type { ErrorCodeTable, ErrorType } from './errors/codes';
export { statusText } from './errors/http-status';

// ---- What the decorators record, for decorators and plugins of one's own -------------------------------------------

export { metadataExtensions } from './decorators/set-metadata';
export { marker } from './decorators/decorator-forms';
export {
  classMetadata,
  methodMetadata,
  resolvedClassMetadata,
  designType,
  designParamTypes,
} from './metadata/store';
export { HTTP_METHODS, type ClassMetadata, type MethodMetadata, type ParamMetadata } from './metadata/types';
export { ApiExclude, API_EXCLUDE } from './decorators/api-exclude';
export { PARAMETER_CONSTRAINTS, type ParameterConstraints } from './metadata/parameter-constraints';
export {
  ARGUMENT_SCHEMAS,
  isStandardSchema,
  jsonSchemaOf,
  type ArgumentSchemas,
  type SchemaDocument,
  type StandardSchemaV1,
  type StandardJsonSchemaConverter,
} from './metadata/standard-schema';
export {
  Authenticate,
  Authorize,
  RolesAllowed,
  PermitAll,
  DenyAll,
  routeSecurity,
  appSecurity,
  checkProvider,
  AUTHENTICATE,
  AUTHORIZE,
  ACCESS,
  GLOBAL_AUTHENTICATION,
  GLOBAL_AUTHORIZATION,
  type AccessRule,
  type RouteSecurity,
} from './context/route-security';
export type { RestAuthenticationProvider, AuthorizationProvider } from './context/security-contracts';

// ---- What plugins share about a request ----------------------------------------------------------------------------

export { requestIdOf, setRequestId } from './context/request-id';
export { excludeFromAccessLog, isExcludedFromAccessLog } from './context/access-log';
export { FILE_UPLOADS } from './context/file-upload';
export { FORM_FIELDS } from './pipeline/arguments';
export { bodyOriginOf, type BodyOrigin } from './pipeline/exchange';
export {
  REQUEST_CHANNEL,
  HANDLER_CHANNEL,
  UPGRADE_CHANNEL,
  MESSAGE_CHANNEL,
  type RequestTrace,
  type HandlerTrace,
  type MessageTrace,
} from './pipeline/diagnostics';

// ---- Settings and components ---------------------------------------------------------------------------------------

export {
  SettingsView,
  RestSettings,
  BODY_OPTIONS,
  type BodyHandlerOptions,
  type InjectionProvider,
  type NotFoundHandler,
} from './settings/settings';
export type { ComponentFactory } from './settings/components';
export { componentAccessor, type ComponentAccessor } from './pipeline/component-access';
export { contextFieldFiller } from './pipeline/context-fields';
export { isThenable } from './pipeline/context-values';

// ---- Helpers of the body, media type and response paths ------------------------------------------------------------

export { mediaEssence, accepts } from './io/media-type';
export { chooseCodings, type CodingChoice } from './io/content-coding';
export { isPlainJsonType } from './io/plain-to-instance';
export { assertJsonDepthFrom, MAX_JSON_DEPTH } from './io/json-depth';
export { byteLengthAtLeast } from './http/response';
export { compilePathPattern, type PathPattern } from './routing/path-pattern';

// Last: the entry's exports as constants rather than tsc's getters, as index.ts (util/constant-exports.ts says why):
// the features read them on the request path.
import { constantExports } from './util/constant-exports';
module.exports = constantExports(exports);
