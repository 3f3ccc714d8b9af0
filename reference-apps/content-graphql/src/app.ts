import { RestBuilder, WebApplicationException } from 'rest.uws';
import type { TemplatedApp } from 'uWebSockets.js';
import type { ContentService } from './content-service';
import { graphqlResource } from './http/graphql-resource';
import { assetResource } from './http/asset-resource';
import { graphiqlResource } from './http/graphiql-resource';
import { adminResource } from './http/admin-resource';
import { GraphqlEndpointErrorHandler } from './http/graphql-errors';

/** Request body limit of the API (queries, variables, admin calls). */
export const DEFAULT_MAX_REQUEST_BYTES = 256 * 1024;

/** What is registered: the GraphQL endpoint on its configurable path, the asset files and the GraphiQL page. */
export function buildContentApp(service: ContentService, options: { graphqlPath?: string; app?: TemplatedApp; adminKey?: string | null; maxRequestBytes?: number } = {}): TemplatedApp {
  const graphqlPath = options.graphqlPath ?? '/api';
  return new RestBuilder(options.app)
    // A query needs far less than the framework's 1 MiB; larger bodies get 413 before they are read.
    .bodyHandler({ maxBodySize: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES })
    // The 413, 405 and framing errors the framework answers before a route runs: GraphQL-shaped on the endpoint.
    .errorHandlerFor(WebApplicationException, new GraphqlEndpointErrorHandler(graphqlPath))
    .register(graphqlResource(graphqlPath, service.graphql), assetResource(service.files), graphiqlResource(graphqlPath), adminResource(service, options.adminKey ?? null))
    .build();
}
