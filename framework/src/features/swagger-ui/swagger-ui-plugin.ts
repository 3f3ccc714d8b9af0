import { Path, errors, type RestPlugin } from '../../plugin';
import { SwaggerUiDist } from './swagger-ui-assets';
import { SwaggerUiResource } from './swagger-ui-resource';

/** Options of `swaggerUi()`. */
export interface SwaggerUiOptions {
  /** Where the page is served (default `/docs`): letters, digits and `._~-` segments. */
  path?: string;
  /** The URL of the OpenAPI document the page shows (default `/openapi.json`, where `openApi()` serves it). */
  url?: string;
  /** The page's title (default `API documentation`). */
  title?: string;
  /**
   * Swagger UI configuration, JSON values only: `tryItOutEnabled`, `persistAuthorization`, `docExpansion`,
   * `filter`, `defaultModelsExpandDepth`... (https://swagger.io/docs/open-source-tools/swagger-ui/usage/configuration/).
   * `dom_id`, `layout` and `presets` are the plugin's.
   */
  config?: Record<string, unknown>;
}

const SEGMENTS = /^(?:\/[A-Za-z0-9._~-]+)+$/;
const OWN_KEYS = ['dom_id', 'layout', 'presets', 'plugins', 'domNode'];

/** Throws unless `value` survives JSON as it is (no functions, undefined, symbols, bigints, cycles or class instances). */
function checkJson(value: unknown, where: string, seen: Set<unknown> = new Set()): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw errors.RU_ERR_PLUGIN(`swaggerUi: ${where} is not a JSON value (${value})`);
    return;
  }
  if (
    typeof value !== 'object' ||
    seen.has(value) ||
    (!Array.isArray(value) &&
      Object.getPrototypeOf(value) !== Object.prototype &&
      Object.getPrototypeOf(value) !== null)
  ) {
    throw errors.RU_ERR_PLUGIN(
      `swaggerUi: ${where} is not a JSON value; config takes strings, numbers, booleans, null, arrays and plain objects`,
    );
  }
  seen.add(value);
  for (const [key, item] of Object.entries(value)) checkJson(item, `${where}.${key}`, seen);
  seen.delete(value);
}

function checkOptions(options: SwaggerUiOptions): Required<SwaggerUiOptions> {
  if (options === null || typeof options !== 'object')
    throw errors.RU_ERR_PLUGIN('swaggerUi takes { path?, url?, title?, config? }');
  const path = options.path ?? '/docs';
  if (typeof path !== 'string' || !SEGMENTS.test(path)) {
    throw errors.RU_ERR_PLUGIN(
      `swaggerUi: path must be like "/docs" (segments of letters, digits and ._~-), got ${JSON.stringify(path)}`,
    );
  }
  const url = options.url ?? '/openapi.json';
  if (typeof url !== 'string' || url.length === 0)
    throw errors.RU_ERR_PLUGIN("swaggerUi: url must be the OpenAPI document's URL");
  const title = options.title ?? 'API documentation';
  if (typeof title !== 'string') throw errors.RU_ERR_PLUGIN('swaggerUi: title must be a string');
  const config = options.config ?? {};
  checkJson(config, 'config');
  if (Array.isArray(config)) throw errors.RU_ERR_PLUGIN('swaggerUi: config must be an object');
  for (const key of OWN_KEYS)
    if (key in config) throw errors.RU_ERR_PLUGIN(`swaggerUi: config.${key} is set by the plugin`);
  return { path, url, title, config };
}

/**
 * Swagger UI for the app's OpenAPI document at `path` (default `/docs`), from the files of the `swagger-ui-dist`
 * package (an optional peer dependency: install it to use this plugin). Offline: the page loads nothing from
 * elsewhere. Public and not listed in the document.
 *
 * ```ts
 * new RestBuilder().register(BookingResource).use(openApi({ title: 'Bookings', version: '1.0.0' })).use(swaggerUi())
 * ```
 */
export function swaggerUi(options: SwaggerUiOptions = {}): RestPlugin {
  const { path, url, title, config } = checkOptions(options);
  const dist = SwaggerUiDist.locate();
  return {
    name: 'swagger-ui',
    setup(app) {
      class SwaggerUi extends SwaggerUiResource {}
      Path(path)(SwaggerUi);
      app.register(
        new SwaggerUi(dist, { base: path, version: dist.version }, title, {
          url,
          deepLinking: true,
          validatorUrl: null,
          ...config,
        }),
      );
    },
  };
}
