import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { runtimeOf } from '../adapter/uws-adapter';
import { consoleLogger, type Logger } from '../util/log';
import { RestBuilder } from '../builder/rest-builder';
import { loadUws } from '../adapter/load-uws';
import { closeAllWebSockets } from '../adapter/open-connections';
import { InFlightRequests } from './in-flight';
import { errors } from '../errors/factories';

/** Where and how one server listens. */
export interface ListenOptions {
  /** TCP port; 0 picks a free one (read it back from `Server.port`). */
  port: number;
  /** Interface to listen on (default `0.0.0.0`). */
  host?: string;
  /** How long a shutdown waits for requests in flight, in ms (default 10 000). */
  shutdownTimeoutMs?: number;
  /** Where lifecycle messages go (default: the app's logger). */
  logger?: Logger;
}

/** What a shutdown did. */
export interface ShutdownReport {
  /** Requests that were being answered when the shutdown began. */
  inFlight: number;
  /** Requests still unanswered at the deadline (their connections were closed). */
  unfinished: number;
  /** WebSockets closed with 1001. */
  webSockets: number;
}

/** A listening app and how to stop it. */
export interface Server {
  /** The uWebSockets.js app. */
  readonly app: TemplatedApp;
  /** The interface it listens on. */
  readonly host: string;
  /** The port it listens on (the chosen one when 0 was asked). */
  readonly port: number;
  /**
   * Graceful shutdown: stop accepting connections, close WebSockets with 1001, let requests in
   * flight finish (keep-alive connections close after their response) until the deadline, then
   * close every remaining connection. Calling it again returns the same promise.
   */
  shutdown(timeoutMs?: number): Promise<ShutdownReport>;
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** Time for close frames to leave before the sockets are cut. */
const CLOSE_FRAME_GRACE_MS = 50;

/** Builds (if given a builder) and listens; resolves once the port is open. */
export function startServer(appOrBuilder: TemplatedApp | RestBuilder, options: ListenOptions): Promise<Server> {
  const uws = loadUws();
  const app = appOrBuilder instanceof RestBuilder ? appOrBuilder.build() : appOrBuilder;
  // A plain uWebSockets.js app (no rest.uws routes) is served as it is: nothing to count in flight.
  const rt = runtimeOf(app);
  const logger = options.logger ?? rt?.logger ?? consoleLogger;
  const host = options.host ?? '0.0.0.0';
  const inFlight = rt !== undefined ? new InFlightRequests(rt) : undefined;
  checkPort(options.port);
  return new Promise((resolve, reject) => {
    app.listen(host, options.port, (socket: us_listen_socket | false) => {
      if (!socket) {
        reject(
          errors.RU_ERR_LISTEN(
            `rest.uws: cannot listen on ${host}:${options.port} (in use, or not an address of this machine)`,
          ),
        );
        return;
      }
      const port = uws.us_socket_local_port(socket as never);
      let listenSocket: us_listen_socket | null = socket;
      let stopping: Promise<ShutdownReport> | null = null;
      const stopListening = () => {
        if (listenSocket !== null) uws.us_listen_socket_close(listenSocket);
        listenSocket = null;
      };
      const shutdown = async (timeoutMs: number): Promise<ShutdownReport> => {
        // Plugins first (readiness answers 503 from now on), then no new connections.
        rt?.beginShutdown();
        stopListening();
        const webSockets = closeAllWebSockets(app, 1001, 'Server shutting down');
        const started = inFlight?.size ?? 0;
        logger.info({ port, inFlight: started, webSockets }, 'shutting down');
        const drained = inFlight === undefined ? true : await inFlight.drain(timeoutMs);
        if (webSockets > 0) await new Promise((r) => setTimeout(r, CLOSE_FRAME_GRACE_MS));
        const unfinished = drained ? 0 : inFlight!.size;
        if (!drained)
          logger.warn(
            { port, unfinished, timeoutMs },
            'shutdown deadline passed; closing the connections of unfinished requests',
          );
        closeEverything(app);
        openApps.delete(app);
        return { inFlight: started, unfinished, webSockets };
      };
      resolve({
        app,
        host,
        port,
        shutdown: (timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS) =>
          (stopping ??= shutdown(timeoutMs)),
      });
      closeOnExit(app, stopListening);
    });
  });
}

const openApps = new Map<TemplatedApp, () => void>();
let exitHookInstalled = false;

/**
 * A thread that ends with uWebSockets.js sockets open aborts the whole process (a libuv assertion),
 * so whatever ends it (process.exit, an uncaught error) closes the listening apps first.
 */
function closeOnExit(app: TemplatedApp, stopListening: () => void): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const [a, stop] of openApps) {
        stop();
        closeEverything(a);
      }
      openApps.clear();
    });
  }
  openApps.set(app, stopListening);
}

/** Closes the listen socket and every connection (uWebSockets.js's `app.close`, missing from its typings). */
function closeEverything(app: TemplatedApp): void {
  const close = (app as unknown as { close?: () => void }).close;
  if (typeof close === 'function') {
    try {
      close.call(app);
    } catch (err) {
      consoleLogger.warn({ err }, 'closing the app failed');
    }
  }
}

function checkPort(port: unknown): void {
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw errors.RU_ERR_SERVER_OPTIONS(`rest.uws: port must be a whole number from 0 to 65535, got ${String(port)}`);
  }
}
