import {
  openApi,
  openTelemetry,
  rateLimit,
  RestBuilder,
  TsyringeInjectionProvider,
  WebApplicationException,
  type Logger,
  type RateLimitKey,
} from 'rest.uws';
import { rateLimitStoreOptions, useOperations, type AppRateLimit, type OperationsOptions } from 'app-support';
import { telemetryStarted } from 'app-support/telemetry';
import { container as rootContainer } from 'tsyringe';
import type { TemplatedApp } from 'uWebSockets.js';
import type { ContentService } from './content-service';
import { AdminService } from './domain/admin-service';
import { graphqlResource, GRAPHQL_RATE_LIMIT_RULE } from './http/graphql-resource';
import { assetResource } from './http/asset-resource';
import { graphiqlResource } from './http/graphiql-resource';
import { AdminResource } from './http/admin-resource';
import { AdminKeyAuthentication } from './http/admin-key-authentication';
import { GraphqlEndpointErrorHandler } from './http/graphql-errors';
import { DEFAULT_GRAPHQL_RATE_LIMIT_PER_MINUTE } from './config';

/** Request body limit of the API (queries, variables, admin calls). */
export const DEFAULT_MAX_REQUEST_BYTES = 256 * 1024;
/** Where the OpenAPI document of the HTTP routes is served (public). */
export const OPENAPI_PATH = '/openapi.json';

/** How the GraphQL endpoint is rate limited: `limit` requests per `windowSeconds` (default 60) per token. */
export type GraphqlRateLimit = AppRateLimit;

export interface ContentAppOptions extends OperationsOptions {
  /** Path of the GraphQL endpoint (default /api). */
  graphqlPath?: string;
  /** The uWebSockets.js app to register on (a new one when absent). */
  app?: TemplatedApp;
  /** Key of the admin REST API (`X-Admin-Key`); null/absent = admin API off (404). */
  adminKey?: string | null;
  /** Largest request body accepted (default 256 KiB); larger ones get 413. */
  maxRequestBytes?: number;
  /** The app's log (a pino logger fits); default: rest.uws's console logger. */
  logger?: Logger;
  /** The GraphQL endpoint's limit per token (default 600 a minute, in memory); false: none. */
  rateLimit?: GraphqlRateLimit | false;
}

/**
 * Whose GraphQL requests count together: the token of `Authorization: Bearer <token>` (the first such part of the
 * header, as the token resolver reads it); requests without one (the public schema) count by the client's address.
 */
export const byGraphqlToken: RateLimitKey = (ctx) => {
  for (const part of (ctx.request.getHeader('authorization') ?? '').split(',')) {
    const match = /^Bearer\s+(.+)$/i.exec(part.trim());
    if (match) return match[1]!.trim();
  }
  return undefined;
};

/**
 * What is registered: the GraphQL endpoint on its configurable path (rate limited per token), the asset files, the
 * GraphiQL page and the admin API (its service and its key check come from this app's own injection container), the
 * OpenAPI document of the REST routes; request ids with the access log, `/health` and `/ready`, compression and
 * trust proxy.
 */
export function buildContentApp(service: ContentService, options: ContentAppOptions = {}): TemplatedApp {
  return contentApp(service, options).build();
}

/** The app before it is built (what `startServer` takes). */
export function contentApp(service: ContentService, options: ContentAppOptions = {}): RestBuilder {
  const graphqlPath = options.graphqlPath ?? '/api';
  // One container per app: two servers in one process (tests, benchmarks) keep their own services.
  const container = rootContainer.createChildContainer();
  container.registerInstance(AdminService, new AdminService(service.store, service.access));
  container.registerInstance(AdminKeyAuthentication, new AdminKeyAuthentication(options.adminKey ?? null));
  const builder = new RestBuilder(options.app);
  if (options.logger) builder.logger(options.logger);
  // Request ids, trust proxy, /health and /ready, compression, the access log.
  useOperations(builder, options);
  // A server span per request, the GraphQL phases and the database's spans under it, when telemetry is on (telemetry.ts).
  if (telemetryStarted()) builder.use(openTelemetry());
  const limit = options.rateLimit ?? { limit: DEFAULT_GRAPHQL_RATE_LIMIT_PER_MINUTE };
  // Without the plugin (false), @RateLimit(GRAPHQL_RATE_LIMIT_RULE) does nothing.
  if (limit !== false) {
    builder.use(
      rateLimit({
        key: byGraphqlToken,
        rules: { [GRAPHQL_RATE_LIMIT_RULE]: { limit: limit.limit, windowSeconds: limit.windowSeconds ?? 60 } },
        ...rateLimitStoreOptions(limit),
      }),
    );
  }
  return (
    builder
      .injectWith(new TsyringeInjectionProvider(container))
      // A query needs far less than the framework's 1 MiB; larger bodies get 413 before they are read.
      .bodyHandler({ maxBodySize: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES })
      // The 413, 405 and framing errors the framework answers before a route runs: GraphQL-shaped on the endpoint.
      .errorHandlerFor(WebApplicationException, new GraphqlEndpointErrorHandler(graphqlPath))
      .register(
        graphqlResource(graphqlPath, service.graphql),
        assetResource(service.files),
        graphiqlResource(graphqlPath),
        AdminResource,
      )
      .use(
        openApi({
          title: 'Content GraphQL',
          version: '1.0.0',
          path: OPENAPI_PATH,
          description:
            `The GraphQL endpoint (${graphqlPath}: GET, POST, the CMS's answers), asset files and the admin API (X-Admin-Key). ` +
            'The GraphQL schema itself is read by introspection (GraphiQL at /graphiql).',
        }),
      )
  );
}
