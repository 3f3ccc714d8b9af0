import { errors, type RestPlugin } from '../../plugin';
import type { OpenApiOptions } from './document-builder';
import { documentResourceFor } from './document-resource';

/**
 * Serves the app's OpenAPI 3.1 document as JSON at `options.path` (default `/openapi.json`), built
 * from the decorators on first request. The document route itself is public and not listed.
 *
 * ```ts
 * new RestBuilder().register(BookingResource).use(openApi({ title: 'Bookings', version: '1.0.0' }))
 * ```
 */
export function openApi(options: OpenApiOptions): RestPlugin {
  checkOpenApiOptions(options);
  return {
    name: 'openapi',
    setup(app) {
      app.register(documentResourceFor(app, options));
    },
  };
}

/** Checks the options of `openApi` and `openApiDocument` where they are given. */
export function checkOpenApiOptions(options: OpenApiOptions): void {
  if (options === null || typeof options !== 'object')
    throw errors.RU_ERR_OPENAPI('openApi takes { title, version, path? }');
  for (const key of ['title', 'version'] as const) {
    if (typeof options[key] !== 'string' || options[key].length === 0)
      throw errors.RU_ERR_OPENAPI(`openApi: ${key} must be a non-empty string`);
  }
  for (const [name, schema] of Object.entries(options.schemas ?? {})) {
    if (!/^[A-Za-z0-9._-]+$/.test(name) || schema === null || typeof schema !== 'object')
      throw errors.RU_ERR_OPENAPI(
        `openApi: schemas.${name} must be a JSON Schema object named with letters, digits, ".", "_" or "-"`,
      );
  }
  if (options.path !== undefined && (typeof options.path !== 'string' || !options.path.startsWith('/'))) {
    throw errors.RU_ERR_OPENAPI(`openApi: path must start with "/", got ${JSON.stringify(options.path)}`);
  }
}
