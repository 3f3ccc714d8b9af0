import { startServer, type Logger, type Server } from 'rest.uws';
import {
  appRateLimitStore,
  databaseReadinessCheck,
  openDatabase,
  type Database,
  type TrustProxySetting,
} from 'app-support';
import { createContentService, type ContentService } from './content-service';
import type { ContentDB } from './storage/database-types';
import type { GraphqlSettings } from './graphql/graphql-settings';
import { contentApp, type GraphqlRateLimit } from './app';
import { DEFAULT_GRAPHQL_RATE_LIMIT_PER_MINUTE } from './config';

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
  /** PostgreSQL pool size of this instance (default 10). */
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
  rateLimit?: Pick<GraphqlRateLimit, 'limit' | 'windowSeconds'> | false;
  /** How long a stop waits for requests in flight (default 10 s). */
  shutdownTimeoutMs?: number;
}

export interface RunningContentServer {
  port: number;
  url: string;
  service: ContentService;
  database: Database<ContentDB>;
  /** True when the rate limits are counted in PostgreSQL, shared with the other instances on the database. */
  sharedRateLimits: boolean;
  /** Stops gracefully (`/ready` 503 at once, requests in flight answered), then closes the service and the database. */
  close(): Promise<void>;
}

/** Opens the database, builds the app and listens; `close()` stops the server and closes the database. */
export async function startContentServer(options: ContentServerOptions): Promise<RunningContentServer> {
  const database = await openDatabase<ContentDB>(options.databaseUrl, {
    postgres: { max: options.postgresPoolSize ?? 10 },
  });
  let service: ContentService | null = null;
  let server: Server | null = null;
  let sharedRateLimits = false;
  try {
    service = await createContentService({
      db: database.db,
      dialect: database.dialect,
      assetsRoot: options.assetsRoot,
      // `@web` URLs need the server's address, known once it listens (port 0): set below, before any request.
      settings: { publicUrl: options.publicUrl ?? '', ...options.settings },
      // Several instances may share a PostgreSQL database: hear each other's changes at once.
      listenUrl: database.dialect === 'postgres' ? options.databaseUrl : undefined,
    });
    const limit = options.rateLimit ?? { limit: DEFAULT_GRAPHQL_RATE_LIMIT_PER_MINUTE };
    const store = limit === false ? undefined : await appRateLimitStore(database);
    sharedRateLimits = store?.shared ?? false;
    const builder = contentApp(service, {
      graphqlPath: options.graphqlPath,
      adminKey: options.adminKey ?? null,
      maxRequestBytes: options.maxRequestBytes,
      logger: options.logger,
      trustProxy: options.trustProxy,
      rateLimit: limit === false ? false : { ...limit, ...store!.options },
      readiness: [databaseReadinessCheck(database)],
    });
    server = await startServer(builder, {
      host: options.host,
      port: options.port,
      shutdownTimeoutMs: options.shutdownTimeoutMs,
    });
  } catch (error) {
    await service?.close();
    await database.destroy();
    throw error;
  }
  const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${server.port}`;
  // Still in the turn that started listening: no request has been read yet.
  if (options.publicUrl === undefined && options.settings?.publicUrl === undefined) service.graphql.servedAt(url);
  const running = service;
  const listening = server;
  let closing: Promise<void> | undefined;
  return {
    port: server.port,
    url,
    service: running,
    database,
    sharedRateLimits,
    close: () =>
      (closing ??= (async () => {
        await listening.shutdown();
        await running.close();
        await database.destroy();
      })()),
  };
}
