import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { closeAllWebSockets, loadUws, RestBuilder } from 'rest.uws';
import { parseDatabaseUrl } from 'app-support';
import { ApiKeyStore } from './storage/api-key-store';
import { capabilitiesOf, createOfflineEngines, type VoiceEngines } from './engines/voice-engines';
import { openSessionRegistry } from './storage/open-session-registry';
import type { PostgresRegistryOptions } from './storage/postgres-session-registry';
import type { SessionRegistry } from './domain/registry/session-registry';
import { validateSessionRequest } from './domain/session/session-request';
import type { SessionLimits } from './domain/session/session-limits';
import { openVoiceDatabase } from './storage/open-voice-database';
import { defaultMaxSessions, SessionCapacity } from './domain/session-capacity';
import { voiceApp } from './app';

export interface VoiceServerOptions {
  /** Default 0: a free port chosen by the kernel (read it back from `port`). */
  readonly port?: number;
  /** Default 127.0.0.1; 0.0.0.0 to be reachable from other machines. */
  readonly host?: string;
  /**
   * SQLite path, sqlite::memory: or postgres://... Default: in memory. API keys live there; with PostgreSQL
   * the sessions and tokens too, shared by every instance on the database (with SQLite they stay in memory).
   */
  readonly databaseUrl?: string;
  /** Public base URL (`https://voice.example.com`): streaming_url becomes wss://... of it. */
  readonly publicBaseUrl?: string;
  /** Engines to use; default: the offline ones (stopped by `close`). */
  readonly engines?: VoiceEngines;
  readonly limits?: Partial<SessionLimits>;
  readonly registry?: Partial<PostgresRegistryOptions>;
  /** Concurrent sessions of this instance (default: sized for the machine, `defaultMaxSessions()`); more get 503. */
  readonly maxSessions?: number;
}

export interface VoiceServer {
  readonly port: number;
  /** http://127.0.0.1:<port>, for clients on this machine. */
  readonly url: string;
  readonly engines: VoiceEngines;
  readonly registry: SessionRegistry;
  readonly capacity: SessionCapacity;
  /** Issues an API key (what `keys create` does): tests and benchmarks use it. */
  createApiKey(label: string): Promise<string>;
  /** Stops listening, ends every stream (1001), stops the engines and closes the database. */
  close(): Promise<void>;
}

/** Opens the key database, starts the engines and serves the voice API on one port. */
export async function startVoiceServer(options: VoiceServerOptions = {}): Promise<VoiceServer> {
  const uws = loadUws();
  const capacity = new SessionCapacity(options.maxSessions ?? defaultMaxSessions());
  const host = options.host ?? '127.0.0.1';
  const database = await openVoiceDatabase(options.databaseUrl);
  const keys = new ApiKeyStore(database.db);
  const ownEngines = options.engines === undefined;
  const engines = options.engines ?? createOfflineEngines();
  const capabilities = capabilitiesOf(engines);
  let registry: SessionRegistry;
  try {
    const location = parseDatabaseUrl(options.databaseUrl);
    registry = await openSessionRegistry(
      database,
      location.dialect === 'postgres' ? location.connectionString : undefined,
      (body) => {
        // A session accepted by another instance: this one must be able to run it too (identical instances).
        const result = validateSessionRequest(body, capabilities);
        if ('error' in result) throw new Error(`${result.error.code}: ${result.error.message}`);
        return result.config;
      },
      options.registry,
    );
  } catch (error) {
    if (ownEngines) await engines.close();
    await database.destroy();
    throw error;
  }
  let port = options.port ?? 0;
  let app: TemplatedApp;
  let socket: us_listen_socket;
  try {
    app = voiceApp({ engines, keys, registry, capacity, limits: options.limits }, { publicBaseUrl: options.publicBaseUrl, fallbackHost: () => `${host}:${port}` }, new RestBuilder()).build();
    socket = await new Promise<us_listen_socket>((resolve, reject) => {
      app.listen(host, port, (listening) => {
        if (listening) resolve(listening);
        else reject(new Error(`voice-stream: cannot listen on ${host}:${port} (in use, or not an address of this machine)`));
      });
    });
  } catch (error) {
    await registry.close();
    if (ownEngines) await engines.close();
    await database.destroy();
    throw error;
  }
  port = uws.us_socket_local_port(socket as never);
  const clientHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://${clientHost}:${port}`,
    engines,
    registry,
    capacity,
    createApiKey: async (label) => (await keys.create(label)).key,
    close: () =>
      (closing ??= (async () => {
        uws.us_listen_socket_close(socket);
        await registry.close();
        closeAllWebSockets(app);
        // uWebSockets.js 20.30 has App.close() (closes kept-alive connections); its typings lack it.
        (app as TemplatedApp & { close?: () => void }).close?.();
        if (ownEngines) await engines.close();
        await database.destroy();
      })()),
  };
}
