import { loadUws } from 'rest.uws';
import { openDatabase } from 'app-support';
import { createContentService, type ContentService } from './content-service';
import type { ContentDB } from './storage/database-types';
import type { GraphqlSettings } from './graphql/graphql-settings';
import { buildContentApp } from './app';

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
}

export interface RunningContentServer {
  port: number;
  url: string;
  service: ContentService;
  close(): Promise<void>;
}

/** Opens the database, builds the app and listens; `close()` stops listening and closes the database. */
export async function startContentServer(options: ContentServerOptions): Promise<RunningContentServer> {
  const uws = loadUws();
  const database = await openDatabase<ContentDB>(options.databaseUrl, { postgres: { max: options.postgresPoolSize ?? 10 } });
  const app = uws.App();
  let service: ContentService | null = null;
  let socket: unknown = null;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      app.listen(options.host, options.port, (listenSocket) => {
        if (!listenSocket) return reject(new Error(`Cannot listen on ${options.host}:${options.port}`));
        socket = listenSocket;
        resolve(uws.us_socket_local_port(listenSocket));
      });
    });
    const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${port}`;
    service = await createContentService({
      db: database.db, dialect: database.dialect, assetsRoot: options.assetsRoot,
      settings: { publicUrl: options.publicUrl ?? url, ...options.settings },
      // Several instances may share a PostgreSQL database: hear each other's changes at once.
      listenUrl: database.dialect === 'postgres' ? options.databaseUrl : undefined,
    });
    buildContentApp(service, { app, graphqlPath: options.graphqlPath, adminKey: options.adminKey ?? null, maxRequestBytes: options.maxRequestBytes });
    const running = service;
    return {
      port, url, service: running,
      close: async () => {
        if (socket) uws.us_listen_socket_close(socket as never);
        socket = null;
        await running.close();
        await database.destroy();
      },
    };
  } catch (error) {
    if (socket) uws.us_listen_socket_close(socket as never);
    await service?.close();
    await database.destroy();
    throw error;
  }
}
