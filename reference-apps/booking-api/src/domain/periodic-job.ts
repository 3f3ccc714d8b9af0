import { AsyncResource } from 'node:async_hooks';

/**
 * Runs `work` every `intervalMs` and on demand (trigger), never two rounds at once in this process.
 * Correctness between processes comes from the database (row locks), not from this scheduler.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /**
   * The next round, in the async context the job was made in: a round a request triggered (a capture) must not
   * hand that request's context (its trace) on to every later round through the timer.
   */
  private readonly next = AsyncResource.bind(() => this.trigger());

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void = (error) =>
      console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`),
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.trigger();
  }

  /** Run a round soon (now, or right after the round in progress). */
  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.round();
  }

  private async round(): Promise<void> {
    try {
      await this.work();
    } catch (error) {
      this.onError(error);
    } finally {
      this.running = undefined;
      if (!this.stopped) {
        if (this.again) {
          this.again = false;
          this.trigger();
        } else {
          this.timer = setTimeout(this.next, this.intervalMs);
          this.timer.unref();
        }
      }
    }
  }

  /** Stops scheduling and waits for the round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
