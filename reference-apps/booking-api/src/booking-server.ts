import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { loadUws, RestBuilder, type Logger } from 'rest.uws';
import type { Clock } from 'app-support';
import { openBookingSystem, type BookingSystem, type BookingSystemOptions } from './booking-system';
import { bookingApp } from './app';
import { InFlightWork } from './http/in-flight-work';
import { ServiceAvailability } from './http/service-availability';

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
  /** How long a stop waits for requests in progress before closing the database (default 5 s). */
  drainTimeoutMs?: number;
  /** Where unexpected errors are logged (a pino logger fits); default: JSON lines on stderr. */
  logger?: Logger;
}

export interface BookingServer {
  port: number;
  /** http://127.0.0.1:<port> (or the host it listens on), for clients on this machine. */
  url: string;
  /** Base of the links the server hands out. */
  publicBaseUrl: string;
  system: BookingSystem;
  /** Issues an API key for a new partner (what `keys create` does): tests and benchmarks use it. */
  createPartnerKey(partnerName: string): Promise<string>;
  /** Stops listening, refuses what still arrives on open connections (503), waits for work in progress, closes the database. */
  close(): Promise<void>;
}

/** Opens the booking system (migrations, demo catalogue, background work) and serves the API on one port. */
export async function startBookingServer(options: BookingServerOptions = {}): Promise<BookingServer> {
  const uws = loadUws();
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? 0;
  const linkBase = () => options.publicBaseUrl ?? `http://localhost:${port}`;
  const system = await openBookingSystem({
    databaseUrl: options.databaseUrl,
    publicBaseUrl: linkBase,
    clock: options.clock,
    seedDemoCatalogue: options.seedDemoCatalogue,
    background: options.background,
    postgresPoolSize: options.postgresPoolSize,
  });
  const inFlight = new InFlightWork();
  const availability = new ServiceAvailability();
  let socket: us_listen_socket;
  let app: TemplatedApp;
  try {
    app = bookingApp(
      { bookings: inFlight.track(system.bookings), catalogue: inFlight.track(system.catalogue), partnerKeys: inFlight.track(system.partnerKeys) },
      { publicBaseUrl: options.publicBaseUrl, fallbackBaseUrl: linkBase },
      options.logger ? new RestBuilder().logger(options.logger).provide(availability) : new RestBuilder().provide(availability),
    ).build();
    socket = await new Promise<us_listen_socket>((resolve, reject) => {
      app.listen(host, port, (listening) => {
        if (listening) resolve(listening);
        else reject(new Error(`booking-api: cannot listen on ${host}:${port} (in use, or not an address of this machine)`));
      });
    });
  } catch (error) {
    await system.close();
    throw error;
  }
  port = uws.us_socket_local_port(socket as never);
  const clientHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://${clientHost}:${port}`,
    publicBaseUrl: linkBase(),
    system,
    createPartnerKey: async (partnerName) => (await system.partnerKeys.issueKey(partnerName)).key,
    close: () =>
      (closing ??= (async () => {
        uws.us_listen_socket_close(socket);
        availability.stop();
        const drained = await inFlight.drained(options.drainTimeoutMs ?? 5000);
        if (!drained) console.error(`booking-api: stopping with ${inFlight.count} request(s) still running`);
        closeConnections(app);
        await system.close();
      })()),
  };
}

/**
 * Closes the connections clients keep alive (otherwise they outlive the server, and a new server on the same port
 * would see its clients talk to the old one). uWebSockets.js 20.30 has `App.close()`; its type declarations lack it.
 */
function closeConnections(app: TemplatedApp): void {
  const closable = app as TemplatedApp & { close?: () => void };
  if (typeof closable.close === 'function') closable.close();
}
