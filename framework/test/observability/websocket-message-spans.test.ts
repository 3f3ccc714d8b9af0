import test from 'ava';
import diagnostics from 'node:diagnostics_channel';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  connectWebSocket,
  MESSAGE_CHANNEL,
  type MessageTrace,
  openTelemetry,
  PathParam,
  RestBuilder,
  type Server,
  startServer,
  WebSocket,
  WebSocketConnection,
} from '../../src/index';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });

@WebSocket('/rooms/{room}')
class Rooms {
  open(connection: WebSocketConnection, @PathParam('room') room: string) {
    connection.send(`joined ${room}`);
  }

  async message(connection: WebSocketConnection, data: string | Buffer) {
    const text = typeof data === 'string' ? data : data.toString('utf8');
    if (text === 'boom') throw new RangeError('no boom here');
    // The message's span is active in the method, across an await.
    await new Promise((resolve) => setImmediate(resolve));
    connection.send(JSON.stringify({ echo: text, spanId: trace.getActiveSpan()?.spanContext().spanId }));
  }
}

let server: Server | undefined;
let base = '';
test.before(async () => {
  const quiet = { error() {}, warn() {}, info() {}, debug() {} }; // the failing method's error line is expected
  const app = new RestBuilder().logger(quiet).use(openTelemetry({ tracerProvider })).register(Rooms);
  server = await startServer(app, { port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${server.port}`;
});
test.after.always(() => server?.shutdown());
test.beforeEach(() => spans.reset());

/** The spans ended so far; at least `count` of them. */
function finished(count: number) {
  const all = spans.getFinishedSpans();
  if (all.length < count) throw new Error(`${all.length} spans ended, expected ${count}: ${all.map((s) => s.name)}`);
  return all;
}

test.serial('a message: a consumer span per message, linked to the upgrade, active in the method', async (t) => {
  const ws = await connectWebSocket(base, '/rooms/kitchen');
  t.is((await ws.next()).text(), 'joined kitchen');
  ws.send('hello');
  const answer = (await ws.next()).json<{ echo: string; spanId: string }>();
  t.is(answer.echo, 'hello');
  ws.send(Buffer.from('bytes!'));
  t.is((await ws.next()).json<{ echo: string }>().echo, 'bytes!');
  await ws.close();
  const all = finished(3);
  const upgrade = all.find((s) => s.name === 'GET /rooms/{room}')!;
  const processed = all.filter((s) => s.name === 'process /rooms/{room}');
  t.truthy(upgrade);
  t.is(processed.length, 2);
  const [first, second] = processed;
  t.is(first!.kind, SpanKind.CONSUMER);
  t.like(first!.attributes, {
    'messaging.system': 'websocket',
    'messaging.operation.name': 'process',
    'messaging.operation.type': 'process',
    'messaging.destination.name': '/rooms/kitchen',
    'messaging.destination.template': '/rooms/{room}',
    'messaging.message.body.size': 5,
  });
  t.is(second!.attributes['messaging.message.body.size'], 6);
  t.is(answer.spanId, first!.spanContext().spanId, 'the span was the active one in the method');
  // Each message a trace of its own, linked to the upgrade's span.
  t.is(first!.parentSpanContext, undefined);
  t.not(first!.spanContext().traceId, second!.spanContext().traceId);
  t.deepEqual(
    first!.links.map((l) => l.context.spanId),
    [upgrade.spanContext().spanId],
  );
  t.is(first!.status.code, 0);
});

test.serial('a method that fails: its span has the error, status ERROR, and the connection closes 1011', async (t) => {
  const ws = await connectWebSocket(base, '/rooms/attic');
  t.is((await ws.next()).text(), 'joined attic');
  ws.send('boom');
  const closed = await ws.closed;
  t.is(closed.code, 1011);
  const failed = spans.getFinishedSpans().find((s) => s.name === 'process /rooms/{room}');
  t.truthy(failed);
  t.is(failed!.status.code, 2);
  t.is(failed!.attributes['error.type'], 'RangeError');
  t.true(failed!.events.some((e) => e.name === 'exception'));
});

test.serial('the channel publishes start, end, asyncStart, asyncEnd and error with the message', async (t) => {
  const channel = diagnostics.tracingChannel<unknown, MessageTrace>(MESSAGE_CHANNEL);
  const seen: string[] = [];
  const handlers = {
    start: (m: MessageTrace) => void seen.push(`start ${String(m.data)} ${m.route.path}`),
    end: (m: MessageTrace) => void seen.push(`end async=${m.async === true}`),
    asyncStart: () => void seen.push('asyncStart'),
    asyncEnd: (m: MessageTrace) => void seen.push(`asyncEnd error=${m.error !== undefined}`),
    error: (m: MessageTrace) => void seen.push(`error ${(m.error as Error).message}`),
  };
  channel.subscribe(handlers);
  t.teardown(() => channel.unsubscribe(handlers));
  const ws = await connectWebSocket(base, '/rooms/hall');
  await ws.next();
  ws.send('one');
  await ws.next();
  ws.send('boom');
  await ws.closed;
  t.deepEqual(seen, [
    'start one /rooms/{room}',
    'end async=true',
    'asyncStart',
    'asyncEnd error=false',
    'start boom /rooms/{room}',
    'end async=true',
    'error no boom here',
    'asyncStart',
    'asyncEnd error=true',
  ]);
});
