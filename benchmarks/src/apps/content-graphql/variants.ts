/** The four servers measured: the app on rest.uws and graphql-http's Node handler, each with and without a result cache. */
import type { ServerDefinition } from '../../servers/registry';

export interface Variant {
  id: string;
  label: string;
  server: ServerDefinition;
  caching: boolean;
}

// Server files are given relative to dist/src/servers/, where the harness's registry resolves them.
const REST_UWS: ServerDefinition = { id: 'content-graphql-rest-uws', label: 'rest.uws (content-graphql)', file: '../apps/content-graphql/rest-uws-server.js' };
const GRAPHQL_HTTP: ServerDefinition = { id: 'content-graphql-graphql-http', label: 'graphql-http on node:http', file: '../apps/content-graphql/graphql-http-server.js' };

export const VARIANTS: Variant[] = [
  { id: 'rest-uws-uncached', label: 'rest.uws, cache off', server: REST_UWS, caching: false },
  { id: 'graphql-http-uncached', label: 'graphql-http, no cache', server: GRAPHQL_HTTP, caching: false },
  { id: 'rest-uws-cached', label: 'rest.uws, cache on', server: REST_UWS, caching: true },
  { id: 'graphql-http-cached', label: 'graphql-http, same cache (onSubscribe)', server: GRAPHQL_HTTP, caching: true },
];

/** The ratios the issue asks for, as numerator / denominator variant ids, with their targets. */
export const RATIOS = [
  { name: 'uncached', numerator: 'rest-uws-uncached', denominator: 'graphql-http-uncached', target: 1.5 },
  { name: 'cached (both with the cache)', numerator: 'rest-uws-cached', denominator: 'graphql-http-cached', target: 5 },
  { name: 'cached vs graphql-http as it ships (no cache)', numerator: 'rest-uws-cached', denominator: 'graphql-http-uncached', target: 5 },
] as const;
