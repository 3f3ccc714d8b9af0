/** Swagger UI for the app's OpenAPI document, served offline from the swagger-ui-dist package. */
export { swaggerUi, type SwaggerUiOptions } from './swagger-ui-plugin';
