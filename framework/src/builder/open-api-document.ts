import type { TemplatedApp } from 'uWebSockets.js';
import { runtimeOf } from '../adapter/uws-adapter';
import {
  buildAsyncApiDocument,
  buildOpenApiDocument,
  checkAsyncApiOptions,
  checkOpenApiOptions,
  type AsyncApiOptions,
  type JsonSchema,
  type OpenApiOptions,
} from '../features/openapi';
import { errors } from '../errors/factories';

/** The OpenAPI document of an app built with RestRouter.register or RestBuilder (to serve or save it yourself). */
export function openApiDocument(app: TemplatedApp, options: OpenApiOptions): JsonSchema {
  checkOpenApiOptions(options);
  const rt = runtimeOf(app);
  if (rt === undefined) throw errors.RU_ERR_OPENAPI('openApiDocument: this app has no rest.uws routes');
  return buildOpenApiDocument(
    {
      routes: () => rt.routes().map((h) => h.definition),
      settings: rt.settings,
      components: rt.components,
      routeAnswers: (route) => rt.routeAnswers(route),
      errorHandlers: (route) => rt.errorHandlers(route),
    },
    options,
  );
}

/** The AsyncAPI 3.0 document of an app's WebSocket endpoints (RestRouter.register or RestBuilder), to serve or save. */
export function asyncApiDocument(app: TemplatedApp, options: AsyncApiOptions): JsonSchema {
  checkAsyncApiOptions(options);
  const rt = runtimeOf(app);
  if (rt === undefined) throw errors.RU_ERR_ASYNCAPI('asyncApiDocument: this app has no rest.uws routes');
  return buildAsyncApiDocument(
    {
      webSockets: () =>
        rt.webSocketEndpoints().map((e) => ({ route: e.route, definition: e.upgrade.stages.definition })),
      settings: rt.settings,
      components: rt.components,
    },
    options,
  );
}
