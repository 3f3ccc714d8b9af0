import { startServer, type Server } from 'rest.uws';
import {
  appRateLimitStore,
  DEFAULT_POSTGRES_POOL_SIZE,
  databaseReadinessCheck,
  openDatabase,
  type Database,
} from 'app-support';
import { createContentService, type ContentService } from './content-service';
import type { ContentDB } from './storage/database-types';
import { contentApp } from './app';
import { DEFAULT_GRAPHQL_RATE_LIMIT_PER_MINUTE, type ContentServerOptions } from './config';

export type { ContentServerOptions } from './config';

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
    postgres: { max: options.postgresPoolSize ?? DEFAULT_POSTGRES_POOL_SIZE },
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
