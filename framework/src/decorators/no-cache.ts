import { marker } from './decorator-forms';
import { classMetadata } from '../metadata/store';
import { errors } from '../errors/factories';

/** Class metadata key of `@NoCache` (read by the component factory). */
export const NO_CACHE = Symbol('rest.uws:no-cache');

/**
 * Makes the framework create a new instance of a reader, writer, exception handler, event,
 * context provider, or authentication or authorization provider for every request, instead of
 * caching one. Classes with `@Context` fields are made per request without it.
 *
 * ```ts
 * @NoCache
 * class RequestCounterWriter implements HttpResponseWriter<string> { ... }
 * ```
 */
export const NoCache = marker((target: Function) => {
  if (typeof target !== 'function') throw errors.RU_ERR_DECORATOR_TARGET('rest.uws: @NoCache goes on a class');
  classMetadata(target).extensions.set(NO_CACHE, true);
});
