/** OpenAPI 3.1 and AsyncAPI 3.0 documents from the decorators, and the plugins that serve them. */
export { openApi, checkOpenApiOptions } from './openapi-plugin';
export { buildOpenApiDocument, type OpenApiOptions, type OpenApiSource } from './document-builder';
export {
  ApiOperation,
  ApiResponse,
  ApiTags,
  API_OPERATION,
  API_RESPONSES,
  API_TAGS,
  type ApiOperationOptions,
  type ApiResponseOptions,
} from './openapi-decorators';
export { ApiExclude, API_EXCLUDE } from '../../plugin';
export type { OpenApiSecurityScheme } from './security-schemes';
export type { OpenApiErrorBody, ErrorHandlerList } from './error-responses';
export type { JsonSchema } from './constraint-keywords';
export { asyncApi } from './asyncapi-plugin';
export {
  buildAsyncApiDocument,
  checkAsyncApiOptions,
  type AsyncApiOptions,
  type AsyncApiServer,
  type AsyncApiSource,
} from './asyncapi-document';
export { ApiMessages, API_MESSAGES, type ApiMessage, type ApiMessagesOptions } from './asyncapi-decorators';
