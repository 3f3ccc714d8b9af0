import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  DEFAULT_POSTGRES_POOL_SIZE,
  parseLogLevel,
  parseRequestsPerMinute,
  parseTrustProxy,
  readServerConfig,
  type LogLevel,
  type AppRateLimit,
  type ServerConfig,
  type TrustProxySetting,
} from 'app-support';
import type { Logger } from 'rest.uws';
import type { ExecutorKind } from './graphql/query-executor';
import type { GraphqlSettings } from './graphql/graphql-settings';

/** Where the app keeps its data unless told otherwise (`--database`/`DATABASE_URL`, `--assets`/`ASSETS_DIR`). */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/content-graphql.db';
export const DEFAULT_ASSETS_DIR = './data/assets';
export const DEFAULT_PORT = 4000;
/** GraphQL requests a token (or, without one, a client address) may send per minute, unless --rate-limit says otherwise. */
export const DEFAULT_GRAPHQL_RATE_LIMIT_PER_MINUTE = 600;

/** What `startContentServer` takes (main.ts builds it from flags and the environment: `readContentConfig`). */
export interface ContentServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  databaseUrl: string;
  assetsRoot: string;
  graphqlPath?: string;
  /** Public address; defaults to http://<host>:<port>. */
  publicUrl?: string;
  settings?: Partial<GraphqlSettings>;
  /** Key of the admin REST API (`X-Admin-Key`); null/absent = admin API off. */
  adminKey?: string | null;
  /** PostgreSQL pool size of this instance (default app-support's DEFAULT_POSTGRES_POOL_SIZE, 4). */
  postgresPoolSize?: number;
  /** Largest request body accepted (default 256 KiB); larger ones get 413. */
  maxRequestBytes?: number;
  /** Where the log goes (a pino logger fits; main.ts logs JSON on stdout); default: rest.uws's console logger. */
  logger?: Logger;
  /** Which proxies' X-Forwarded-* headers count (client address): default off (see rest.uws trustProxy). */
  trustProxy?: TrustProxySetting;
  /**
   * The GraphQL endpoint's limit per token: default 600 per 60 s; false: none. Counted in memory on SQLite and in
   * the database on PostgreSQL (shared by every instance on it).
   */
  rateLimit?: Pick<AppRateLimit, 'limit' | 'windowSeconds'> | false;
  /** How long a stop waits for requests in flight (default 10 s). */
  shutdownTimeoutMs?: number;
}

/** The flags every command takes: where the database and the asset files are. */
export const LOCATION_OPTIONS = {
  database: { type: 'string' },
  assets: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export interface Locations {
  database?: string;
  assets?: string;
}

export function databaseUrlFrom(flags: Locations, env: NodeJS.ProcessEnv): string {
  return flags.database ?? env.CONTENT_GRAPHQL_DATABASE_URL ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

export function assetsDirFrom(flags: Locations, env: NodeJS.ProcessEnv): string {
  return resolve(flags.assets ?? env.ASSETS_DIR ?? DEFAULT_ASSETS_DIR);
}

/** What main.ts needs beside the server's options: the log level of its logger. */
export interface ContentRunConfig {
  /** Level of the JSON log on stdout: info writes one access line per request (with its request id). */
  logLevel: LogLevel;
}

/**
 * The server's configuration from its flags (`--port`, `--host`, `--database`, `--assets`, `--trust-proxy`,
 * `--rate-limit`, `--log-level`; anything else is an error) and environment: PORT (4000), HOST, DATABASE_URL,
 * ASSETS_DIR, GRAPHQL_PATH (/api), PUBLIC_URL, CONTENT_GRAPHQL_ADMIN_KEY, CONTENT_GRAPHQL_PG_POOL_SIZE (4),
 * CONTENT_GRAPHQL_MAX_REQUEST_BYTES (262144), CONTENT_GRAPHQL_CHANGE_POLL_MS (1000), CONTENT_GRAPHQL_EXECUTOR (jit),
 * the GraphQL limits, and the operations: CONTENT_GRAPHQL_TRUST_PROXY (off, a hop count, or addresses and ranges),
 * CONTENT_GRAPHQL_RATE_LIMIT (GraphQL requests per minute per token, or off; default 600), CONTENT_GRAPHQL_LOG_LEVEL.
 */
export function readContentConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { server: ServerConfig; options: ContentServerOptions; run: ContentRunConfig } {
  const operationFlags = {
    'trust-proxy': { type: 'string' },
    'rate-limit': { type: 'string' },
    'log-level': { type: 'string' },
  } as const;
  const flags = parseArgs({
    args: [...argv],
    options: { ...LOCATION_OPTIONS, port: { type: 'string' }, host: { type: 'string' }, ...operationFlags },
    strict: true,
  }).values;
  const server = readServerConfig(
    { port: DEFAULT_PORT, databaseUrl: DEFAULT_DATABASE_URL, envPrefix: 'CONTENT_GRAPHQL' },
    argv,
    env,
  );
  const pick = (flag: keyof typeof operationFlags, envName: string): [string | undefined, string] =>
    flags[flag] !== undefined ? [flags[flag], `--${flag}`] : [env[envName], envName];
  const rateLimit = parseRequestsPerMinute(
    ...pick('rate-limit', 'CONTENT_GRAPHQL_RATE_LIMIT'),
    DEFAULT_GRAPHQL_RATE_LIMIT_PER_MINUTE,
  );
  const number = (name: string, fallback: number, zeroAllowed = false) =>
    positiveInteger(env, name, fallback, zeroAllowed);
  return {
    server,
    options: {
      host: server.host,
      port: server.port,
      databaseUrl: server.databaseUrl,
      assetsRoot: assetsDirFrom(flags, env),
      graphqlPath: env.GRAPHQL_PATH ?? '/api',
      publicUrl: env.PUBLIC_URL,
      adminKey: env.CONTENT_GRAPHQL_ADMIN_KEY ?? null,
      trustProxy: parseTrustProxy(...pick('trust-proxy', 'CONTENT_GRAPHQL_TRUST_PROXY')),
      rateLimit: rateLimit === false ? false : { limit: rateLimit, windowSeconds: 60 },
      postgresPoolSize: number('CONTENT_GRAPHQL_PG_POOL_SIZE', DEFAULT_POSTGRES_POOL_SIZE),
      maxRequestBytes: number('CONTENT_GRAPHQL_MAX_REQUEST_BYTES', 256 * 1024),
      settings: {
        enableGraphQlCaching: env.ENABLE_GRAPHQL_CACHING !== 'false',
        // The CMS ships these off (0); a server on the open internet should not, so ours ships them on.
        maxGraphqlDepth: number('MAX_GRAPHQL_DEPTH', 10, true),
        maxGraphqlComplexity: number('MAX_GRAPHQL_COMPLEXITY', 10_000, true),
        maxGraphqlAliases: number('MAX_GRAPHQL_ALIASES', 100, true),
        maxGraphqlTokens: number('MAX_GRAPHQL_TOKENS', 10_000, true),
        maxGraphqlResults: number('MAX_GRAPHQL_RESULTS', 0, true),
        enableGraphqlIntrospection: env.ENABLE_GRAPHQL_INTROSPECTION !== 'false',
        changePollMs: number('CONTENT_GRAPHQL_CHANGE_POLL_MS', 1000, true),
        executor: executorKind(env.CONTENT_GRAPHQL_EXECUTOR),
      },
    },
    run: { logLevel: parseLogLevel(...pick('log-level', 'CONTENT_GRAPHQL_LOG_LEVEL'), 'info') },
  };
}

/** `CONTENT_GRAPHQL_EXECUTOR`: jit (default) or graphql-js (plain execute, for debugging). */
function executorKind(text: string | undefined): ExecutorKind {
  if (text === undefined || text === '' || text === 'jit') return 'jit';
  if (text === 'graphql-js') return 'graphql-js';
  throw new Error(`CONTENT_GRAPHQL_EXECUTOR must be jit or graphql-js, got "${text}"`);
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, zeroAllowed: boolean): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < (zeroAllowed ? 0 : 1))
    throw new Error(`${name} must be a whole number${zeroAllowed ? ' of 0 or more' : ' above 0'}, got "${text}"`);
  return value;
}
