/** The current time, injectable so tests need not wait (an hour-long timeout, a nightly job). */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.UTC(2030, 0, 1)) {}

  now(): number {
    return this.current;
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }

  set(epochMilliseconds: number): void {
    this.current = epochMilliseconds;
  }
}
