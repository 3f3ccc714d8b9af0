import type { RoutingContext } from '../context/routing-context';
import type { HttpServerResponse } from '../http/response';
import type { AppRuntime } from '../app/app-runtime';

/**
 * Counts the requests an app is answering, so a shutdown can wait for them. Once draining, every
 * response also closes its connection, so keep-alive clients reconnect elsewhere.
 */
export class InFlightRequests {
  private readonly responses = new Set<HttpServerResponse>();
  private draining = false;
  private idle: Array<() => void> = [];

  constructor(rt: AppRuntime) {
    // A plugin like any other: its request hook sees every request, answered by a route or not.
    rt.use({ name: 'in-flight-requests', setup: (app) => app.onRequest((ctx) => void this.started(ctx)) });
  }

  /** Requests started and not yet answered (or abandoned by their client). */
  get size(): number {
    return this.responses.size;
  }

  private started(ctx: RoutingContext): void {
    const response = ctx.response;
    this.responses.add(response);
    if (this.draining) response.closeConnectionAfter();
    const finish = () => {
      if (this.responses.delete(response) && this.responses.size === 0 && this.idle.length > 0) for (const resolve of this.idle.splice(0)) resolve();
    };
    response.onEnd(finish);
    response.onAborted(finish);
  }

  /** Stops keep-alive and resolves true once nothing is in flight, false if `timeoutMs` passes first. */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    // Answers still to come close their connection too, instead of leaving it idle until the end.
    for (const response of this.responses) if (!response.headersSent()) response.closeConnectionAfter();
    if (this.responses.size === 0) return Promise.resolve(true);
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
