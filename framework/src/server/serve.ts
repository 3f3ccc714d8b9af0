import { availableParallelism } from 'node:os';
import { consoleLogger, type Logger } from '../util/log';
import { flushLogs } from './flush-logs';
import { freePort } from './free-port';
import type { AppFactory, ServeHandle, ServeOptions } from './serve-types';
import { startServer } from './start-server';
import { WorkerPool } from './worker-pool';
import { runShutdownHook, runWorker, workerAssignment } from './worker-side';
import { errors } from '../errors/factories';

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * Serves the app on every core: `workers` threads (default one per core) each run `buildApp` and
 * listen on the same port, which uWebSockets.js shares between them (SO_REUSEPORT: the kernel
 * spreads connections). A worker that dies is logged and replaced. SIGTERM and SIGINT shut down
 * gracefully: no new connections, WebSockets closed with 1001, requests in flight finished within
 * `shutdownTimeoutMs`, then exit 0.
 *
 * Workers run the process's main script again (like Node's cluster module), where this same
 * `serve` call builds and listens instead of starting workers; keep one-time work such as
 * migrations out of that path with `isServeWorker()`.
 *
 * ```ts
 * serve(() => new RestBuilder().register(HelloResource), { port: 8080 });
 * ```
 */
export async function serve(buildApp: AppFactory, options: ServeOptions): Promise<ServeHandle> {
  if (typeof buildApp !== 'function')
    throw errors.RU_ERR_SERVER_OPTIONS(
      'rest.uws serve: the first argument builds the app: serve(() => new RestBuilder()..., { port })',
    );
  const assignment = workerAssignment();
  if (assignment !== undefined)
    return runWorker(buildApp, assignment, options.shutdownTimeoutMs, options.logger, options.onShutdown);

  const logger = options.logger ?? consoleLogger;
  const host = options.host ?? '0.0.0.0';
  const workers = options.workers ?? availableParallelism();
  const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  if (!Number.isInteger(workers) || workers < 0)
    throw errors.RU_ERR_SERVER_OPTIONS(
      `rest.uws serve: workers must be a whole number (0 serves in this thread), got ${String(workers)}`,
    );

  if (workers === 0) {
    const server = await startServer(await buildApp({ port: options.port, worker: 0 }), {
      port: options.port,
      host,
      shutdownTimeoutMs: timeoutMs,
      logger: options.logger,
    });
    const shutdown = async () => {
      await server.shutdown(timeoutMs);
      await runShutdownHook(options.onShutdown, { port: server.port, worker: 0 }, logger);
    };
    if (options.handleSignals !== false) onSignals(shutdown, logger);
    // Logged once the signals are handled: whoever waits for this line may stop the server at once.
    logger.info({ port: server.port, host, workers: 0 }, 'listening');
    return { port: server.port, workers: 1, shutdown };
  }

  const entry = options.entry ?? process.argv[1];
  if (entry === undefined)
    throw errors.RU_ERR_SERVER_OPTIONS('rest.uws serve: no main script to run in the workers; pass options.entry');
  const port = options.port === 0 ? await freePort(host) : options.port;
  const pool = new WorkerPool(entry, workers, port, host, logger);
  await pool.start();
  let stopping: Promise<void> | null = null;
  const shutdown = () => (stopping ??= pool.stop(timeoutMs));
  if (options.handleSignals !== false) onSignals(shutdown, logger);
  logger.info({ port, host, workers }, 'listening');
  return { port, workers, shutdown };
}

/** True inside a worker started by `serve` (to skip one-time work there). */
export function isServeWorker(): boolean {
  return workerAssignment() !== undefined;
}

/** First SIGTERM/SIGINT: graceful shutdown then exit 0; a second one exits at once with 1. */
function onSignals(shutdown: () => Promise<void>, logger: Logger): void {
  let received = false;
  const handle = (signal: NodeJS.Signals) => {
    if (received) {
      logger.warn({ signal }, 'second signal during shutdown; exiting now');
      process.exit(1);
    }
    received = true;
    logger.info({ signal }, 'shutting down gracefully');
    shutdown().then(
      () => flushLogs(logger).then(() => process.exit(0)),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        void flushLogs(logger).then(() => process.exit(1));
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
