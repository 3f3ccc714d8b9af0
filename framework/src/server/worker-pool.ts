import { Worker } from 'node:worker_threads';
import type { Logger } from '../util/log';
import { SERVE_WORKER, type MainMessage, type WorkerAssignment, type WorkerMessage } from './worker-protocol';
import { errors } from '../errors/factories';

interface Slot {
  index: number;
  worker: Worker | null;
  listening: boolean;
  /** Exit times of recent crashes, for the restart back-off. */
  crashes: number[];
}

const CRASH_WINDOW_MS = 10_000;
const MAX_RESTART_DELAY_MS = 5_000;

/**
 * The main thread's side of `serve`: starts the workers, replaces one that dies (logged, with a
 * back-off when they keep dying), and stops them all on shutdown.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private stopping = false;
  private startupFailed: ((err: Error) => void) | null = null;
  private exited: Array<() => void> = [];

  constructor(
    private readonly entry: string,
    private readonly count: number,
    private readonly port: number,
    private readonly host: string,
    private readonly logger: Logger,
  ) {}

  /** Starts every worker; resolves when all listen, rejects (after stopping the others) if one cannot start. */
  async start(): Promise<void> {
    const failure = new Promise<never>((_, reject) => (this.startupFailed = reject));
    failure.catch(() => {});
    const ready: Array<Promise<void>> = [];
    for (let index = 0; index < this.count; index++) {
      const slot: Slot = { index, worker: null, listening: false, crashes: [] };
      this.slots.push(slot);
      ready.push(this.spawn(slot));
    }
    try {
      await Promise.race([Promise.all(ready), failure]);
    } catch (err) {
      await this.stop(1000);
      throw err;
    } finally {
      this.startupFailed = null;
    }
  }

  private spawn(slot: Slot): Promise<void> {
    const assignment: WorkerAssignment = { index: slot.index, port: this.port, host: this.host };
    const worker = new Worker(this.entry, { argv: process.argv.slice(2), workerData: { [SERVE_WORKER]: assignment } });
    slot.worker = worker;
    slot.listening = false;
    return new Promise((resolve) => {
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'listening') {
          slot.listening = true;
          this.logger.info({ worker: slot.index, threadId: m.threadId, port: m.port }, 'worker listening');
          resolve();
        } else if (m.type === 'failed') {
          this.logger.error(
            { worker: slot.index, err: { message: m.message, stack: m.stack } },
            'worker could not start',
          );
          this.startupFailed?.(
            errors.RU_ERR_WORKER_START(`rest.uws serve: worker ${slot.index} could not start: ${m.message}`),
          );
        } else if (m.type === 'stopped') {
          this.logger.info(
            { worker: slot.index, inFlight: m.inFlight, unfinished: m.unfinished, webSockets: m.webSockets },
            'worker stopped',
          );
        }
      });
      // Errors are reported by the worker itself before it exits; this only catches what it could not report.
      worker.on('error', (err) => this.logger.error({ err, worker: slot.index }, 'worker error'));
      const threadId = worker.threadId; // reads -1 once the worker has exited
      worker.on('exit', (code) => this.onExit(slot, worker, threadId, code));
    });
  }

  private onExit(slot: Slot, worker: Worker, threadId: number, code: number): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    if (this.stopping) {
      if (this.slots.every((s) => s.worker === null)) for (const done of this.exited.splice(0)) done();
      return;
    }
    if (!slot.listening) {
      this.startupFailed?.(
        errors.RU_ERR_WORKER_START(`rest.uws serve: worker ${slot.index} exited with code ${code} before listening`),
      );
      return;
    }
    const now = Date.now();
    slot.crashes = [...slot.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    const delay = Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** (slot.crashes.length - 1));
    this.logger.error(
      { worker: slot.index, threadId, exitCode: code, restartInMs: delay },
      'worker exited unexpectedly; restarting it',
    );
    setTimeout(() => {
      if (!this.stopping) void this.spawn(slot);
    }, delay).unref();
  }

  /** Asks every worker to drain and exit; resolves when all have exited (or `timeoutMs` plus a margin passed). */
  stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    const running = this.slots.filter((s) => s.worker !== null);
    if (running.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.logger.error(
          { workers: this.slots.filter((s) => s.worker !== null).map((s) => s.index) },
          'workers did not stop in time',
        );
        resolve();
      }, timeoutMs + 2000);
      this.exited.push(() => {
        clearTimeout(timer);
        resolve();
      });
      for (const s of running) s.worker!.postMessage({ type: 'shutdown', timeoutMs } satisfies MainMessage);
    });
  }

  /** Whether every worker has exited. */
  allStopped(): boolean {
    return this.slots.every((s) => s.worker === null);
  }
}
