/** Time and timers of a session, injectable so tests can cover a 30 s or one-hour limit without waiting. */
export interface Scheduler {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Runs `task` after `delayMs`; returns a cancel function. */
  schedule(delayMs: number, task: () => void): () => void;
}

export const realScheduler: Scheduler = {
  now: () => performance.now(),
  schedule(delayMs, task) {
    const timer = setTimeout(task, delayMs);
    return () => clearTimeout(timer);
  },
};

/** A scheduler whose time moves only when `advance` is called (tests). */
export class ManualScheduler implements Scheduler {
  private current = 0;
  private readonly tasks = new Set<{ at: number; task: () => void }>();

  now(): number {
    return this.current;
  }

  schedule(delayMs: number, task: () => void): () => void {
    const entry = { at: this.current + delayMs, task };
    this.tasks.add(entry);
    return () => this.tasks.delete(entry);
  }

  /** Moves time forward, running every task that falls due, in time order. */
  advance(milliseconds: number): void {
    const target = this.current + milliseconds;
    for (;;) {
      const due = [...this.tasks].filter((entry) => entry.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.tasks.delete(due);
      this.current = due.at;
      due.task();
    }
    this.current = target;
  }
}
