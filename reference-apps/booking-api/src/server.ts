import { startServer, type Logger } from 'rest.uws';
import { appRateLimitStore, databaseReadinessCheck, type Clock, type TrustProxySetting } from 'app-support';
import { openBookingSystem, type BookingSystem, type BookingSystemOptions } from './booking-system';
import { bookingApp, type BookingRateLimit } from './app';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from './config';

export interface BookingServerOptions {
  /** Default 0: a free port chosen by the kernel (read it back from `port`). */
  port?: number;
  /** Default 127.0.0.1; 0.0.0.0 to be reachable from other machines. */
  host?: string;
  /** SQLite path, sqlite::memory: or postgres://... Default: in memory. */
  databaseUrl?: string;
  /** Base of absolute links and of voucher/ticket links; default: each request's Host, links http://localhost:<port>. */
  publicBaseUrl?: string;
  clock?: Clock;
  seedDemoCatalogue?: boolean;
  background?: BookingSystemOptions['background'];
  postgresPoolSize?: number;
  postgresPool?: BookingSystemOptions['postgresPool'];
  /** How long a stop waits for requests in progress before closing the database (default 10 s). */
  shutdownTimeoutMs?: number;
  /** Where unexpected errors are logged (a pino logger fits); default: JSON lines on stderr. */
  logger?: Logger;
  /** Which proxies' X-Forwarded-* headers count: default off (see rest.uws trustProxy). */
  trustProxy?: TrustProxySetting;
  /**
   * The partner API's limit per API key: default 600 per 60 s; false: none. Counted in memory on SQLite and in the
   * database on PostgreSQL (shared by every instance on it).
   */
  rateLimit?: Pick<BookingRateLimit, 'limit' | 'windowSeconds'> | false;
}

export interface BookingServer {
  port: number;
  /** http://127.0.0.1:<port> (or the host it listens on), for clients on this machine. */
  url: string;
  /** Base of the links the server hands out. */
  publicBaseUrl: string;
  /** True when the rate limits are counted in PostgreSQL, shared with the other instances on the database. */
  sharedRateLimits: boolean;
  system: BookingSystem;
  /** Issues an API key for a new partner (what `keys create` does): tests and benchmarks use it. */
  createPartnerKey(partnerName: string): Promise<string>;
  /**
   * Stops gracefully: no new connections, requests in progress finish (their connections then close), then the
   * background work stops and the database closes.
   */
  close(): Promise<void>;
}

/** Opens the booking system (migrations, demo catalogue, background work) and serves the API on one port. */
export async function startBookingServer(options: BookingServerOptions = {}): Promise<BookingServer> {
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? 0;
  // Voucher and ticket links need the port, known only once listening (port 0).
  const linkBase = () => options.publicBaseUrl ?? `http://localhost:${port}`;
  const system = await openBookingSystem({
    databaseUrl: options.databaseUrl,
    publicBaseUrl: linkBase,
    clock: options.clock,
    seedDemoCatalogue: options.seedDemoCatalogue,
    background: options.background,
    postgresPoolSize: options.postgresPoolSize,
    postgresPool: options.postgresPool,
  });
  let server;
  let sharedRateLimits = false;
  try {
    const limit = options.rateLimit ?? { limit: DEFAULT_RATE_LIMIT_PER_MINUTE };
    const store = limit === false ? undefined : await appRateLimitStore(system.database);
    sharedRateLimits = store?.shared ?? false;
    const builder = bookingApp(system, {
      publicBaseUrl: options.publicBaseUrl,
      fallbackBaseUrl: linkBase,
      logger: options.logger,
      trustProxy: options.trustProxy,
      rateLimit: limit === false ? false : { ...limit, ...store!.options },
      readiness: [databaseReadinessCheck(system.database)],
    });
    server = await startServer(builder, { port, host, shutdownTimeoutMs: options.shutdownTimeoutMs });
  } catch (error) {
    await system.close();
    throw error;
  }
  port = server.port;
  const clientHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://${clientHost}:${port}`,
    publicBaseUrl: linkBase(),
    sharedRateLimits,
    system,
    createPartnerKey: async (partnerName) => (await system.partnerKeys.issueKey(partnerName)).key,
    close: () =>
      (closing ??= (async () => {
        await server.shutdown();
        await system.close();
      })()),
  };
}
