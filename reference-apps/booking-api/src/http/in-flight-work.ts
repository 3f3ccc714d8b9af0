/**
 * Counts the service calls in progress, so a stopping server can let them finish before the database closes.
 * `track(service)` returns the service itself behind a proxy that counts each call returning a promise.
 */
export class InFlightWork {
  private running = 0;
  private waiters: Array<() => void> = [];

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

  /** Resolves when nothing is in progress, or after `timeoutMs`; true when everything finished. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }

  private countWhileRunning(result: unknown): unknown {
    if (result === null || typeof result !== 'object' || typeof (result as Promise<unknown>).then !== 'function') return result;
    this.running++;
    return (result as Promise<unknown>).finally(() => {
      if (--this.running === 0) {
        const waiters = this.waiters;
        this.waiters = [];
        for (const waiter of waiters) waiter();
      }
    });
  }
}
