// The content GraphQL API (issue 6): storage, schemas and tokens, and the transport-independent GraphQL service.
export {
  createContentService,
  DEMO_PUBLIC_SCOPE,
  type ContentService,
  type ContentServiceOptions,
} from './content-service';
export { GraphqlService } from './graphql/graphql-service';
export type { GraphqlRequest, GraphqlResponse, CachedGraphqlAnswer, GraphqlPhase } from './graphql/graphql-response';
export { DEFAULT_GRAPHQL_SETTINGS, type GraphqlSettings } from './graphql/graphql-settings';
export { buildGraphqlSchema } from './graphql/schema-builder';
export { ContentStore, type ChangeKind } from './storage/content-store';
export { AccessStore, AccessError, type GqlSchemaRecord, type GqlTokenRecord } from './storage/access-store';
export { expandScope, resolveScope, ScopeError } from './domain/access/scope';
export { AssetFileService, type AssetFileAnswer } from './domain/assets/asset-file-service';
export { exportContent, type ContentDocument } from './domain/content-export';
export { importContent, ImportError } from './domain/content-import';
export { migrateContentDatabase } from './storage/migrations';
export type { ContentDB } from './storage/database-types';
export { runContentCli } from './cli/content-cli';
export { runAccessCli } from './cli/access-cli';
export { RequestContext } from './graphql/request-context';
export { ResultCache } from './graphql/result-cache';
export { startContentServer, type ContentServerOptions, type RunningContentServer } from './server';
