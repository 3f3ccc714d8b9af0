import { ManualClock } from 'app-support';
import { startBookingServer, type BookingServer, type BookingServerOptions } from '../../src/server';
import { ApiClient } from './api-client';
import { seedWalkingTour, START } from './fixture';

export interface HttpFixture {
  server: BookingServer;
  clock: ManualClock;
  /** Partners with their keys (Authorization: Bearer), and a client without any key. */
  alice: ApiClient;
  bob: ApiClient;
  anonymous: ApiClient;
  aliceKey: string;
  bobKey: string;
}

export interface HttpFixtureOptions {
  clock?: ManualClock;
  /** Seats of the bookable slot (null: unlimited). Default 30. */
  capacity?: number | null;
  /** Seed the walking-tour catalogue (default true; false when reopening a database). */
  seed?: boolean;
  /** Keys issued before (reopening a database); default: issue new ones for Alice Travel and Bob Tours. */
  keys?: { aliceKey: string; bobKey: string };
  background?: BookingServerOptions['background'];
  publicBaseUrl?: string;
  logger?: BookingServerOptions['logger'];
  postgresPool?: BookingServerOptions['postgresPool'];
  rateLimit?: BookingServerOptions['rateLimit'];
  trustProxy?: BookingServerOptions['trustProxy'];
  /** How long a stop waits for requests in flight (a test of the stop passes one longer than it could take). */
  shutdownTimeoutMs?: BookingServerOptions['shutdownTimeoutMs'];
}

/** A real booking server on 127.0.0.1 (free port) over `databaseUrl`, with the walking-tour catalogue and two partners. */
export async function startHttpFixture(databaseUrl: string, options: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const clock = options.clock ?? new ManualClock(START);
  const server = await startBookingServer({
    databaseUrl,
    clock,
    seedDemoCatalogue: false,
    background: options.background ?? false,
    publicBaseUrl: options.publicBaseUrl,
    logger: options.logger,
    postgresPool: options.postgresPool,
    rateLimit: options.rateLimit,
    trustProxy: options.trustProxy,
    shutdownTimeoutMs: options.shutdownTimeoutMs,
  });
  if (options.seed !== false)
    await seedWalkingTour(server.system, options.capacity === undefined ? 30 : options.capacity);
  const { aliceKey, bobKey } = options.keys ?? {
    aliceKey: await server.createPartnerKey('Alice Travel'),
    bobKey: await server.createPartnerKey('Bob Tours'),
  };
  return {
    server,
    clock,
    alice: new ApiClient(server.url, { Authorization: `Bearer ${aliceKey}` }),
    bob: new ApiClient(server.url, { 'Headout-Auth': bobKey }),
    anonymous: new ApiClient(server.url),
    aliceKey,
    bobKey,
  };
}

/** Polls `read` until `done` holds (background work), failing after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
