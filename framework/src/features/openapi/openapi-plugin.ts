import { RegistrationError } from '../../errors/http-errors';
import type { RestPlugin } from '../../pipeline/plugin';
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
    throw new RegistrationError('openApi takes { title, version, path? }', 'RU_ERR_OPENAPI');
  for (const key of ['title', 'version'] as const) {
    if (typeof options[key] !== 'string' || options[key].length === 0)
      throw new RegistrationError(`openApi: ${key} must be a non-empty string`, 'RU_ERR_OPENAPI');
  }
  for (const [name, schema] of Object.entries(options.schemas ?? {})) {
    if (!/^[A-Za-z0-9._-]+$/.test(name) || schema === null || typeof schema !== 'object')
      throw new RegistrationError(
        `openApi: schemas.${name} must be a JSON Schema object named with letters, digits, ".", "_" or "-"`,
        'RU_ERR_OPENAPI',
      );
  }
  if (options.path !== undefined && (typeof options.path !== 'string' || !options.path.startsWith('/'))) {
    throw new RegistrationError(
      `openApi: path must start with "/", got ${JSON.stringify(options.path)}`,
      'RU_ERR_OPENAPI',
    );
  }
}
