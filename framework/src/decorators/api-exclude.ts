import { marker } from './decorator-forms';
import { metadataExtensions } from './set-metadata';

/**
 * Metadata key of `@ApiExclude` (class and method extension). API documents (the OpenAPI plugin) leave out the
 * routes that carry it; plugins that register routes of their own (static files, Swagger UI) set it on them.
 */
export const API_EXCLUDE = Symbol('rest.uws:api-exclude');

/** Leaves a route (or a whole class) out of the OpenAPI document. */
export const ApiExclude = marker(
  (target: object, key?: string | symbol) => void metadataExtensions(target, key).set(API_EXCLUDE, true),
);
