import type { TemplatedApp } from 'uWebSockets.js';
import { RegistrationError } from '../../errors/http-errors';
import { runtimeOf } from '../../adapter/uws-adapter';
import { RestBuilder } from '../../builder/rest-builder';
import type { JsonSchema } from './constraint-keywords';
import { buildOpenApiDocument, type OpenApiOptions } from './document-builder';
import { documentResourceFor } from './document-resource';

declare module '../../builder/rest-builder' {
  interface RestBuilder {
    /**
     * Serves the app's OpenAPI 3.1 document as JSON at `path` (default `/openapi.json`), built from
     * the decorators on first request. The document route itself is public and not listed.
     *
     * ```ts
     * new RestBuilder().register(BookingResource).openApi({ title: 'Bookings', version: '1.0.0', path: '/openapi.json' })
     * ```
     */
    openApi(options: OpenApiOptions): this;
  }
}

RestBuilder.prototype.openApi = function (this: RestBuilder, options: OpenApiOptions) {
  checkOptions(options);
  return this.configure((_app, runtime) => runtime.register(documentResourceFor(runtime, options)));
};

/** The OpenAPI document of an app built with RestRouter.register or RestBuilder (to serve or save it yourself). */
export function openApiDocument(app: TemplatedApp, options: OpenApiOptions): JsonSchema {
  checkOptions(options);
  const rt = runtimeOf(app);
  if (rt === undefined) throw new RegistrationError('openApiDocument: this app has no rest.uws routes', 'RU_ERR_OPENAPI');
  return buildOpenApiDocument(rt, options);
}

function checkOptions(options: OpenApiOptions): void {
  if (options === null || typeof options !== 'object') throw new RegistrationError('openApi takes { title, version, path? }', 'RU_ERR_OPENAPI');
  for (const key of ['title', 'version'] as const) {
    if (typeof options[key] !== 'string' || options[key].length === 0) throw new RegistrationError(`openApi: ${key} must be a non-empty string`, 'RU_ERR_OPENAPI');
  }
  if (options.path !== undefined && (typeof options.path !== 'string' || !options.path.startsWith('/'))) {
    throw new RegistrationError(`openApi: path must start with "/", got ${JSON.stringify(options.path)}`, 'RU_ERR_OPENAPI');
  }
}
