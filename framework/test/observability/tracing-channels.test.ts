import test from 'ava';
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import {
  BodyParam,
  connectWebSocket,
  GET,
  HANDLER_CHANNEL,
  type HandlerTrace,
  MESSAGE_CHANNEL,
  Path,
  PathParam,
  POST,
  REQUEST_CHANNEL,
  type RequestTrace,
  RestBuilder,
  startServer,
  UPGRADE_CHANNEL,
  WebSocket,
  WebSocketConnection,
} from '../../src/index';

const store = new AsyncLocalStorage<string>();

@Path('/items')
class Items {
  @GET
  @Path('/{id}')
  one(@PathParam('id') id: string) {
    return { id, store: store.getStore() ?? null };
  }

  @POST
  async create(@BodyParam body: { name: string }) {
    await new Promise((resolve) => setImmediate(resolve));
    return { name: body.name, store: store.getStore() ?? null };
  }

  @GET
  @Path('/boom')
  boom(): never {
    throw new Error('kaboom');
  }
}

@WebSocket('/live/{room}')
class Live {
  open(connection: WebSocketConnection, @PathParam('room') room: string) {
    connection.send(`hello ${room}`);
  }

  message(connection: WebSocketConnection, data: string | Buffer) {
    connection.send(`echo ${data.toString()}`);
  }
}

type Event = { channel: string; event: string; path: string; status: number; route: string | null; error?: string };

/** Subscribes to the three channels for one test; returns what they published, in order. */
function record(t: { teardown(fn: () => void): void }): Event[] {
  const events: Event[] = [];
  for (const name of [REQUEST_CHANNEL, HANDLER_CHANNEL, UPGRADE_CHANNEL]) {
    const channel = diagnostics.tracingChannel<RequestTrace | HandlerTrace>(name);
    const on = (event: string) => (message: RequestTrace | HandlerTrace) =>
      void events.push({
        channel: name,
        event,
        path: message.ctx.request.path(),
        status: message.ctx.response.getStatusCode(),
        route: message.ctx.route()?.path ?? null,
        ...(message.error !== undefined ? { error: (message.error as Error).message } : {}),
      });
    const handlers = {
      start: on('start'),
      end: on('end'),
      asyncStart: on('asyncStart'),
      asyncEnd: on('asyncEnd'),
      error: on('error'),
    };
    channel.subscribe(handlers);
    t.teardown(() => channel.unsubscribe(handlers));
  }
  return events;
}

async function serve(t: { teardown(fn: () => Promise<unknown>): void }) {
  const server = await startServer(new RestBuilder().register(Items).register(Live), { port: 0, host: '127.0.0.1' });
  t.teardown(() => server.shutdown());
  return `http://127.0.0.1:${server.port}`;
}

test.serial('a routed request: start, handler, end, then asyncEnd once the answer is sent', async (t) => {
  const events = record(t);
  const base = await serve(t);
  const res = await fetch(`${base}/items/42`);
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { id: '42', store: null });
  t.deepEqual(
    events.map((e) => `${e.channel} ${e.event} ${e.route}`),
    [
      'rest.uws.request start null',
      'rest.uws.request.handler start /items/{id}',
      'rest.uws.request.handler end /items/{id}',
      'rest.uws.request end /items/{id}',
      'rest.uws.request asyncStart /items/{id}',
      'rest.uws.request asyncEnd /items/{id}',
    ],
  );
  t.is(events.at(-1)!.status, 200);
});

test.serial(
  'stores bound to the channels hold in the handler, after its body was read and after an await',
  async (t) => {
    const events = record(t);
    const request = diagnostics.tracingChannel<string, RequestTrace>(REQUEST_CHANNEL);
    const handler = diagnostics.tracingChannel<string, HandlerTrace>(HANDLER_CHANNEL);
    request.start.bindStore(store, (m) => `request ${m.method} ${m.url}`);
    handler.start.bindStore(store, (m) => `handler ${m.route.methodName} ${JSON.stringify(m.args[0])}`);
    t.teardown(() => {
      request.start.unbindStore(store);
      handler.start.unbindStore(store);
    });
    const base = await serve(t);
    const res = await fetch(`${base}/items`, {
      method: 'POST',
      body: '{"name":"ada"}',
      headers: { 'content-type': 'application/json' },
    });
    t.is(res.status, 200);
    t.deepEqual(await res.json(), { name: 'ada', store: 'handler create {"name":"ada"}' });
    const handlerEvents = events.filter((e) => e.channel === HANDLER_CHANNEL).map((e) => e.event);
    t.deepEqual(handlerEvents, ['start', 'end', 'asyncStart', 'asyncEnd']);
    const get = await fetch(`${base}/items/7`);
    t.deepEqual(await get.json(), { id: '7', store: 'handler one "7"' });
  },
);

test.serial('a thrown error is published on the handler and request channels; the answer is still a 500', async (t) => {
  const events = record(t);
  const base = await serve(t);
  const res = await fetch(`${base}/items/boom`);
  t.is(res.status, 500);
  const errors = events.filter((e) => e.event === 'error').map((e) => `${e.channel} ${e.error}`);
  t.deepEqual(errors, ['rest.uws.request.handler kaboom', 'rest.uws.request kaboom']);
  const last = events.at(-1)!;
  t.is(last.event, 'asyncEnd');
  t.is(last.status, 500);
});

test.serial('a 404: the request channel ends with the 404 and no route', async (t) => {
  const events = record(t);
  const base = await serve(t);
  const res = await fetch(`${base}/nowhere`);
  t.is(res.status, 404);
  t.deepEqual(
    events.map((e) => `${e.channel} ${e.event} ${e.route} ${e.status}`),
    [
      'rest.uws.request start null 200',
      'rest.uws.request end null 404',
      'rest.uws.request asyncStart null 404',
      'rest.uws.request asyncEnd null 404',
    ],
  );
});

test.serial('a WebSocket upgrade is traced on the upgrade channel, ending with the 101', async (t) => {
  const events = record(t);
  const seen: Array<{ route: string | undefined; url: string }> = [];
  const upgrade = diagnostics.tracingChannel<RequestTrace>(UPGRADE_CHANNEL);
  const start = (m: unknown) =>
    void seen.push({ route: (m as RequestTrace).route?.path, url: (m as RequestTrace).url });
  upgrade.start.subscribe(start);
  t.teardown(() => upgrade.start.unsubscribe(start));
  const base = await serve(t);
  const ws = await connectWebSocket(base, '/live/lobby');
  t.is((await ws.next()).text(), 'hello lobby');
  await ws.close();
  t.deepEqual(seen, [{ route: '/live/{room}', url: '/live/lobby' }]);
  t.deepEqual(
    events.map((e) => `${e.channel} ${e.event} ${e.status}`),
    [
      'rest.uws.websocket.upgrade start 200',
      'rest.uws.websocket.upgrade end 101',
      'rest.uws.websocket.upgrade asyncStart 101',
      'rest.uws.websocket.upgrade asyncEnd 101',
    ],
  );
});

/**
 * Counts every `publish` and `runStores` call on the twenty channels of the four tracing channels, for one test. The
 * spies are own properties of the channel objects the framework holds (a channel's name maps to one object), so they
 * see its calls without subscribing: `hasSubscribers` stays false.
 */
function countPublishing(t: { teardown(fn: () => void): void }): string[] {
  const calls: string[] = [];
  for (const name of [REQUEST_CHANNEL, HANDLER_CHANNEL, UPGRADE_CHANNEL, MESSAGE_CHANNEL]) {
    const tracing = diagnostics.tracingChannel(name);
    for (const channel of [tracing.start, tracing.end, tracing.asyncStart, tracing.asyncEnd, tracing.error]) {
      for (const method of ['publish', 'runStores'] as const) {
        Object.defineProperty(channel, method, {
          configurable: true,
          writable: true,
          value(this: diagnostics.Channel, ...args: unknown[]): unknown {
            calls.push(`${channel.name.toString()} ${method}`);
            // The prototype's: a channel switches prototypes as it gains its first and loses its last subscriber.
            return Reflect.apply((Object.getPrototypeOf(this) as Record<string, Function>)[method]!, this, args);
          },
        });
        t.teardown(() => delete (channel as unknown as Record<string, unknown>)[method]);
      }
    }
  }
  return calls;
}

test.serial('without a subscriber nothing is published and the request runs as before', async (t) => {
  const calls = countPublishing(t);
  const base = await serve(t);
  t.false(diagnostics.tracingChannel(REQUEST_CHANNEL).start.hasSubscribers);
  // Every path that publishes when someone listens: a route, a body, a thrown error, a 404, an upgrade, a message.
  t.deepEqual(await (await fetch(`${base}/items/1`)).json(), { id: '1', store: null });
  const created = await fetch(`${base}/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'n' }),
  });
  t.deepEqual(await created.json(), { name: 'n', store: null });
  t.is((await fetch(`${base}/items/boom`)).status, 500);
  t.is((await fetch(`${base}/nowhere`)).status, 404);
  const ws = await connectWebSocket(base, '/live/lobby');
  t.is((await ws.next()).text(), 'hello lobby');
  ws.send('hi');
  t.is((await ws.next()).text(), 'echo hi');
  await ws.close();
  t.deepEqual(calls, []);

  // The spies do see publishing: with a subscriber the same request is published.
  const request = diagnostics.tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);
  const asyncEnd = () => {};
  const only = { asyncEnd } as unknown as diagnostics.TracingChannelSubscribers<RequestTrace>;
  request.subscribe(only);
  t.teardown(() => request.unsubscribe(only));
  await (await fetch(`${base}/items/2`)).json();
  t.true(calls.includes(`tracing:${REQUEST_CHANNEL}:asyncEnd publish`), calls.join('\n'));
});

test.serial('a subscriber of asyncEnd alone is noticed, and a new one after the last left', async (t) => {
  const base = await serve(t);
  const request = diagnostics.tracingChannel<unknown, RequestTrace>(REQUEST_CHANNEL);
  const ended: string[] = [];
  const asyncEnd = (m: RequestTrace) => void ended.push(`${m.url} ${m.ctx.response.getStatusCode()}`);
  // Node takes any of the five handlers; its types ask for all of them.
  const only = { asyncEnd } as unknown as diagnostics.TracingChannelSubscribers<RequestTrace>;
  request.subscribe(only);
  await (await fetch(`${base}/items/1`)).json();
  t.deepEqual(ended, ['/items/1 200']);
  request.unsubscribe(only);
  await (await fetch(`${base}/items/2`)).json();
  t.deepEqual(ended, ['/items/1 200'], 'an unsubscribed subscriber hears nothing');
  // Subscribed through the plain channel API, by the subchannel's name.
  const name = `tracing:${REQUEST_CHANNEL}:asyncEnd`;
  const onEnd = (m: unknown) => void ended.push(`${(m as RequestTrace).url} channel`);
  diagnostics.subscribe(name, onEnd);
  t.teardown(() => diagnostics.unsubscribe(name, onEnd));
  await (await fetch(`${base}/items/3`)).json();
  t.deepEqual(ended, ['/items/1 200', '/items/3 channel']);
});

test.serial('a subscriber of the handler channel alone, on its error subchannel, hears a thrown error', async (t) => {
  const base = await serve(t);
  const heard: string[] = [];
  const error = (m: unknown) => void heard.push(((m as HandlerTrace).error as Error).message);
  const handler = diagnostics.tracingChannel(HANDLER_CHANNEL);
  handler.error.subscribe(error);
  t.teardown(() => handler.error.unsubscribe(error));
  t.is((await fetch(`${base}/items/boom`)).status, 500);
  t.deepEqual(heard, ['kaboom']);
});
