import { RestBuilder } from 'rest.uws';
import type { TemplatedApp } from 'uWebSockets.js';
import type { ContentService } from './content-service';
import { graphqlResource } from './http/graphql-resource';
import { assetResource } from './http/asset-resource';
import { graphiqlResource } from './http/graphiql-resource';
import { adminResource } from './http/admin-resource';

/** What is registered: the GraphQL endpoint on its configurable path, the asset files and the GraphiQL page. */
export function buildContentApp(service: ContentService, options: { graphqlPath?: string; app?: TemplatedApp; adminKey?: string | null } = {}): TemplatedApp {
  return new RestBuilder(options.app)
    .register(graphqlResource(options.graphqlPath ?? '/api', service.graphql), assetResource(service.files), graphiqlResource(options.graphqlPath ?? '/api'), adminResource(service, options.adminKey ?? null))
    .build();
}
