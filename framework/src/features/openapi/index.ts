/** OpenAPI 3.1 documents from the decorators, and the plugin that serves them. */
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
