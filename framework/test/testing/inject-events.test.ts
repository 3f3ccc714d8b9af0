/**
 * injectEvents: a server-sent event stream read without a port, event by event, closed early like a client leaving.
 */
import test from 'ava';
import {
  Authenticate,
  BearerAuthenticationProvider,
  Context,
  EventStream,
  GET,
  Path,
  QueryParam,
  RestBuilder,
  RolesAllowed,
  ServerSentEvent,
  ServerSentEvents,
  User,
  inject,
  injectEvents,
} from '../../src/index';
import { EventStreamParser } from '../../src/testing/event-stream-parser';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

let left = deferred<string>();
let finallyRan = deferred();
let push: EventStream | undefined;
let pushed = deferred();

@Path('/events')
class Events {
  /** Three events and the end. */
  @GET
  @Path('/count')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  async *count(@QueryParam('from', { optional: true, type: Number }) from: number | undefined) {
    const start = from ?? 1;
    for (let n = start; n < start + 3; n++) yield new ServerSentEvent({ id: n, event: 'tick', data: { n } });
  }

  /** Never ends by itself: the test leaves. */
  @GET
  @Path('/endless')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  async *endless(@Context() signal: AbortSignal) {
    signal.addEventListener('abort', () => left.resolve(String((signal.reason as Error)?.message)));
    try {
      for (let n = 0; ; n++) {
        yield { n };
        // After the second event it waits for the client to leave (an await the iterator's return() cannot cut short).
        if (n >= 1) await new Promise((resolve) => signal.addEventListener('abort', resolve));
      }
    } finally {
      finallyRan.resolve();
    }
  }

  /** Events pushed by the test, one multi-line. */
  @GET
  @Path('/pushed')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  pushed() {
    push = new EventStream();
    pushed.resolve();
    return push;
  }
}

@Path('/private')
@Authenticate(BearerAuthenticationProvider.fromTokens({ 'token-ada': new User('ada', ['reader']) }))
@RolesAllowed('reader')
class PrivateEvents {
  @GET
  @Path('/feed')
  @ServerSentEvents({ heartbeatSeconds: 0 })
  async *feed(@Context() user: User) {
    yield `hello ${user.name}`;
  }
}

const app = () => new RestBuilder().register(Events, PrivateEvents);

test('the events of a stream one by one, with their type, id and data, then the end', async (t) => {
  const stream = await injectEvents(app(), '/events/count?from=5');
  t.is(stream.statusCode, 200);
  t.is(stream.headers['content-type'], 'text/event-stream');
  const first = await stream.next();
  t.like(first, { event: 'tick', id: '5', data: '{"n":5}' });
  t.deepEqual(first!.json(), { n: 5 });
  const rest = [];
  for await (const event of stream) rest.push(event.json().n);
  t.deepEqual(rest, [6, 7]);
  t.is(await stream.next(), undefined, 'the server ended the stream');
});

test.serial(
  'a stream that never ends: two events, then close() is the client leaving (signal aborted, finally run)',
  async (t) => {
    left = deferred<string>();
    finallyRan = deferred();
    const stream = await injectEvents(app(), '/events/endless');
    t.deepEqual((await stream.next())!.json(), { n: 0 });
    t.deepEqual((await stream.next())!.json(), { n: 1 });
    await stream.close();
    t.is(await left.promise, 'the client went away');
    await finallyRan.promise;
    t.is(await stream.next(), undefined);
    // inject itself waits for the end of the answer: it is for answers that end.
    t.is((await inject(app(), '/events/count')).body.match(/event: tick/g)?.length, 3);
  },
);

test.serial('leaving a for-await loop early closes the stream', async (t) => {
  left = deferred<string>();
  finallyRan = deferred();
  const stream = await injectEvents(app(), '/events/endless');
  for await (const event of stream) {
    if (event.json().n === 1) break;
  }
  await left.promise;
  await finallyRan.promise;
  t.pass();
});

test('events pushed later arrive as they are written; the opening comment dispatches nothing; lines are joined', async (t) => {
  pushed = deferred();
  const stream = await injectEvents(app(), { url: '/events/pushed' });
  await pushed.promise;
  const next = stream.next();
  push!.send(new ServerSentEvent({ event: 'note', data: 'line one\nline two' }));
  t.like(await next, { event: 'note', data: 'line one\nline two' });
  push!.send('plain');
  t.like(await stream.next(), { event: 'message', data: 'plain' });
  push!.close();
  await stream.ended;
  t.is(await stream.next(), undefined);
});

test('a refused stream is read to its end: status, headers and body, and no events', async (t) => {
  const refused = await injectEvents(app(), '/private/feed');
  t.is(refused.statusCode, 401);
  t.is(refused.headers['www-authenticate'], 'Bearer realm="api"');
  t.regex(refused.body, /^Authentication/);
  t.is(await refused.next(), undefined);
  const allowed = await injectEvents(app(), { url: '/private/feed', headers: { authorization: 'Bearer token-ada' } });
  t.is(allowed.statusCode, 200);
  t.is((await allowed.next())!.data, 'hello ada');
});

test('the parser follows EventSource: CR, LF and CR LF across chunks, comments and data-less blocks skipped', (t) => {
  const parser = new EventStreamParser();
  const chunks = ['\ufeff: hi\n\nretry: 3000\n\n', 'event: a\r', '\ndata: x\rdata:  y\r', '\n\r\nid: 7\ndata', '\n\n'];
  const events = chunks.flatMap((chunk) => parser.push(Buffer.from(chunk)));
  t.deepEqual(
    events.map(({ json: _json, ...fields }) => fields),
    [
      { event: 'a', data: 'x\n y' },
      { event: 'message', data: '', id: '7' },
    ],
  );
});
