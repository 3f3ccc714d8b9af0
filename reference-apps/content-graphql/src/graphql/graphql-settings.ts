import type { ExecutorKind } from './query-executor';

/** The CMS's general-config settings that govern the GraphQL API, with its defaults. */
export interface GraphqlSettings {
  /** `enableGql`: when false the endpoint answers 404. */
  enableGql: boolean;
  /** `enableGraphQlCaching`: cache results until content, structure or schemas change. */
  enableGraphQlCaching: boolean;
  /** `enableGraphqlIntrospection`: when false, `__schema` and `__type` are refused. */
  enableGraphqlIntrospection: boolean;
  /** `maxGraphqlDepth`, `maxGraphqlComplexity`, `maxGraphqlResults`: 0 = no limit (the CMS's defaults; the shipped server sets limits). */
  maxGraphqlDepth: number;
  maxGraphqlComplexity: number;
  maxGraphqlResults: number;
  /** Not a CMS setting: aliased fields per operation (alias floods); 0 = no limit. */
  maxGraphqlAliases: number;
  /** Not a CMS setting: lexical tokens a query may have (graphql-js stops parsing beyond); guards against huge documents. */
  maxGraphqlTokens: number;
  /** Public address of the server; `@web` in site and volume URLs stands for it. */
  publicUrl: string;
  /** `devMode`: show the real message of unexpected errors instead of a generic one. */
  devMode: boolean;
  /** How often (ms) to look for changes made by other processes (CLI, other workers); 0 = never. */
  changePollMs: number;
  /** Not a CMS setting: `jit` (compiled queries, the default) or `graphql-js` (graphql-js's `execute`, for debugging). */
  executor: ExecutorKind;
}

export const DEFAULT_GRAPHQL_SETTINGS: GraphqlSettings = {
  enableGql: true,
  enableGraphQlCaching: true,
  enableGraphqlIntrospection: true,
  maxGraphqlDepth: 0,
  maxGraphqlComplexity: 0,
  maxGraphqlResults: 0,
  maxGraphqlAliases: 0,
  maxGraphqlTokens: 10_000,
  publicUrl: 'http://127.0.0.1:4000',
  devMode: false,
  changePollMs: 1000,
  executor: 'jit',
};
