import {
  appRateLimitStore,
  databaseReadinessCheck,
  findFreePort,
  parseDatabaseUrl,
  redactDatabaseUrl,
} from 'app-support';
import { isServeWorker, serve, type ServeHandle } from 'rest.uws';
import { bookingApp } from './app';
import type { BookingConfig } from './config';
import { openBookingSystem } from './booking-system';
import { bookingLogger } from './http/app-logger';

/** The port the main thread chose, handed to the workers (which run main.js again) through their environment. */
const SERVE_PORT_VARIABLE = 'BOOKING_SERVE_PORT';

/**
 * `--workers N` (N >= 2): rest.uws serve() runs N worker threads that share the port (the kernel spreads the
 * connections). The main thread migrates the database and seeds the demo catalogue once, then starts the workers;
 * each worker opens its own pool and runs its own fulfilment and timeout jobs (the database's row locks keep them
 * from doing a booking twice, as with separate instances). A worker that dies is replaced by serve().
 * SQLite is refused: one file written by several threads would turn lock waits into errors; use PostgreSQL.
 */
export async function serveBookingWorkers(config: BookingConfig): Promise<ServeHandle> {
  const worker = isServeWorker();
  if (!worker) {
    if (parseDatabaseUrl(config.databaseUrl).dialect !== 'postgres') {
      throw new Error(
        `--workers ${config.workers} needs PostgreSQL (--database postgres://...); SQLite serves one thread: leave --workers out`,
      );
    }
    const once = await openBookingSystem({
      databaseUrl: config.databaseUrl,
      publicBaseUrl: 'http://localhost',
      background: false,
      postgresPool: { ...config.postgresPool, max: 1 },
    });
    await once.close();
    // Workers share one fixed port: uWebSockets.js shares a port between threads only when given its number.
    process.env[SERVE_PORT_VARIABLE] = String(config.port === 0 ? await findFreePort() : config.port);
  }
  const port = Number(process.env[SERVE_PORT_VARIABLE]);
  const linkBase = () => config.publicBaseUrl ?? `http://localhost:${port}`;
  return serve(
    async () => {
      const system = await openBookingSystem({
        databaseUrl: config.databaseUrl,
        publicBaseUrl: linkBase,
        seedDemoCatalogue: false,
        postgresPool: config.postgresPool,
        background: config.background,
      });
      // Each worker counts in the shared database: the limits hold for the whole server (and other instances).
      const limits = config.rateLimitPerMinute === false ? undefined : await appRateLimitStore(system.database);
      return bookingApp(system, {
        publicBaseUrl: config.publicBaseUrl,
        fallbackBaseUrl: linkBase,
        logger: bookingLogger(config),
        trustProxy: config.trustProxy,
        rateLimit:
          limits === undefined
            ? false
            : { limit: config.rateLimitPerMinute as number, windowSeconds: 60, ...limits.options },
        readiness: [databaseReadinessCheck(system.database)],
      });
    },
    { port, host: config.host, workers: config.workers, handleSignals: false },
  );
}

/** The start lines of a multi-threaded server (the same shape as a single one's, plus the threads). */
export function describeWorkers(config: BookingConfig, handle: ServeHandle): string[] {
  const clientHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return [
    `booking-api: listening on http://${config.host}:${handle.port}, database ${redactDatabaseUrl(config.databaseUrl)}, ${handle.workers} worker threads`,
    `booking-api: API at http://${clientHost}:${handle.port}/api/public/v1/booking, links under ${config.publicBaseUrl ?? `http://localhost:${handle.port}`}`,
  ];
}
