import type { TemplatedApp } from 'uWebSockets.js';
import type { RestBuilder } from '../builder/rest-builder';
import { EventStreamParser, type ReceivedEvent } from './event-stream-parser';
import { type InjectOptions, type InjectResponse, injectedResponse, sendInjected } from './inject';

export type { ReceivedEvent };

/** A server-sent event stream read through `injectEvents`, event by event. */
export interface InjectedEventStream extends Omit<InjectResponse, 'body' | 'rawBody' | 'json'> {
  /** The body received so far as text: the whole answer when it was not an event stream (a 401, a 404...). */
  readonly body: string;
  /** `body` parsed as JSON (throws when it is not JSON). */
  json<T = any>(): T;
  /**
   * The next event, as a browser's EventSource would dispatch it (comments and heartbeats skipped); undefined once
   * the stream has ended (or was closed) and every event received was read.
   */
  next(): Promise<ReceivedEvent | undefined>;
  /** The events, one by one, until the stream ends; leaving the loop early closes the stream. */
  [Symbol.asyncIterator](): AsyncIterator<ReceivedEvent>;
  /**
   * Leaves, as a client closing the connection: the route's abort signal fires and its iterator is ended (an
   * async generator's `finally` runs). Resolves once the server has heard of it; nothing happens when the
   * stream had already ended.
   */
  close(): Promise<void>;
  /** Resolves when the server ends the stream (or `close` left it). */
  readonly ended: Promise<void>;
}

/**
 * Opens a request whose answer streams (a `@ServerSentEvents` route) without opening a port, and resolves as soon
 * as the head arrives, so a test reads the events one at a time and stops when it has seen enough:
 *
 * ```ts
 * const stream = await injectEvents(app, '/todos/events');
 * assert.equal(stream.statusCode, 200);
 * assert.deepEqual((await stream.next())?.json(), { id: 1, title: 'Write the docs' });
 * await stream.close();
 * ```
 *
 * An answer that is not `text/event-stream` (a refusal) is read to its end: `body` and `json()` hold it and
 * `next()` gives undefined.
 */
export async function injectEvents(
  target: TemplatedApp | RestBuilder,
  options: InjectOptions | string,
): Promise<InjectedEventStream> {
  const opts: InjectOptions = typeof options === 'string' ? { url: options } : options;
  const headers = { accept: 'text/event-stream', ...opts.headers };
  const res = sendInjected(target, { ...opts, headers });
  const parser = new EventStreamParser();
  const waiting: Array<(event: ReceivedEvent | undefined) => void> = [];
  const queue: ReceivedEvent[] = [];
  let finished = false;
  const deliver = (event: ReceivedEvent) => {
    const waiter = waiting.shift();
    if (waiter !== undefined) waiter(event);
    else queue.push(event);
  };
  // What the route wrote while the request was dispatched, then every chunk as it comes.
  for (const event of parser.push(res.snapshot().body)) deliver(event);
  res.onChunk = (chunk) => {
    for (const event of parser.push(chunk)) deliver(event);
  };
  await res.headWritten;
  const ended = res.done.then(() => {
    finished = true;
    for (const waiter of waiting.splice(0)) waiter(undefined);
  });

  const head = injectedResponse(res.snapshot());
  if (!/^text\/event-stream\b/i.test(head.headers['content-type'] ?? '')) {
    const whole = injectedResponse(await res.done);
    await ended;
    return streamOf(
      whole,
      () => Promise.resolve(undefined),
      () => Promise.resolve(),
      ended,
    );
  }
  const next = (): Promise<ReceivedEvent | undefined> => {
    const event = queue.shift();
    if (event !== undefined) return Promise.resolve(event);
    if (finished) return Promise.resolve(undefined);
    return new Promise((resolve) => waiting.push(resolve));
  };
  const close = async (): Promise<void> => {
    if (!finished) res.abort();
    await ended;
    // Let the route's abort handlers and its iterator's return() run before the test goes on.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return streamOf(head, next, close, ended, () => res.snapshot().body.toString('utf8'));
}

function streamOf(
  head: InjectResponse,
  next: () => Promise<ReceivedEvent | undefined>,
  close: () => Promise<void>,
  ended: Promise<void>,
  body: () => string = () => head.body,
): InjectedEventStream {
  return {
    statusCode: head.statusCode,
    statusMessage: head.statusMessage,
    headers: head.headers,
    rawHeaders: head.rawHeaders,
    get body() {
      return body();
    },
    json: () => JSON.parse(body()),
    next,
    close,
    ended,
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const event = await next();
        return event === undefined ? { done: true, value: undefined } : { done: false, value: event };
      },
      return: async () => {
        await close();
        return { done: true, value: undefined };
      },
    }),
  };
}
