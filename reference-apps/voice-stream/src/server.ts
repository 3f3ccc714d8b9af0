import { RestBuilder, startServer, type Logger, type Server } from 'rest.uws';
import {
  appRateLimitStore,
  databaseReadinessCheck,
  parseDatabaseUrl,
  type Database,
  type TrustProxySetting,
} from 'app-support';
import type { VoiceSchema } from './storage/voice-schema';
import { ApiKeyStore } from './storage/api-key-store';
import { GlossaryStore } from './storage/glossary-store';
import { SpokenTermsStore } from './storage/spoken-terms-store';
import { capabilitiesOf, createOfflineEngines, type VoiceEngines } from './engines/voice-engines';
import { openSessionRegistry } from './storage/open-session-registry';
import type { PostgresRegistryOptions } from './storage/postgres-session-registry';
import type { SessionRegistry } from './domain/registry/session-registry';
import { sessionConfigOf, type SessionRequest, type SessionResources } from './domain/session/session-request';
import type { SessionLimits } from './domain/session/session-limits';
import { openVoiceDatabase } from './storage/open-voice-database';
import { defaultMaxSessions, SessionCapacity } from './domain/session-capacity';
import { voiceApp, type SessionRateLimit } from './app';
import { DEFAULT_SESSION_RATE_LIMIT_PER_MINUTE } from './config';

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
  /** Where the log goes (a pino logger fits; main.ts logs JSON on stdout); default: rest.uws's console logger. */
  readonly logger?: Logger;
  /** Which proxies' X-Forwarded-* headers count: default off (see rest.uws trustProxy). */
  readonly trustProxy?: TrustProxySetting;
  /**
   * Session requests per API key: default 60 per 60 s; false: none. Counted in memory on SQLite and in the
   * database on PostgreSQL (shared by every instance on it).
   */
  readonly sessionRateLimit?: Pick<SessionRateLimit, 'limit' | 'windowSeconds'> | false;
  /** How long a stop waits for HTTP requests in flight (default 10 s). */
  readonly shutdownTimeoutMs?: number;
}

export interface VoiceServer {
  readonly port: number;
  /** http://127.0.0.1:<port>, for clients on this machine. */
  readonly url: string;
  readonly engines: VoiceEngines;
  readonly registry: SessionRegistry;
  readonly capacity: SessionCapacity;
  /** True when the rate limits are counted in PostgreSQL, shared with the other instances on the database. */
  readonly sharedRateLimits: boolean;
  /** The database (API keys; on PostgreSQL also sessions and rate limits), closed by `close`. */
  readonly database: Database<VoiceSchema>;
  /** Issues an API key (what `keys create` does): tests and benchmarks use it. */
  createApiKey(label: string): Promise<string>;
  /**
   * Stops gracefully: `/ready` answers 503 from now on, no new connections, every stream ends (1001), HTTP requests in
   * flight finish; then the engines stop and the database closes.
   */
  close(): Promise<void>;
}

/** Opens the key database, starts the engines and serves the voice API on one port. */
export async function startVoiceServer(options: VoiceServerOptions = {}): Promise<VoiceServer> {
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
      (stored) => {
        // A session accepted by another instance (its request checked there): this one must be able to run it too
        // (identical instances). The resources its ids named travel with it.
        const { resources, ...body } = stored as SessionRequest & { resources?: SessionResources };
        const result = sessionConfigOf(body, capabilities, resources);
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
  let server: Server;
  let sharedRateLimits = false;
  try {
    const limit = options.sessionRateLimit ?? { limit: DEFAULT_SESSION_RATE_LIMIT_PER_MINUTE };
    const store = limit === false ? undefined : await appRateLimitStore(database);
    sharedRateLimits = store?.shared ?? false;
    const builder = new RestBuilder();
    if (options.logger) builder.logger(options.logger);
    voiceApp(
      {
        engines,
        keys,
        glossaries: new GlossaryStore(database.db),
        spokenTerms: new SpokenTermsStore(database.db),
        registry,
        capacity,
        limits: options.limits,
      },
      { publicBaseUrl: options.publicBaseUrl, fallbackHost: () => `${host}:${port}` },
      builder,
      {
        trustProxy: options.trustProxy,
        sessionRateLimit: limit === false ? false : { ...limit, ...store!.options },
        readiness: [databaseReadinessCheck(database)],
      },
    );
    server = await startServer(builder, { port, host, shutdownTimeoutMs: options.shutdownTimeoutMs });
  } catch (error) {
    await registry.close();
    if (ownEngines) await engines.close();
    await database.destroy();
    if (/cannot listen on/.test((error as Error).message))
      throw new Error(`voice-stream: cannot listen on ${host}:${port} (in use, or not an address of this machine)`, {
        cause: error,
      });
    throw error;
  }
  port = server.port;
  const clientHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://${clientHost}:${port}`,
    engines,
    registry,
    capacity,
    sharedRateLimits,
    database,
    createApiKey: async (label) => (await keys.create(label)).key,
    close: () =>
      (closing ??= (async () => {
        // The server first (readiness 503, no new connections, streams closed with 1001, requests in flight
        // answered), then what the streams used: the registry records their ends, the engines and the database stop.
        // Each step runs even when one before it failed (engines are child processes: left running, they would keep
        // the process alive); the first failure is then reported.
        await runAll([
          () => server.shutdown(),
          () => registry.close(),
          () => (ownEngines ? engines.close() : undefined),
          () => database.destroy(),
        ]);
      })()),
  };
}

/** Runs every step in order, each even after a failure of one before it, and rejects with the first failure. */
async function runAll(steps: ReadonlyArray<() => unknown>): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
