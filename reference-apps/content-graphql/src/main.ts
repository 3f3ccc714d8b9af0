import { describeServerConfig, readServerConfig } from 'app-support';
import { parseArgs } from 'node:util';
import { DEFAULT_DATABASE_URL, LOCATION_OPTIONS, assetsDirFrom } from './cli/cli-environment';
import { startContentServer } from './server';
import type { ExecutorKind } from './graphql/query-executor';

/**
 * `npm start -w content-graphql`: PORT (4000), HOST, DATABASE_URL, ASSETS_DIR, GRAPHQL_PATH (/api), PUBLIC_URL, CONTENT_GRAPHQL_ADMIN_KEY,
 * CONTENT_GRAPHQL_PG_POOL_SIZE (10), CONTENT_GRAPHQL_CHANGE_POLL_MS (1000), CONTENT_GRAPHQL_EXECUTOR (jit), and the GraphQL limits.
 */
async function main(): Promise<void> {
  // --port, --host and --database are read by readServerConfig, --assets here; anything else is an error.
  const flags = parseArgs({ args: process.argv.slice(2), options: { ...LOCATION_OPTIONS, port: { type: 'string' }, host: { type: 'string' } }, strict: true }).values;
  const config = readServerConfig({ port: 4000, databaseUrl: DEFAULT_DATABASE_URL, envPrefix: 'CONTENT_GRAPHQL' });
  const server = await startContentServer({
    host: config.host, port: config.port, databaseUrl: config.databaseUrl, assetsRoot: assetsDirFrom(flags, process.env),
    graphqlPath: process.env.GRAPHQL_PATH ?? '/api', publicUrl: process.env.PUBLIC_URL,
    adminKey: process.env.CONTENT_GRAPHQL_ADMIN_KEY ?? null,
    postgresPoolSize: positiveInteger('CONTENT_GRAPHQL_PG_POOL_SIZE', 10),
    maxRequestBytes: positiveInteger('CONTENT_GRAPHQL_MAX_REQUEST_BYTES', 256 * 1024),
    settings: {
      enableGraphQlCaching: process.env.ENABLE_GRAPHQL_CACHING !== 'false',
      // The CMS ships these off (0); a server on the open internet should not, so ours ships them on.
      maxGraphqlDepth: positiveInteger('MAX_GRAPHQL_DEPTH', 10, true),
      maxGraphqlComplexity: positiveInteger('MAX_GRAPHQL_COMPLEXITY', 10_000, true),
      maxGraphqlAliases: positiveInteger('MAX_GRAPHQL_ALIASES', 100, true),
      maxGraphqlTokens: positiveInteger('MAX_GRAPHQL_TOKENS', 10_000, true),
      maxGraphqlResults: positiveInteger('MAX_GRAPHQL_RESULTS', 0, true),
      enableGraphqlIntrospection: process.env.ENABLE_GRAPHQL_INTROSPECTION !== 'false',
      changePollMs: positiveInteger('CONTENT_GRAPHQL_CHANGE_POLL_MS', 1000, true),
      executor: executorKind(process.env.CONTENT_GRAPHQL_EXECUTOR),
    },
  });
  console.log(describeServerConfig('content-graphql', config, server.port));
  const stop = () => { void server.close().then(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** `CONTENT_GRAPHQL_EXECUTOR`: jit (default) or graphql-js (plain execute, for debugging). */
function executorKind(text: string | undefined): ExecutorKind {
  if (text === undefined || text === '' || text === 'jit') return 'jit';
  if (text === 'graphql-js') return 'graphql-js';
  throw new Error(`CONTENT_GRAPHQL_EXECUTOR must be jit or graphql-js, got "${text}"`);
}

function positiveInteger(name: string, fallback: number, zeroAllowed = false): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < (zeroAllowed ? 0 : 1)) throw new Error(`${name} must be a whole number${zeroAllowed ? ' of 0 or more' : ' above 0'}, got "${text}"`);
  return value;
}

main().catch((error: unknown) => {
  console.error(`content-graphql: ${(error as Error).message}`);
  process.exit(1);
});
