import type { TemplatedApp } from 'uWebSockets.js';
import type { Logger } from '../util/log';
import type { RestBuilder } from '../builder/rest-builder';

/** What a worker's app factory is told: the shared port and which worker it builds for (0 in the calling thread). */
export interface ServeContext {
  /** The TCP port every worker listens on. */
  port: number;
  /** Index of the worker the app is built for (0 when serving in the calling thread). */
  worker: number;
}

/** Builds the app; called once in every worker (and again in each replacement). */
export type AppFactory = (context: ServeContext) => TemplatedApp | RestBuilder | Promise<TemplatedApp | RestBuilder>;

/** Options of `serve`. */
export interface ServeOptions {
  /** TCP port shared by every worker; 0 picks a free one. */
  port: number;
  /** Interface to listen on (default `0.0.0.0`). */
  host?: string;
  /** Worker threads (default: one per core, `os.availableParallelism()`); 0 serves in the calling thread. */
  workers?: number;
  /** How long a shutdown waits for requests in flight, in ms (default 10 000). */
  shutdownTimeoutMs?: number;
  /** Where lifecycle messages go: listening, worker restarts, shutdown (default: errors and warnings to stderr). */
  logger?: Logger;
  /** Script each worker runs (default: the process's main script, which calls `serve` again there). */
  entry?: string;
  /** Shut down gracefully on SIGTERM and SIGINT, then exit 0 (default true). */
  handleSignals?: boolean;
  /**
   * Runs in each thread that served, after its requests finished and before it exits: close the app's own
   * resources there (database pools, background jobs). Errors are logged.
   */
  onShutdown?: (context: ServeContext) => void | Promise<void>;
}

/** A running `serve`. */
export interface ServeHandle {
  /** The port every worker listens on. */
  readonly port: number;
  /** How many threads serve (1 inside a worker). */
  readonly workers: number;
  /** Graceful shutdown of every worker (resolves when all have stopped). */
  shutdown(): Promise<void>;
}
