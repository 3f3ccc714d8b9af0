import type { RoutingContext } from '../context/routing-context';
import type { HttpServerResponse } from '../http/response';
import type { AppRuntime } from '../app/app-runtime';

/**
 * Answered responses are swept out of the list once it holds this many (or twice the open ones, if more). Few:
 * a response kept in the list past a young-generation GC is copied by it, then promoted, and an answered one
 * is garbage otherwise (64 kept the GC busy enough to cost about 10% of a small request's instructions).
 */
const SWEEP_AT_LEAST = 8;

const isOpen = (response: HttpServerResponse): boolean => !response.ended() && !response.aborted();

/**
 * Counts the requests an app is answering, so a shutdown can wait for them. Once draining, every
 * response also closes its connection, so keep-alive clients reconnect elsewhere.
 *
 * Most requests are answered before uWebSockets.js's callback returns, and a shutdown only ever runs between
 * callbacks, so it never sees them in flight. A request is therefore only held as the latest one (no listener,
 * no closure); the next request puts it in the list when it is still open then (its answer comes after an
 * `await`). Answered responses are swept out of the list every few additions, and listeners are attached only
 * when a drain begins, to the responses still open then.
 */
export class InFlightRequests {
  private tracked: HttpServerResponse[] = [];
  /** The latest request's response, not in `tracked`: added there by the next request if still open. */
  private latest: HttpServerResponse | null = null;
  private sweepAt = SWEEP_AT_LEAST;
  private draining = false;
  /** While draining: the responses still open, each removed by its own end or abort. */
  private readonly waiting = new Set<HttpServerResponse>();
  private idle: Array<() => void> = [];

  constructor(rt: AppRuntime) {
    // A plugin like any other: its request hook sees every request, answered by a route or not.
    // Its one hook is app-wide: the app's compiled routes are kept (useAppHooks).
    rt.useAppHooks({ name: 'in-flight-requests', setup: (app) => app.onRequest((ctx) => void this.started(ctx)) });
  }

  /** Requests started and not yet answered (or abandoned by their client). */
  get size(): number {
    if (this.draining) return this.waiting.size;
    let open = this.latest !== null && isOpen(this.latest) ? 1 : 0;
    for (const response of this.tracked) if (isOpen(response)) open++;
    return open;
  }

  private started(ctx: RoutingContext): void {
    const response = ctx.response;
    if (this.draining) {
      response.closeConnectionAfter();
      this.wait(response);
      return;
    }
    const previous = this.latest;
    this.latest = response;
    if (previous !== null && isOpen(previous)) this.track(previous);
  }

  private track(response: HttpServerResponse): void {
    const tracked = this.tracked;
    tracked.push(response);
    if (tracked.length >= this.sweepAt) {
      // In place: the open ones moved to the front, in order.
      let open = 0;
      for (let i = 0; i < tracked.length; i++) {
        const r = tracked[i]!;
        if (isOpen(r)) tracked[open++] = r;
      }
      // pop() stays in optimized code; setting length calls into the runtime.
      while (tracked.length > open) tracked.pop();
      this.sweepAt = Math.max(SWEEP_AT_LEAST, open * 2);
    }
  }

  private wait(response: HttpServerResponse): void {
    this.waiting.add(response);
    const finish = () => {
      if (this.waiting.delete(response) && this.waiting.size === 0 && this.idle.length > 0)
        for (const resolve of this.idle.splice(0)) resolve();
    };
    response.onEnd(finish);
    response.onAborted(finish);
  }

  /** Stops keep-alive and resolves true once nothing is in flight, false if `timeoutMs` passes first. */
  drain(timeoutMs: number): Promise<boolean> {
    if (!this.draining) {
      this.draining = true;
      const open = this.tracked.filter(isOpen);
      if (this.latest !== null && isOpen(this.latest)) open.push(this.latest);
      this.tracked = [];
      this.latest = null;
      for (const response of open) {
        // Answers still to come close their connection too, instead of leaving it idle until the end.
        if (!response.headersSent()) response.closeConnectionAfter();
        this.wait(response);
      }
    }
    if (this.waiting.size === 0) return Promise.resolve(true);
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
