import test from 'ava';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  connectWebSocket,
  GET,
  openTelemetry,
  Path,
  PathParam,
  RestBuilder,
  type Server,
  startServer,
  WebSocket,
  WebSocketConnection,
} from '../../src/index';

// The tracing channels are the process's: several apps in one process, each with its own openTelemetry() (or none),
// must each get one span per request, in their own provider, with their own span active in the handler.

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

function exporter() {
  const spans = new InMemorySpanExporter();
  return { spans, tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }) };
}

@Path('/who')
class Who {
  @GET
  async me() {
    await new Promise((resolve) => setImmediate(resolve));
    return { spanId: trace.getActiveSpan()?.spanContext().spanId ?? null };
  }
}

@WebSocket('/echo/{room}')
class Echo {
  open(connection: WebSocketConnection, @PathParam('room') room: string) {
    connection.send(`in ${room}`);
  }

  message(connection: WebSocketConnection, data: string | Buffer) {
    connection.send(String(data));
  }
}

const first = exporter();
const second = exporter();
const replaced = exporter();
const replacing = exporter();
const servers: Server[] = [];
const bases: Record<'first' | 'second' | 'twice' | 'none', string> = { first: '', second: '', twice: '', none: '' };

test.before(async () => {
  const apps = {
    first: new RestBuilder()
      .use(openTelemetry({ tracerProvider: first.tracerProvider }))
      .register(Who)
      .register(Echo),
    second: new RestBuilder().use(openTelemetry({ tracerProvider: second.tracerProvider })).register(Who),
    // Used twice on one app: the second replaces the first, as a plugin of the same name does.
    twice: new RestBuilder()
      .use(openTelemetry({ tracerProvider: replaced.tracerProvider }))
      .use(openTelemetry({ tracerProvider: replacing.tracerProvider }))
      .register(Who),
    none: new RestBuilder().register(Who).register(Echo),
  };
  for (const [name, app] of Object.entries(apps)) {
    const server = await startServer(app, { port: 0, host: '127.0.0.1' });
    servers.push(server);
    bases[name as keyof typeof bases] = `http://127.0.0.1:${server.port}`;
  }
});
test.after.always(() => Promise.all(servers.map((server) => server.shutdown())));

function resetAll(): void {
  for (const { spans } of [first, second, replaced, replacing]) spans.reset();
}

async function who(base: string): Promise<string | null> {
  const res = await fetch(`${base}/who`);
  if (res.status !== 200) throw new Error(`GET /who answered ${res.status}`);
  return ((await res.json()) as { spanId: string | null }).spanId;
}

test.serial('each app: one span per request, in its own provider, active in its handler', async (t) => {
  resetAll();
  const firstActive = await who(bases.first);
  const secondActive = await who(bases.second);
  const [firstSpan, ...moreFirst] = first.spans.getFinishedSpans();
  const [secondSpan, ...moreSecond] = second.spans.getFinishedSpans();
  t.deepEqual(moreFirst, []);
  t.deepEqual(moreSecond, []);
  t.is(firstSpan?.name, 'GET /who');
  t.is(secondSpan?.name, 'GET /who');
  t.is(firstActive, firstSpan!.spanContext().spanId);
  t.is(secondActive, secondSpan!.spanContext().spanId);
});

test.serial('an app without the plugin: no span anywhere, and no active span in its handler', async (t) => {
  resetAll();
  t.is(await who(bases.none), null);
  for (const { spans } of [first, second, replaced, replacing]) t.deepEqual(spans.getFinishedSpans(), []);
});

test.serial('the plugin used twice on one app: the later instance alone makes the span', async (t) => {
  resetAll();
  const active = await who(bases.twice);
  t.deepEqual(replaced.spans.getFinishedSpans(), []);
  const made = replacing.spans.getFinishedSpans();
  t.is(made.length, 1);
  t.is(active, made[0]!.spanContext().spanId);
});

test.serial('WebSocket upgrades and messages: spans on the app with the plugin only', async (t) => {
  resetAll();
  const traced = await connectWebSocket(bases.first, '/echo/a');
  t.is((await traced.next()).text(), 'in a');
  traced.send('hi');
  t.is((await traced.next()).text(), 'hi');
  await traced.close();
  const plain = await connectWebSocket(bases.none, '/echo/b');
  t.is((await plain.next()).text(), 'in b');
  plain.send('hi');
  t.is((await plain.next()).text(), 'hi');
  await plain.close();
  // The message's span ends when its (synchronous) method returns, before the close the test awaited.
  const names = first.spans
    .getFinishedSpans()
    .map((span) => span.name)
    .sort();
  t.deepEqual(names, ['GET /echo/{room}', 'process /echo/{room}']);
  for (const { spans } of [second, replaced, replacing]) t.deepEqual(spans.getFinishedSpans(), []);
});
