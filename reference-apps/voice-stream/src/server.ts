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
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JobStore } from './storage/job-store';
import { JobService } from './domain/jobs/job-service';
import { JobWorker } from './domain/jobs/job-worker';
import { DEFAULT_JOB_LIMITS, type JobLimits } from './domain/jobs/job-request';

/** How the audio-file jobs run (server options; the defaults follow DeepL's published limits where it has them). */
export interface VoiceJobOptions {
  /**
   * Folder of the jobs' files (uploaded sources, results). Default: `voice-jobs` beside a SQLite file, a temporary
   * folder (removed by `close`) for an in-memory database, `data/voice-jobs` of the app with PostgreSQL. Instances
   * sharing a PostgreSQL database must share this folder (a network volume) to process each other's jobs.
   */
  readonly directory?: string;
  /** Jobs this instance processes at once (default 1: a job keeps one core busy). */
  readonly concurrency?: number;
  readonly limits?: Partial<JobLimits>;
  /** How long after its creation a job takes its upload (default 5 minutes). */
  readonly uploadWindowMs?: number;
  /** How long a job and its results are kept after its upload, and after it ended (default 1 hour). */
  readonly retentionMs?: number;
  /** How long a worker's claim on a job holds without a heartbeat (default 30 s). */
  readonly leaseMs?: number;
  /** How often an idle worker looks at the queue (default 2 s; an upload to this instance wakes it at once). */
  readonly pollMs?: number;
}

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
  /** The audio-file translation jobs. */
  readonly jobs?: VoiceJobOptions;
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
  /** The jobs' worker of this instance and their folder. */
  readonly jobs: { readonly worker: JobWorker; readonly directory: string };
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
  const location = parseDatabaseUrl(options.databaseUrl);
  try {
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
  const jobOptions = options.jobs ?? {};
  const temporaryJobs =
    jobOptions.directory === undefined && location.dialect === 'sqlite' && location.file === ':memory:';
  const jobsDirectory =
    jobOptions.directory ??
    (temporaryJobs
      ? mkdtempSync(path.join(tmpdir(), 'voice-jobs-'))
      : location.dialect === 'sqlite'
        ? path.join(path.dirname(location.file), 'voice-jobs')
        : path.resolve(__dirname, '..', '..', 'data', 'voice-jobs'));
  mkdirSync(jobsDirectory, { recursive: true, mode: 0o700 });
  const jobLimits: JobLimits = { ...DEFAULT_JOB_LIMITS, ...jobOptions.limits };
  const retentionMs = jobOptions.retentionMs ?? 60 * 60 * 1000;
  const jobStore = new JobStore(database.db, location.dialect);
  const jobWorker = new JobWorker(jobStore, engines, {
    directory: jobsDirectory,
    concurrency: jobOptions.concurrency ?? 1,
    leaseMs: jobOptions.leaseMs ?? 30_000,
    pollMs: jobOptions.pollMs ?? 2_000,
    retentionMs,
    limits: jobLimits,
    requeueOnStart: location.dialect === 'sqlite',
    log: (message, fields) => options.logger?.info({ ...fields }, `voice-stream jobs: ${message}`),
  });
  const jobService = new JobService(
    jobStore,
    {
      directory: jobsDirectory,
      limits: jobLimits,
      uploadWindowMs: jobOptions.uploadWindowMs ?? 5 * 60 * 1000,
      retentionMs,
    },
    jobWorker,
  );
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
        jobs: jobService,
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
    await jobWorker.start();
  } catch (error) {
    await jobWorker.close();
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
    jobs: { worker: jobWorker, directory: jobsDirectory },
    createApiKey: async (label) => (await keys.create(label)).key,
    close: () =>
      (closing ??= (async () => {
        // The server first (readiness 503, no new connections, streams closed with 1001, requests in flight
        // answered), then what the streams used: the registry records their ends, the engines and the database stop.
        // Each step runs even when one before it failed (engines are child processes: left running, they would keep
        // the process alive); the first failure is then reported.
        await runAll([
          () => server.shutdown(),
          // Jobs running are abandoned (queued again, started over by the next run or another instance).
          () => jobWorker.close(),
          () => registry.close(),
          () => (ownEngines ? engines.close() : undefined),
          () => database.destroy(),
          () => (temporaryJobs ? rmSync(jobsDirectory, { recursive: true, force: true }) : undefined),
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
