import { exitImmediately } from './immediate-exit';

export interface SignalStopOptions {
  /** Prefix of the log lines ("voice-stream"). */
  readonly name: string;
  /** The process ends within this time of the first signal, stopped gracefully or not. */
  readonly timeoutMs: number;
  readonly log?: (line: string) => void;
  readonly logError?: (line: string) => void;
  /** Writes what is held before the process ends without exit handlers (a buffered logger's `flush`). */
  readonly flush?: () => void;
  /** Called once, at the first signal, before the server is closed (the process will end with `_exit`). */
  readonly onSignal?: () => void;
}

/** What a running server gives the signal handler. */
export interface Stoppable {
  close(): Promise<void>;
}

/**
 * SIGTERM and SIGINT stop the server gracefully (its `close`: streams get 1001, engines and database stop)
 * and the process exits 0. Whatever hangs, the process ends `timeoutMs` after the signal, with 0 too: the
 * clients were told (1001) first, and an orchestrator waiting for the exit must not have to SIGKILL.
 *
 * Installed before the server starts, so a signal during start-up is not lost (Node would otherwise
 * die of the signal, with no exit code): the server then stops as soon as it is up. Call `serving` once
 * it is.
 */
export class SignalStop {
  private server: Stoppable | undefined;
  private signal: NodeJS.Signals | undefined;
  private readonly log: (line: string) => void;
  private readonly logError: (line: string) => void;

  constructor(private readonly options: SignalStopOptions) {
    this.log = options.log ?? ((line) => console.log(line));
    this.logError = options.logError ?? ((line) => console.error(line));
    const onSignal = (signal: NodeJS.Signals) => this.requested(signal);
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }

  /** The server is up: from now on a signal closes it (at once, if one came during start-up). */
  serving(server: Stoppable): void {
    this.server = server;
    if (this.signal) this.close(server);
  }

  private requested(signal: NodeJS.Signals): void {
    if (this.signal) return;
    this.signal = signal;
    const seconds = this.options.timeoutMs / 1000;
    this.log(`${this.options.name}: ${signal} received, stopping (at most ${seconds} s)`);
    this.options.onSignal?.();
    setTimeout(() => {
      this.logError(`${this.options.name}: still stopping after ${seconds} s; exiting now`);
      this.exit(0);
    }, this.options.timeoutMs);
    if (this.server) this.close(this.server);
  }

  private close(server: Stoppable): void {
    server.close().then(
      () => {
        this.log(`${this.options.name}: stopped`);
        // Everything is closed and written: end without Node's own teardown of native addons, which once
        // aborted (SIGABRT) after a clean close under CI's load, with recognition threads just gone.
        this.exit(0);
      },
      (error: unknown) => {
        this.logError(`${this.options.name}: error while stopping: ${(error as Error).message}`);
        this.exit(1);
      },
    );
  }

  /** `_exit` runs no exit handler: what the logger holds is written first. */
  private exit(status: number): never {
    try {
      this.options.flush?.();
    } finally {
      exitImmediately(status);
    }
  }
}
