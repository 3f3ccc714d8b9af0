import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Counts the service calls in progress, so a stopping server can let them finish before the database closes.
 * `track(service)` returns the service itself behind a proxy that counts each call returning a promise.
 */
export class InFlightWork {
  private running = 0;
  private idle: Array<() => void> = [];

  get count(): number {
    return this.running;
  }

  track<T extends object>(service: T): T {
    const methods = new Map<PropertyKey, Function>();
    return new Proxy(service, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        let counted = methods.get(key);
        if (counted === undefined) {
          counted = (...args: unknown[]) => this.countWhileRunning(value.apply(target, args));
          methods.set(key, counted);
        }
        return counted;
      },
    });
  }

  /**
   * Resolves true once nothing is in progress, false after `timeoutMs`. "Nothing" must hold for a whole turn of the
   * event loop: a request between two service calls (authentication, then the booking) is not finished, and the
   * answer to the last call is written in the microtasks after it returns.
   */
  async drained(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.running === 0) {
        await nextTurn();
        if (this.running === 0) return true;
      }
      const left = deadline - Date.now();
      if (left <= 0) return false;
      const settled = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), left);
        this.idle.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!settled) return false;
    }
  }

  private countWhileRunning(result: unknown): unknown {
    if (result === null || typeof result !== 'object' || typeof (result as Promise<unknown>).then !== 'function') return result;
    this.running++;
    return (result as Promise<unknown>).finally(() => {
      if (--this.running === 0) {
        const waiting = this.idle;
        this.idle = [];
        for (const wake of waiting) wake();
      }
    });
  }
}
