import { Buffer } from 'node:buffer';
import { formatEvent } from './server-sent-event';
import { errors } from '../../plugin';

/** Limits of a push stream's queue, in bytes of the events' wire form. */
export interface EventStreamOptions {
  /** `send` returns false past this many queued bytes: wait for `drained()` (default 64 KiB). */
  highWaterMark?: number;
  /**
   * Past this many queued bytes the stream is closed for this client (default 1 MiB): a client too slow for the
   * events is dropped rather than buffered without bound; it reconnects with `Last-Event-ID` and catches up.
   */
  maxBuffered?: number;
}

/**
 * A push API for server-sent events: the handler returns it and calls `send` as events happen (from a
 * subscription, a timer), instead of returning an async iterable. Events queue while the client is slow;
 * `send` returns false past the high-water mark, and past `maxBuffered` the stream closes (overflow). `signal`
 * aborts when the stream is over for any reason (closed, overflowed, the client left, server shutdown): end
 * subscriptions and timers there.
 *
 * ```ts
 * @GET @Path('/prices') @EventStream()
 * prices() {
 *   const stream = new EventStream();
 *   const listener = (price: Price) => stream.send(new ServerSentEvent({ id: price.seq, data: price }));
 *   feed.on('price', listener);
 *   stream.signal.addEventListener('abort', () => feed.off('price', listener));
 *   return stream;
 * }
 * ```
 */
export class EventStream implements AsyncIterable<string> {
  private readonly queue: string[] = [];
  private queued = 0;
  private readonly highWaterMark: number;
  private readonly maxBuffered: number;
  private readonly controller = new AbortController();
  private wakeReader: (() => void) | null = null;
  private drainWaiters: Array<() => void> = [];
  private iterating = false;

  constructor(options: EventStreamOptions = {}) {
    this.highWaterMark = positive(options.highWaterMark, 64 * 1024, 'highWaterMark');
    this.maxBuffered = positive(options.maxBuffered, 1024 * 1024, 'maxBuffered');
    if (this.maxBuffered < this.highWaterMark)
      throw errors.RU_ERR_SSE_OPTIONS('rest.uws: EventStream maxBuffered must be at least highWaterMark');
  }

  /** Aborted when the stream is over: closed, overflowed, the client left, or the server shut down. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the stream is over (`send` does nothing then). */
  get closed(): boolean {
    return this.controller.signal.aborted;
  }

  /** Bytes of events waiting for the client. */
  get buffered(): number {
    return this.queued;
  }

  /**
   * Queues an event (a `ServerSentEvent`, a string as data, or any value as JSON data). False when the stream is
   * over, or when the queue is past the high-water mark (slow down: `await stream.drained()`).
   */
  send(event: unknown): boolean {
    if (this.closed) return false;
    const text = formatEvent(event);
    this.queue.push(text);
    this.queued += Buffer.byteLength(text);
    if (this.queued > this.maxBuffered) {
      // Dropped, not sent: the queue's memory goes now; the response ends once the socket drains.
      this.queue.length = 0;
      this.queued = 0;
      this.close('the client reads slower than events come (maxBuffered)');
      return false;
    }
    this.wake();
    return this.queued <= this.highWaterMark;
  }

  /** Resolves when the queue is at or under the high-water mark again, or the stream is over. */
  drained(): Promise<void> {
    if (this.closed || this.queued <= this.highWaterMark) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Ends the stream: what is queued is still sent, then the response ends. */
  close(reason = 'closed'): void {
    if (this.closed) return;
    this.controller.abort(errors.RU_ERR_ABORTED(reason));
    this.wake();
    this.release();
  }

  /** The queued events in wire form, for the event stream writer (one reader). */
  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    if (this.iterating) throw errors.RU_ERR_SSE_SOURCE('rest.uws: an EventStream can be sent once');
    this.iterating = true;
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next !== undefined) {
          this.queued -= Buffer.byteLength(next);
          if (this.queued <= this.highWaterMark) this.release();
          yield next;
          continue;
        }
        if (this.closed) return;
        await new Promise<void>((resolve) => (this.wakeReader = resolve));
      }
    } finally {
      // The client left or the writer stopped: nothing more will be read.
      this.queue.length = 0;
      this.queued = 0;
      this.close('the response ended');
    }
  }

  private wake(): void {
    const wake = this.wakeReader;
    this.wakeReader = null;
    wake?.();
  }

  private release(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function positive(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw errors.RU_ERR_SSE_OPTIONS(`rest.uws: EventStream ${what} must be a whole number of bytes, at least 1`);
  return value;
}
