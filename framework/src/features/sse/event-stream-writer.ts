import { errors, type HttpResponseWriter, type HttpServerRequest, type HttpServerResponse } from '../../plugin';
import { EventStream } from './event-stream';
import { abortRequest, requestSignal } from './request-signal';
import { formatEvent } from './server-sent-event';

/** How event streams are sent. */
export interface EventStreamSettings {
  /** A comment line is sent after this many seconds without an event (default 15; 0: never). */
  heartbeatSeconds?: number;
  /** Tells browsers how long to wait before reconnecting (`retry:`, milliseconds), sent first. */
  retryMs?: number;
}

/** Streams open on one app, ended by the app's shutdown. */
export class OpenStreams {
  private readonly open = new Set<() => void>();

  /** @internal */
  add(end: () => void): () => void {
    this.open.add(end);
    return () => this.open.delete(end);
  }

  /** Ends every open stream (the server is shutting down: clients reconnect elsewhere). */
  endAll(): void {
    for (const end of [...this.open]) end();
  }

  get size(): number {
    return this.open.size;
  }
}

const streamsOfRequest = new WeakMap<HttpServerRequest, OpenStreams>();

/** @internal gives a request its app's open-stream registry (a route hook of the plugin does this) */
export function bindOpenStreams(request: HttpServerRequest, streams: OpenStreams): void {
  streamsOfRequest.set(request, streams);
}

/** Something a route may return as an event stream. */
export type EventSource = AsyncIterable<unknown> | Iterable<unknown> | EventStream;

/**
 * Writes `text/event-stream`: status and headers at once (with a first comment line, so the client sees them
 * before the first event), then each event as the source yields it, pulling the next only when the socket has
 * room (a slow client holds the source back; nothing piles up). A heartbeat comment keeps idle streams open
 * through proxies. When the client leaves, the request's signal aborts and the source's iterator is ended
 * (`return()`: an async generator's `finally` runs).
 */
export class EventStreamWriter implements HttpResponseWriter<EventSource> {
  private readonly heartbeatMs: number;
  private readonly retryMs: number | undefined;

  constructor(settings: EventStreamSettings = {}) {
    const heartbeat = settings.heartbeatSeconds ?? 15;
    if (typeof heartbeat !== 'number' || !Number.isFinite(heartbeat) || heartbeat < 0)
      throw errors.RU_ERR_SSE_OPTIONS(`rest.uws: heartbeatSeconds must be 0 or more, got ${heartbeat}`);
    if (settings.retryMs !== undefined && !(Number.isInteger(settings.retryMs) && settings.retryMs >= 0))
      throw errors.RU_ERR_SSE_OPTIONS(
        `rest.uws: retryMs must be a whole number of milliseconds, got ${settings.retryMs}`,
      );
    this.heartbeatMs = heartbeat * 1000;
    this.retryMs = settings.retryMs;
  }

  /** An EventStreamWriter class with these settings, for `@ResponseWriter` (what `@EventStream(settings)` uses). */
  static with(settings: EventStreamSettings): typeof EventStreamWriter {
    new EventStreamWriter(settings); // checks them now, at declaration
    return class ConfiguredEventStreamWriter extends EventStreamWriter {
      constructor() {
        super(settings);
      }
    };
  }

  write(source: EventSource, request: HttpServerRequest, response: HttpServerResponse): Promise<void> | void {
    const iterate = iteratorOf(source);
    if (!response.hasHeader('content-type')) response.putHeader('Content-Type', 'text/event-stream');
    if (!response.hasHeader('cache-control')) response.putHeader('Cache-Control', 'no-cache');
    // nginx buffers proxied answers unless told not to.
    response.putHeader('X-Accel-Buffering', 'no');
    if (response.isHead) {
      response.end();
      return;
    }
    const iterator = iterate();
    const raw = source instanceof EventStream;
    return this.pump(iterator, raw, request, response);
  }

  private async pump(
    iterator: AsyncIterator<unknown> | Iterator<unknown>,
    raw: boolean,
    request: HttpServerRequest,
    response: HttpServerResponse,
  ): Promise<void> {
    const signal = requestSignal(request, response);
    let ended = false;
    let settle!: () => void;
    // Resolves when the stream must stop (client gone, shutdown): what the pump waits on is raced against it.
    const stopped = new Promise<IteratorResult<unknown>>(
      (resolve) => (settle = () => resolve({ done: true, value: undefined })),
    );
    const stop = () => {
      if (ended) return;
      ended = true;
      settle();
      // Not awaited: an async generator suspended in an await ends once that await settles (the signal helps it).
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
    };
    signal.addEventListener('abort', stop, { once: true });
    const unregister = streamsOfRequest.get(request)?.add(() => {
      abortRequest(request, 'the server is shutting down');
      stop();
    });
    let lastWrite = Date.now();
    const send = (text: string): boolean => {
      lastWrite = Date.now();
      return response.write(text);
    };
    const heartbeat =
      this.heartbeatMs > 0
        ? setInterval(() => {
            if (!ended && Date.now() - lastWrite >= this.heartbeatMs - 50) send(':\n\n');
          }, this.heartbeatMs)
        : undefined;
    heartbeat?.unref();
    try {
      send(this.retryMs !== undefined ? `retry: ${this.retryMs}\n\n` : ':\n\n');
      while (!ended) {
        const next = await Promise.race([iterator.next(), stopped]);
        if (ended || next.done === true) break;
        if (send(raw ? (next.value as string) : formatEvent(next.value))) continue;
        // The socket is full: pull nothing more until it drains (or the stream stops). The pump resumes after
        // uWebSockets.js's writable callback, not inside it: a write made from a microtask run within that callback
        // registered its new onWritable while uWebSockets.js was still in the old one, and no writable came again.
        await Promise.race([
          new Promise<void>((resolve) => response.onWritable(() => (setImmediate(resolve), true))),
          stopped,
        ]);
      }
    } catch (err) {
      stop();
      throw err;
    } finally {
      if (heartbeat !== undefined) clearInterval(heartbeat);
      signal.removeEventListener('abort', stop);
      unregister?.();
    }
    if (!response.aborted()) response.end();
  }
}

function iteratorOf(source: EventSource): () => AsyncIterator<unknown> | Iterator<unknown> {
  if (source !== null && typeof source === 'object') {
    const asyncIterate = (source as AsyncIterable<unknown>)[Symbol.asyncIterator];
    if (typeof asyncIterate === 'function') return () => asyncIterate.call(source);
    const iterate = (source as Iterable<unknown>)[Symbol.iterator];
    if (typeof iterate === 'function' && typeof source !== 'string') return () => iterate.call(source);
  }
  throw errors.RU_ERR_SSE_SOURCE(
    `rest.uws: an event stream route returns an async iterable, an iterable or an EventStream; got ${source === null ? 'null' : typeof source}`,
  );
}
