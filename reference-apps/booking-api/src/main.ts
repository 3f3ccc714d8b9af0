#!/usr/bin/env node
/**
 * Runs the booking API: `npm start -w booking-api [-- --port 8081 --database <url> --public-url <url>]`.
 * Port, host and database also come from BOOKING_PORT/PORT, HOST, BOOKING_DATABASE_URL/DATABASE_URL
 * (see booking-config.ts). SIGTERM or SIGINT stops it gracefully.
 */
import { describeServerConfig } from 'app-support';
import { readBookingConfig } from './booking-config';
import { startBookingServer } from './booking-server';

async function main(): Promise<void> {
  const config = readBookingConfig();
  const server = await startBookingServer({
    port: config.port,
    host: config.host,
    databaseUrl: config.databaseUrl,
    publicBaseUrl: config.publicBaseUrl,
  });
  console.log(describeServerConfig('booking-api', config, server.port));
  console.log(`booking-api: API at ${server.url}/api/public/v1/booking, links under ${server.publicBaseUrl}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`booking-api: ${signal} received, stopping`);
    server.close().then(
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
}

main().catch((error) => {
  console.error(`booking-api: ${(error as Error).message}`);
  process.exit(1);
});
