import type { RoutingContext } from '../context/routing-context';
import type { AppRuntime } from '../runtime/app-runtime';
import { addRequestHook } from './request-hooks';

/**
 * Counts the requests an app is answering, so a shutdown can wait for them. Once draining, every
 * response also closes its connection, so keep-alive clients reconnect elsewhere.
 */
export class InFlightRequests {
  private count = 0;
  private draining = false;
  private idle: Array<() => void> = [];

  constructor(rt: AppRuntime) {
    addRequestHook(rt, (ctx) => this.started(ctx));
  }

  /** Requests started and not yet answered (or abandoned by their client). */
  get size(): number {
    return this.count;
  }

  private started(ctx: RoutingContext): void {
    this.count++;
    if (this.draining) ctx.response.closeConnectionAfter();
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      if (--this.count === 0 && this.idle.length > 0) for (const resolve of this.idle.splice(0)) resolve();
    };
    ctx.response.onEnd(finish);
    ctx.response.onAborted(finish);
  }

  /** Stops keep-alive and resolves true once nothing is in flight, false if `timeoutMs` passes first. */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idle = this.idle.filter((r) => r !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.idle.push(done);
    });
  }
}
