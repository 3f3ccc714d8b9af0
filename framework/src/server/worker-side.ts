import { parentPort, threadId, workerData } from 'node:worker_threads';
import { runtimeOf } from '../adapter/uws-adapter';
import { consoleLogger, type Logger } from '../util/log';
import { flushLogs } from './flush-logs';
import { startServer } from './start-server';
import type { AppFactory, ServeContext, ServeHandle, ServeOptions } from './serve-types';
import { SERVE_WORKER, type MainMessage, type WorkerAssignment, type WorkerMessage } from './worker-protocol';

/** The assignment when this thread is a worker started by `serve`, else undefined. */
export function workerAssignment(): WorkerAssignment | undefined {
  return parentPort !== null ? (workerData as Record<string, WorkerAssignment> | null)?.[SERVE_WORKER] : undefined;
}

/**
 * A worker's life: build the app, listen on the shared port, report; on `shutdown`, drain and
 * exit 0. An uncaught error is logged and ends the worker with 1 (its sockets are closed first by
 * startServer's exit hook, or the whole process would abort), and the main thread starts a new one.
 */
export async function runWorker(
  build: AppFactory,
  assignment: WorkerAssignment,
  shutdownTimeoutMs: number | undefined,
  logger: Logger | undefined,
  onShutdown?: ServeOptions['onShutdown'],
): Promise<ServeHandle> {
  const port = parentPort!;
  const send = (m: WorkerMessage) => port.postMessage(m);
  try {
    const context = { port: assignment.port, worker: assignment.index };
    const server = await startServer(await build(context), {
      port: assignment.port,
      host: assignment.host,
      shutdownTimeoutMs,
      logger,
    });
    const log = logger ?? runtimeOf(server.app)?.logger ?? consoleLogger;
    let dying = false;
    const die = (err: unknown) => {
      if (dying) return;
      dying = true;
      log.error(
        { err, worker: assignment.index, threadId },
        'uncaught error in a serve worker; it exits and is replaced',
      );
      void flushLogs(log).then(() => process.exit(1));
    };
    process.on('uncaughtException', die);
    process.on('unhandledRejection', die);
    port.on('message', (m: MainMessage) => {
      if (m?.type !== 'shutdown') return;
      void server.shutdown(m.timeoutMs).then(async (report) => {
        await runShutdownHook(onShutdown, context, log);
        send({ type: 'stopped', ...report });
        await flushLogs(log);
        process.exit(0);
      });
    });
    send({ type: 'listening', port: server.port, threadId });
    return { port: server.port, workers: 1, shutdown: async () => void (await server.shutdown()) };
  } catch (err) {
    send({ type: 'failed', message: (err as Error)?.message ?? String(err), stack: (err as Error)?.stack });
    await flushLogs(logger);
    process.exit(1);
  }
}

/** The app's own clean-up after a thread stopped serving; a failure is logged, never fatal. */
export async function runShutdownHook(
  hook: ServeOptions['onShutdown'],
  context: ServeContext,
  log: Logger,
): Promise<void> {
  if (hook === undefined) return;
  try {
    await hook(context);
  } catch (err) {
    log.error({ err, worker: context.worker }, 'onShutdown failed');
  }
}
