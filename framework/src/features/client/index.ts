/** Typed clients generated from an app's OpenAPI and AsyncAPI documents. */
export { generateClient, type ClientDocuments } from './client-generator';
