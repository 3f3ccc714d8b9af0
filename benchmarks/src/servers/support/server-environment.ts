/**
 * What the runner tells a server process, through its environment, and how a server answers.
 * Every server listens on 127.0.0.1, on the port the runner asks for (0 = any free port),
 * and prints one READY line with the port it got and how long building the app took.
 */
import * as path from 'node:path';
import uWS, { type TemplatedApp } from 'uWebSockets.js';
import { STATIC_FILE_NAME } from '../../contract/routes';

export const READY_PREFIX = 'BENCH_READY ';
export const HOST = '127.0.0.1';

export interface ReadyMessage {
  port: number;
  /** Milliseconds from creating the application object to it being ready to accept requests, all routes included. */
  bootMs: number;
}

export function requestedPort(): number {
  const port = Number(process.env.BENCH_PORT ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`BENCH_PORT must be a port number, got ${process.env.BENCH_PORT}`);
  return port;
}

/** The folder holding 1mb.bin (the runner writes it before starting servers). */
export function staticDirectory(): string {
  const dir = process.env.BENCH_STATIC_DIR;
  if (!dir) throw new Error('BENCH_STATIC_DIR is not set: start servers through the benchmark runner');
  return path.resolve(dir);
}

export function staticFilePath(): string {
  return path.join(staticDirectory(), STATIC_FILE_NAME);
}

export function announceReady(message: ReadyMessage): void {
  process.stdout.write(`${READY_PREFIX}${JSON.stringify(message)}\n`);
}

/** A monotonic clock in milliseconds, for bootMs. */
export function now(): number {
  return performance.now();
}

/** Servers stop cleanly on SIGTERM/SIGINT from the runner. */
export function exitOnSignals(close: () => void | Promise<void>): void {
  const stop = async () => {
    try {
      await close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * Listens on 127.0.0.1 on the requested port, prints the READY line, and closes the listening socket on
 * SIGTERM/SIGINT: the tail of every uWebSockets.js-based server's main.
 */
export function listenAndAnnounce(app: TemplatedApp, name: string, bootMs: number): void {
  app.listen(HOST, requestedPort(), (listenSocket) => {
    if (!listenSocket) {
      console.error(`${name}: could not listen`);
      process.exit(1);
    }
    announceReady({ port: uWS.us_socket_local_port(listenSocket), bootMs });
    exitOnSignals(() => uWS.us_listen_socket_close(listenSocket));
  });
}
