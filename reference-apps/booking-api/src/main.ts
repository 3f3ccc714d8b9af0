#!/usr/bin/env node
/**
 * Runs the booking API: `npm start -w booking-api [-- --port 8081 --database <url> --public-url <url> --workers N]`.
 * Port, host and database also come from BOOKING_PORT/PORT, HOST, BOOKING_DATABASE_URL/DATABASE_URL, the PostgreSQL
 * pool from --db-pool-size/--db-statement-timeout-ms/--db-connect-timeout-ms, operations from --trust-proxy,
 * --rate-limit and --log-level (see config.ts). Logs are JSON lines on stdout (an access line per request at info).
 * SIGTERM or SIGINT stops it gracefully. With OTEL_EXPORTER_OTLP_ENDPOINT set, traces go there (telemetry.ts).
 */
// First: the pg instrumentation must be in place before anything loads pg.
import { stopTelemetry } from './telemetry';
import { describeServerConfig, describeTrustProxy, parseDatabaseUrl } from 'app-support';
import { isServeWorker } from 'rest.uws';
import { bookingLogger } from './http/app-logger';
import { readBookingConfig, type BookingConfig } from './config';
import { startBookingServer } from './server';
import { describeWorkers, serveBookingWorkers } from './serve-workers';

function describePool(config: BookingConfig): string[] {
  if (parseDatabaseUrl(config.databaseUrl).dialect !== 'postgres') return [];
  const { max, statementTimeoutMs, connectionTimeoutMs } = config.postgresPool;
  const perThread = config.workers > 1 ? ' per worker' : '';
  return [
    `booking-api: PostgreSQL pool of ${max} connections${perThread}, statement timeout ${statementTimeoutMs} ms, connect timeout ${connectionTimeoutMs} ms`,
  ];
}

/** What the operations settings mean, for the start-up lines. */
function describeOperations(config: BookingConfig, shared: boolean): string[] {
  const limit =
    config.rateLimitPerMinute === false
      ? 'no rate limit (--rate-limit off)'
      : `rate limit ${config.rateLimitPerMinute} requests per minute per API key (${shared ? 'counted in PostgreSQL, shared by every instance' : 'counted in this process'})`;
  return [
    `booking-api: ${limit}; trust proxy ${describeTrustProxy(config.trustProxy)}; health at /health, readiness at /ready; log level ${config.logLevel}`,
  ];
}

/** Starts one server thread, or `--workers` threads through rest.uws serve(); returns how to stop. */
async function start(config: BookingConfig): Promise<{ lines: string[]; close(): Promise<void> }> {
  if (config.workers > 1 || isServeWorker()) {
    const handle = await serveBookingWorkers(config);
    const shared = parseDatabaseUrl(config.databaseUrl).dialect === 'postgres';
    return {
      lines: [...describeWorkers(config, handle), ...describeOperations(config, shared)],
      close: () => handle.shutdown(),
    };
  }
  const server = await startBookingServer({
    port: config.port,
    host: config.host,
    databaseUrl: config.databaseUrl,
    publicBaseUrl: config.publicBaseUrl,
    postgresPool: config.postgresPool,
    background: config.background,
    logger: bookingLogger(config),
    trustProxy: config.trustProxy,
    rateLimit: config.rateLimitPerMinute === false ? false : { limit: config.rateLimitPerMinute, windowSeconds: 60 },
  });
  return {
    lines: [
      describeServerConfig('booking-api', config, server.port),
      `booking-api: API at ${server.url}/api/public/v1/booking, links under ${server.publicBaseUrl}`,
      ...describeOperations(config, server.sharedRateLimits),
    ],
    close: () => server.close(),
  };
}

async function main(): Promise<void> {
  const config = readBookingConfig();
  const server = await start(config);
  // A serve() worker is stopped by its main thread, which prints for the whole server.
  if (isServeWorker()) return;

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`booking-api: ${signal} received, stopping`);
    server
      .close()
      .then(() => stopTelemetry())
      .then(
        () => {
          console.log('booking-api: stopped');
          process.exit(0);
        },
        (error) => {
          console.error(`booking-api: error while stopping: ${(error as Error).message}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Printed once the signals are handled: whoever waits for these lines may stop the server at once.
  for (const line of [...server.lines, ...describePool(config)]) console.log(line);
}

main().catch((error) => {
  console.error(`booking-api: ${(error as Error).message}`);
  process.exit(1);
});
