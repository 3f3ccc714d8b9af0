import { RestBuilder, TsyringeInjectionProvider, WebApplicationException } from 'rest.uws';
import { container as rootContainer } from 'tsyringe';
import type { TemplatedApp } from 'uWebSockets.js';
import type { ContentService } from './content-service';
import { AdminService } from './domain/admin-service';
import { graphqlResource } from './http/graphql-resource';
import { assetResource } from './http/asset-resource';
import { graphiqlResource } from './http/graphiql-resource';
import { AdminResource } from './http/admin-resource';
import { AdminKeyAuthentication } from './http/admin-key-authentication';
import { GraphqlEndpointErrorHandler } from './http/graphql-errors';

/** Request body limit of the API (queries, variables, admin calls). */
export const DEFAULT_MAX_REQUEST_BYTES = 256 * 1024;

export interface ContentAppOptions {
  /** Path of the GraphQL endpoint (default /api). */
  graphqlPath?: string;
  /** The uWebSockets.js app to register on (a new one when absent). */
  app?: TemplatedApp;
  /** Key of the admin REST API (`X-Admin-Key`); null/absent = admin API off (404). */
  adminKey?: string | null;
  /** Largest request body accepted (default 256 KiB); larger ones get 413. */
  maxRequestBytes?: number;
}

/**
 * What is registered: the GraphQL endpoint on its configurable path, the asset files, the GraphiQL page and the
 * admin API (its service and its key check come from this app's own injection container).
 */
export function buildContentApp(service: ContentService, options: ContentAppOptions = {}): TemplatedApp {
  const graphqlPath = options.graphqlPath ?? '/api';
  // One container per app: two servers in one process (tests, benchmarks) keep their own services.
  const container = rootContainer.createChildContainer();
  container.registerInstance(AdminService, new AdminService(service.store, service.access));
  container.registerInstance(AdminKeyAuthentication, new AdminKeyAuthentication(options.adminKey ?? null));
  return new RestBuilder(options.app)
    .injectWith(new TsyringeInjectionProvider(container))
    // A query needs far less than the framework's 1 MiB; larger bodies get 413 before they are read.
    .bodyHandler({ maxBodySize: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES })
    // The 413, 405 and framing errors the framework answers before a route runs: GraphQL-shaped on the endpoint.
    .errorHandlerFor(WebApplicationException, new GraphqlEndpointErrorHandler(graphqlPath))
    .register(graphqlResource(graphqlPath, service.graphql), assetResource(service.files), graphiqlResource(graphqlPath), AdminResource)
    .build();
}
