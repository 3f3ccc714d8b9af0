import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Context,
  EventStream,
  GET,
  HeaderParam,
  Optional,
  Path,
  Produces,
  QueryParam,
  Response,
  RestBuilder,
  ServerSentEvent,
  ServerSentEvents,
  startServer,
} from '../../src/index';
import { listen, type RunningServer } from '../support/server';
import { eventsOf, openEvents } from './sse-client';

/** What the routes tell the tests, each a signal to wait on. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const gate = { first: deferred(), left: deferred<string>(), returned: deferred(), finallyRan: deferred() };
let produced = 0;
let pushStream: EventStream | undefined;
const unsubscribed = deferred();

@Path('/events')
class Events {
  /** Counts from Last-Event-ID; waits for the test before the first event. */
  @GET
  @Path('count')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  async *count(@HeaderParam('Last-Event-ID') @Optional lastId: string | undefined) {
    await gate.first.promise;
    const start = lastId === undefined ? 1 : Number(lastId) + 1;
    for (let n = start; n < start + 3; n++) yield new ServerSentEvent({ id: n, event: 'tick', data: { n } });
  }

  /** Status and headers set before the stream. */
  @GET
  @Path('created')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  created() {
    async function* one() {
      await gate.first.promise;
      yield 'hello';
    }
    return Response.status(201).header('X-Stream', 'yes').entity(one()).build();
  }

  /** Never ends by itself: the client leaves; the signal and return() are the way out. */
  @GET
  @Path('endless')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  endless(@Context() signal: AbortSignal) {
    signal.addEventListener('abort', () => gate.left.resolve(String((signal.reason as Error)?.message)));
    let n = 0;
    const iterator: AsyncIterableIterator<unknown> = {
      [Symbol.asyncIterator]() {
        return iterator;
      },
      next: async () => {
        if (n > 0) await new Promise<void>(() => undefined); // waits for ever after the first event
        return { done: false, value: `event ${n++}` };
      },
      return: async () => {
        gate.returned.resolve();
        return { done: true, value: undefined };
      },
    };
    return iterator;
  }

  /** An async generator whose finally must run when the client leaves (it waits on the signal). */
  @GET
  @Path('generator')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  async *generator(@Context() signal: AbortSignal) {
    try {
      yield 'first';
      await sleep(3_600_000, undefined, { signal });
      yield 'never';
    } catch {
      // the sleep is aborted when the client leaves
    } finally {
      gate.finallyRan.resolve();
    }
  }

  /** As fast as the client lets it: 16 KiB events. */
  @GET
  @Path('flood')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  async *flood() {
    const payload = 'x'.repeat(16 * 1024);
    for (let n = 0; ; n++) {
      produced++;
      yield new ServerSentEvent({ id: n, data: payload });
    }
  }

  @GET
  @Path('heartbeat')
  @ServerSentEvents({ heartbeatSeconds: 0.2, retryMs: 5000 })
  heartbeat(@Context() signal: AbortSignal) {
    return (async function* () {
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
    })();
  }

  @GET
  @Path('push')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  push() {
    const stream = new EventStream({ highWaterMark: 1024, maxBuffered: 256 * 1024 });
    stream.signal.addEventListener('abort', () => unsubscribed.resolve());
    pushStream = stream;
    return stream;
  }

  /** Data from the client, as an app relaying chat messages or log lines would send it. */
  @GET
  @Path('relay')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  async *relay(@QueryParam('text') text: string) {
    yield text;
    yield new ServerSentEvent({ event: 'message', data: text });
    yield { text };
  }

  @GET
  @Path('formats')
  @Produces('text/event-stream')
  formats() {
    return [
      'one line',
      'two\nlines',
      { json: true, list: [1, 2] },
      new ServerSentEvent({ event: 'custom', id: 'a-1', retry: 3000, comment: 'note', data: 'x\r\ny' }),
      new ServerSentEvent({ comment: 'only a comment' }),
    ];
  }
}

let server: RunningServer;
test.before(async () => {
  server = await listen(new RestBuilder().register(Events).build());
});
test.after.always(() => server?.close());

test.serial(
  'status and headers go out before the first event; events follow in order; Last-Event-ID reaches the handler',
  async (t) => {
    gate.first = deferred();
    const client = await openEvents(`${server.url}/events/count`, { 'Last-Event-ID': '41' });
    // The head is here while the route still waits to send its first event.
    t.is(client.status, 200);
    t.is(client.headers['content-type'], 'text/event-stream');
    t.is(client.headers['cache-control'], 'no-cache');
    t.is(client.headers['x-accel-buffering'], 'no');
    gate.first.resolve();
    await client.ended;
    t.deepEqual(eventsOf(client.blocks), [
      { id: '42', event: 'tick', data: '{"n":42}' },
      { id: '43', event: 'tick', data: '{"n":43}' },
      { id: '44', event: 'tick', data: '{"n":44}' },
    ]);

    gate.first = deferred();
    const created = await openEvents(`${server.url}/events/created`);
    t.is(created.status, 201);
    t.is(created.headers['x-stream'], 'yes');
    gate.first.resolve();
    await created.ended;
    t.deepEqual(eventsOf(created.blocks), [{ data: 'hello' }]);
  },
);

test.serial('a client that leaves: the signal aborts and the iterator is ended with return()', async (t) => {
  const client = await openEvents(`${server.url}/events/endless`);
  await client.until((blocks) => eventsOf(blocks).length === 1);
  client.close();
  t.is(await gate.left.promise, 'the client went away');
  await gate.returned.promise;
  t.pass();
});

test.serial('a client that leaves an async generator: its pending await is aborted and its finally runs', async (t) => {
  const client = await openEvents(`${server.url}/events/generator`);
  await client.until((blocks) => eventsOf(blocks).length === 1);
  client.close();
  await gate.finallyRan.promise;
  t.pass();
});

/** Waits until `read()` stops growing for `quietMs`, or reaches `limit` (slower progress only lowers the value). */
async function untilStalled(read: () => number, limit: number, quietMs = 300): Promise<number> {
  let last = -1;
  while (read() !== last && read() < limit) {
    last = read();
    await sleep(quietMs);
  }
  return read();
}

test.serial('a slow reader holds the source back: events are pulled only as the socket takes them', async (t) => {
  t.timeout(60_000);
  produced = 0;
  const client = await openEvents(`${server.url}/events/flood`);
  client.pause();
  const stalledAt = await untilStalled(() => produced, 100_000);
  // 16 KiB events: what fits in the kernel's buffers and uWebSockets.js's one backpressured chunk (a few MB), no more.
  t.log(`${stalledAt} events (${((stalledAt * 16) / 1024).toFixed(1)} MiB) produced while the client read nothing`);
  t.true(stalledAt < 4000, `the source ran ahead to ${stalledAt} events`);
  client.resume();
  await client.until((blocks) => eventsOf(blocks).length >= stalledAt + 100);
  const ids = eventsOf(client.blocks).map((b) => Number(b.id));
  t.deepEqual(
    ids.slice(0, 200),
    Array.from({ length: 200 }, (_, i) => i),
    'every event, in order',
  );
  client.close();
});

test.serial('heartbeat comments keep an idle stream alive; retry goes first', async (t) => {
  const client = await openEvents(`${server.url}/events/heartbeat`);
  const blocks = await client.until((b) => b.filter((x) => x.comment === '').length >= 2);
  t.deepEqual(blocks[0], { retry: '5000' });
  t.is(eventsOf(blocks).length, 0);
  client.close();
});

test.serial(
  'push API: queued events go out; past maxBuffered a slow client is dropped and the stream signal aborts',
  async (t) => {
    const client = await openEvents(`${server.url}/events/push`);
    await client.until((blocks) => blocks.length >= 1); // the head and first comment: the route returned
    const stream = pushStream!;
    t.true(stream.send('a'));
    t.true(stream.send(new ServerSentEvent({ event: 'b', data: 'b' })));
    await client.until((blocks) => eventsOf(blocks).length === 2);
    t.deepEqual(eventsOf(client.blocks), [{ data: 'a' }, { event: 'b', data: 'b' }]);

    client.pause();
    let sent = 0;
    const chunk = 'y'.repeat(4096);
    while (!stream.closed) {
      if (!stream.send(chunk)) await Promise.race([stream.drained(), sleep(5)]);
      sent++;
    }
    t.true(stream.buffered === 0, 'the queue is freed');
    t.false(stream.send('late'), 'send after close does nothing');
    await unsubscribed.promise;
    t.log(`${sent} events sent before the slow client was dropped`);
    client.resume();
    await client.ended;
  },
);

test.serial('formats: multi-line data, JSON, every field; HEAD gets the head only', async (t) => {
  const client = await openEvents(`${server.url}/events/formats`);
  await client.ended;
  t.deepEqual(client.blocks.slice(1), [
    { data: 'one line' },
    { data: 'two\nlines' },
    { data: '{"json":true,"list":[1,2]}' },
    { comment: 'note', event: 'custom', id: 'a-1', retry: '3000', data: 'x\ny' },
    { comment: 'only a comment' },
  ]);
  const head = await fetch(`${server.url}/events/formats`, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers.get('content-type'), 'text/event-stream');
});

test('an event field with a line break is refused: data cannot forge events', (t) => {
  t.throws(() => new ServerSentEvent({ id: '1\ndata: forged' }), { message: /event id/ });
  t.throws(() => new ServerSentEvent({ event: 'x\revent: y' }), { message: /event type/ });
  t.throws(() => new ServerSentEvent({ comment: 'a\nb' }), { message: /comment/ });
  t.throws(() => new ServerSentEvent({ id: 'nul\0' }), { message: /event id/ });
  t.throws(() => new ServerSentEvent({ retry: -1 }), { message: /retry/ });
  t.throws(() => ServerSentEvents({ heartbeatSeconds: -1 }), { message: /heartbeatSeconds/ });
});

test('data with line breaks of every kind cannot forge events: a browser reads one event per value, data intact', async (t) => {
  const forgeries = [
    'hello\n\nevent: forged\nid: 666\ndata: injected',
    'hello\r\rid: 666\rretry: 1\revent: forged',
    'hello\r\n\r\nevent: forged\r\ndata: injected\r\n',
    'one\ntwo\rthree\r\nfour',
  ];
  for (const text of forgeries) {
    const client = await openEvents(`${server.url}/events/relay?text=${encodeURIComponent(text)}`);
    await client.ended;
    const lines = text.replace(/\r\n|\r/g, '\n');
    t.deepEqual(
      eventsOf(client.blocks),
      [{ data: lines }, { event: 'message', data: lines }, { data: JSON.stringify({ text }) }],
      JSON.stringify(text),
    );
  }
});

test('a graceful shutdown ends open streams (clients reconnect elsewhere) instead of waiting for them', async (t) => {
  const running = await startServer(new RestBuilder().register(Events), { port: 0, host: '127.0.0.1' });
  const client = await openEvents(`http://127.0.0.1:${running.port}/events/heartbeat`);
  await client.until((blocks) => blocks.length >= 1);
  const report = await running.shutdown(20_000);
  await client.ended;
  t.is(report.unfinished, 0, 'the stream ended before the deadline');
});
