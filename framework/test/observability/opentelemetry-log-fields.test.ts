import test from 'ava';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import {
  Context,
  GET,
  openTelemetry,
  Path,
  PathParam,
  RequestLogger,
  requestId,
  RestBuilder,
  type RestPlugin,
} from '../../src/index';
import { listen } from '../support/server';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
// One plugin for every app of the file: it subscribes to the process's channels once (one span per request).
const otel = openTelemetry({ tracerProvider });

/** The ids of the one span the request just made. */
function onlySpan(t: { is(a: unknown, b: unknown): void }) {
  const finished = spans.getFinishedSpans();
  t.is(finished.length, 1);
  return finished[0]!.spanContext();
}

/** A pino logger writing JSON lines into an array, parsed. */
function jsonLogger() {
  const lines: Array<Record<string, any>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

@Path('/orders')
class Orders {
  @GET
  @Path('/{id}')
  async one(@PathParam('id') id: string, @Context() log: RequestLogger) {
    log.info({ orderId: id }, 'order read');
    await new Promise((resolve) => setImmediate(resolve));
    log.child({ step: 'after' }).info('still the same request');
    return { id };
  }
}

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

test.beforeEach(() => spans.reset());

test.serial(
  'with openTelemetry(), the request logger and the access line carry the span ids (pino logger)',
  async (t) => {
    const { logger, lines } = jsonLogger();
    const app = new RestBuilder().logger(logger).use(requestId()).logRequests().use(otel).register(Orders).build();
    const server = await listen(app);
    t.teardown(server.close);
    const res = await fetch(`${server.url}/orders/42`, {
      headers: { traceparent: TRACEPARENT, 'x-request-id': 'r-1' },
    });
    t.is(res.status, 200);
    await res.text();
    const { traceId, spanId } = onlySpan(t);
    t.is(traceId, '0af7651916cd43dd8448eb211c80319c', 'the span joined the caller trace');
    const handlerLine = lines.find((l) => l.msg === 'order read');
    t.like(handlerLine, { reqId: 'r-1', orderId: '42', trace_id: traceId, span_id: spanId, trace_flags: '01' });
    t.like(
      lines.find((l) => l.msg === 'still the same request'),
      { reqId: 'r-1', step: 'after', trace_id: traceId, span_id: spanId },
    );
    t.like(
      lines.find((l) => l.msg === 'request'),
      { method: 'GET', path: '/orders/42', status: 200, reqId: 'r-1', trace_id: traceId, span_id: spanId },
    );
    // Each request its own span: a second request's lines carry its own ids.
    spans.reset();
    await (await fetch(`${server.url}/orders/7`)).text();
    const second = onlySpan(t);
    t.not(second.traceId, traceId);
    t.like(
      lines.find((l) => l.msg === 'order read' && l.orderId === '7'),
      { trace_id: second.traceId, span_id: second.spanId },
    );
    t.like(
      lines.find((l) => l.msg === 'request' && l.path === '/orders/7'),
      { trace_id: second.traceId, span_id: second.spanId },
    );
  },
);

test.serial('the ids are on the lines of a 404 and of a logger that is no pino logger', async (t) => {
  const lines: Array<{ obj: any; msg?: string }> = [];
  const at = (obj: unknown, msg?: string) => void lines.push({ obj, msg });
  const logger = { error: at, warn: at, info: at, debug: at };
  const app = new RestBuilder().logger(logger).logRequests().use(otel).register(Orders).build();
  const server = await listen(app);
  t.teardown(server.close);
  await (await fetch(`${server.url}/orders/5`)).text();
  const ok = onlySpan(t);
  t.like(
    lines.find((l) => l.msg === 'order read'),
    { obj: { orderId: '5', trace_id: ok.traceId, span_id: ok.spanId } },
  );
  t.false('reqId' in lines.find((l) => l.msg === 'order read')!.obj, 'no request id without requestId()');
  spans.reset();
  t.is((await fetch(`${server.url}/nowhere`)).status, 404);
  const missing = onlySpan(t);
  t.like(
    lines.find((l) => l.msg === 'request' && l.obj.path === '/nowhere'),
    { obj: { status: 404, trace_id: missing.traceId, span_id: missing.spanId } },
  );
});

test.serial('without openTelemetry() on the app, its lines carry no trace fields', async (t) => {
  // The plugin's channel subscription is the process's (the tests above made one): spans are still made for this
  // app's requests, but the app did not ask for the fields on its lines.
  const { logger, lines } = jsonLogger();
  const app = new RestBuilder().logger(logger).use(requestId()).logRequests().register(Orders).build();
  const server = await listen(app);
  t.teardown(server.close);
  await (await fetch(`${server.url}/orders/9`, { headers: { traceparent: TRACEPARENT } })).text();
  const handlerLine = lines.find((l) => l.msg === 'order read')!;
  const accessLine = lines.find((l) => l.msg === 'request')!;
  t.is(handlerLine.orderId, '9');
  t.is(accessLine.path, '/orders/9');
  for (const line of [handlerLine, accessLine]) {
    t.false('trace_id' in line);
    t.false('span_id' in line);
    t.false('trace_flags' in line);
  }
});

test.serial(
  'a plugin of its own adds fields to the lines through logFields, after those of earlier plugins',
  async (t) => {
    const tenant: RestPlugin = {
      name: 'tenant',
      setup(app) {
        app.logFields((ctx) => {
          const value = ctx.request.headerOrEmpty('x-tenant');
          return value === '' ? undefined : { tenant: value };
        });
      },
    };
    const { logger, lines } = jsonLogger();
    const app = new RestBuilder().logger(logger).logRequests().use(otel).use(tenant).register(Orders).build();
    const server = await listen(app);
    t.teardown(server.close);
    await (await fetch(`${server.url}/orders/1`, { headers: { 'x-tenant': 'acme' } })).text();
    const ids = onlySpan(t);
    t.like(
      lines.find((l) => l.msg === 'order read'),
      { tenant: 'acme', trace_id: ids.traceId },
    );
    t.like(
      lines.find((l) => l.msg === 'request'),
      { tenant: 'acme', trace_id: ids.traceId, span_id: ids.spanId },
    );
    await (await fetch(`${server.url}/orders/2`)).text();
    const untenanted = lines.find((l) => l.msg === 'request' && l.path === '/orders/2')!;
    t.false('tenant' in untenanted, 'a provider answering undefined adds nothing');
    t.is(typeof untenanted.trace_id, 'string');
    t.throws(
      () =>
        new RestBuilder()
          .use({
            name: 'broken',
            setup(app) {
              app.logFields('trace' as never);
            },
          })
          .build(),
      { message: /logFields takes a function/ },
    );
  },
);
