import type { HttpServerResponse } from '../http/response';
import { kLive } from '../http/internal';

/**
 * How much of a refused body is read and dropped before the refusal is sent: a client still sending when the
 * answer comes and the connection closes has its next write fail (EPIPE, or a reset), and fetch then reports
 * "fetch failed" instead of the 413; uWebSockets.js v20.57 also closes a connection answered mid-body at once.
 * Past a bound (16 MiB read, 2 s without data, 30 s in all) the answer goes out while the client may still be
 * sending, and the connection is closed.
 */
export const REFUSED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;
/** Under uWebSockets.js's own idle timeout (about 10 s), which would close the connection without an answer. */
const REFUSED_BODY_IDLE_MS = 2_000;
const REFUSED_BODY_DRAIN_MS = 30_000;

/**
 * The rest of a body the server refused (over a limit, or refused by its consumer): read and dropped until it
 * ends, or a bound is reached; then `send` answers, once, with the connection closed after the answer.
 */
export class RefusedBody {
  private drained = 0;
  private done = false;
  private readonly started = Date.now();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly response: HttpServerResponse,
    private readonly send: () => unknown,
  ) {
    response.closeConnectionAfter();
    this.timer = setTimeout(() => this.finish(false), REFUSED_BODY_IDLE_MS);
  }

  /** One more chunk of the body (its length), from uWebSockets.js's data callback. */
  take(length: number, isLast: boolean): void {
    if (this.done) return;
    this.drained += length;
    if (isLast || this.drained > REFUSED_BODY_DRAIN_BYTES || Date.now() - this.started > REFUSED_BODY_DRAIN_MS)
      this.finish(true);
    else this.timer.refresh();
  }

  /** The client left: nothing to answer. */
  cancel(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  private finish(inDataCallback: boolean): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    if (this.response.aborted()) return;
    // uWebSockets.js corks its data callbacks: what is written there needs no cork of its own (kLive); from the
    // timer, the response corks its writes itself.
    this.response[kLive] = inDataCallback;
    try {
      void this.send();
    } finally {
      this.response[kLive] = false;
    }
  }
}
