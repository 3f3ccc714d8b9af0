import test from 'ava';
import { context, type Attributes, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { CODE } from '../../src/plugin';
import {
  connectWebSocket,
  GET,
  openTelemetry,
  Path,
  PathParam,
  RestBuilder,
  type Server,
  startServer,
  trustProxy,
  WebSocket,
  WebSocketConnection,
} from '../../src/index';
import { parsePrometheusText } from './prometheus-text';

// Parses the Prometheus text format, strictly (throws on a malformed line); it has no type declarations.
const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; value?: string }>;
}>;

/** Collects on demand: the test reads the metrics when it wants them, no timer. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const reader = new TestReader();
const meterProvider = new MeterProvider({ readers: [reader] });

@Path('/items')
class Items {
  @GET
  @Path('/{id}')
  async one(@PathParam('id') id: string) {
    const before = trace.getActiveSpan()?.spanContext().spanId;
    await new Promise((resolve) => setImmediate(resolve));
    return { id, before, after: trace.getActiveSpan()?.spanContext().spanId };
  }

  @GET
  @Path('/broken/now')
  broken(): never {
    throw new TypeError('no such thing');
  }
}

@WebSocket('/live/{room}')
class Live {
  open(connection: WebSocketConnection, @PathParam('room') room: string) {
    connection.send(`hello ${room}`);
  }
}

let base = '';
let server: Server | undefined;
test.before(async () => {
  const app = new RestBuilder()
    .use(trustProxy({ trust: 'loopback' }))
    .use(openTelemetry({ tracerProvider, meterProvider, metricsPath: '/metrics', metricsAccess: 'public' }))
    .register(Items)
    .register(Live);
  server = await startServer(app, { port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${server.port}`;
});
test.after.always(() => server?.shutdown());
test.beforeEach(() => spans.reset());

/** `server.address` and `server.port` of a request to the test server (from its Host header). */
function serverAddress(): Attributes {
  return { 'server.address': '127.0.0.1', 'server.port': Number(new URL(base).port) };
}

/** The one finished server span of the request just made. */
function onlySpan(t: { is(a: unknown, b: unknown): void }): ReadableSpan {
  const finished = spans.getFinishedSpans();
  t.is(finished.length, 1);
  return finished[0]!;
}

/** The request duration points, by their attributes. */
async function durationPoints(): Promise<Array<DataPoint<Histogram>>> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === 'http.server.request.duration');
  return (metric?.dataPoints ?? []) as Array<DataPoint<Histogram>>;
}

async function activeRequests(): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === 'http.server.active_requests');
  return (metric?.dataPoints ?? []).reduce((sum, p) => sum + (p.value as number), 0);
}

function pointFor(points: Array<DataPoint<Histogram>>, attributes: Attributes): DataPoint<Histogram> | undefined {
  return points.find((p) => JSON.stringify(p.attributes) === JSON.stringify(attributes));
}

test.serial('a routed request: a server span named from the route template, active in the handler', async (t) => {
  const res = await fetch(`${base}/items/42?full=1`, {
    headers: { 'user-agent': 'tests/1', 'x-forwarded-for': '203.0.113.9' },
  });
  t.is(res.status, 200);
  const body = (await res.json()) as { id: string; before: string; after: string };
  const span = onlySpan(t);
  t.is(span.name, 'GET /items/{id}');
  t.is(span.kind, 1); // SERVER
  t.is(span.status.code, 0); // UNSET
  t.like(span.attributes, {
    'http.request.method': 'GET',
    'url.path': '/items/42',
    'url.query': 'full=1',
    'url.scheme': 'http',
    'http.route': '/items/{id}',
    'http.response.status_code': 200,
    'server.address': '127.0.0.1',
    'server.port': Number(new URL(base).port),
    'client.address': '203.0.113.9', // the proxy on loopback is trusted
    'user_agent.original': 'tests/1',
  });
  t.false('error.type' in span.attributes);
  t.is(span.parentSpanContext, undefined);
  // The span is the active one in the handler, also after an await.
  t.is(body.before, span.spanContext().spanId);
  t.is(body.after, span.spanContext().spanId);
  const point = pointFor(await durationPoints(), {
    'http.request.method': 'GET',
    'url.scheme': 'http',
    'http.response.status_code': 200,
    'http.route': '/items/{id}',
  });
  t.truthy(point, 'a duration point for the route');
  t.true(point!.value.count >= 1);
  t.true(point!.value.sum! > 0 && point!.value.sum! < 10);
  t.is(await activeRequests(), 0);
});

test.serial('a 404: the span is named by the method alone, without a route, and is no error', async (t) => {
  const res = await fetch(`${base}/nowhere/at/all`, { headers: { 'x-forwarded-for': '203.0.113.10' } });
  t.is(res.status, 404);
  const span = onlySpan(t);
  t.is(span.name, 'GET');
  t.like(span.attributes, {
    'http.response.status_code': 404,
    'url.path': '/nowhere/at/all',
    ...serverAddress(),
    'client.address': '203.0.113.10', // trust-proxy applies before any route matched
  });
  t.false('http.route' in span.attributes);
  t.false('error.type' in span.attributes);
  t.is(span.status.code, 0);
  t.truthy(
    pointFor(await durationPoints(), {
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'http.response.status_code': 404,
    }),
  );
});

test.serial('a thrown error: status 500, error.type the error class, the exception recorded', async (t) => {
  const res = await fetch(`${base}/items/broken/now`);
  t.is(res.status, 500);
  const span = onlySpan(t);
  t.is(span.name, 'GET /items/broken/now');
  t.like(span.attributes, { 'http.response.status_code': 500, 'error.type': 'TypeError' });
  t.is(span.status.code, 2); // ERROR
  const exception = span.events.find((e) => e.name === 'exception');
  t.is(exception?.attributes?.['exception.message'], 'no such thing');
  t.truthy(
    pointFor(await durationPoints(), {
      'http.request.method': 'GET',
      'url.scheme': 'http',
      'http.response.status_code': 500,
      'http.route': '/items/broken/now',
      'error.type': 'TypeError',
    }),
  );
});

test.serial('a WebSocket upgrade: a server span for the upgrade, ending with the 101', async (t) => {
  const ws = await connectWebSocket(base, '/live/lobby', { headers: { 'x-forwarded-for': '203.0.113.11' } });
  t.is((await ws.next()).text(), 'hello lobby');
  await ws.close();
  const span = onlySpan(t);
  t.is(span.name, 'GET /live/{room}');
  t.like(span.attributes, {
    'http.request.method': 'GET',
    'url.path': '/live/lobby',
    'http.route': '/live/{room}',
    'http.response.status_code': 101,
    ...serverAddress(),
    'client.address': '203.0.113.11',
  });
  // The upgrade's duration is recorded as a request's, up to the 101.
  const point = pointFor(await durationPoints(), {
    'http.request.method': 'GET',
    'url.scheme': 'http',
    'http.response.status_code': 101,
    'http.route': '/live/{room}',
  });
  t.truthy(point, 'a duration point for the upgrade');
  t.true(point!.value.count >= 1);
});

test.serial('a request with traceparent joins the caller trace: same trace id, parent span id set', async (t) => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const parentId = '00f067aa0ba902b7';
  const res = await fetch(`${base}/items/7`, {
    headers: { traceparent: `00-${traceId}-${parentId}-01`, tracestate: 'vendor=abc' },
  });
  const body = (await res.json()) as { before: string };
  const span = onlySpan(t);
  t.like(span.attributes, { ...serverAddress(), 'client.address': '127.0.0.1' }); // no proxy header: the peer
  t.is(span.spanContext().traceId, traceId);
  t.is(span.parentSpanContext?.spanId, parentId);
  t.is(span.parentSpanContext?.isRemote, true);
  t.is(span.spanContext().traceState?.get('vendor'), 'abc');
  t.is(body.before, span.spanContext().spanId);
});

test.serial('a malformed traceparent is ignored: the span starts a trace of its own', async (t) => {
  for (const bad of [
    '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
    'garbage',
    `ff-${'a'.repeat(32)}-${'b'.repeat(16)}-01`,
  ]) {
    spans.reset();
    const res = await fetch(`${base}/items/8`, { headers: { traceparent: bad } });
    t.is(res.status, 200);
    const span = onlySpan(t);
    t.is(span.parentSpanContext, undefined, bad);
  }
});

test.serial('a registered propagator is used: the W3C one of the SDK gives the same parent', async (t) => {
  const app = new RestBuilder()
    .use(openTelemetry({ tracerProvider, meterProvider, propagator: new W3CTraceContextPropagator() }))
    .register(Items);
  const server = await startServer(app, { port: 0, host: '127.0.0.1' });
  t.teardown(() => server.shutdown());
  const res = await fetch(`http://127.0.0.1:${server.port}/items/9`, {
    headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
  });
  t.is(res.status, 200);
  const joined = spans.getFinishedSpans().filter((s) => s.spanContext().traceId === '0af7651916cd43dd8448eb211c80319c');
  t.true(joined.length >= 1);
  t.is(joined[0]!.parentSpanContext?.spanId, 'b7ad6b7169203331');
});

test.serial('/metrics answers the Prometheus text format with the request duration histogram', async (t) => {
  await fetch(`${base}/items/1`);
  await fetch(`${base}/items/2`);
  const res = await fetch(`${base}/metrics`);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const text = await res.text();
  // The npm parser refuses a malformed line; the strict one checks the histogram's series as well.
  const loose = parsePrometheus(text);
  t.deepEqual(
    loose.map((f) => `${f.name} ${f.type}`),
    ['http_server_request_duration_seconds HISTOGRAM', 'http_server_active_requests GAUGE'],
  );
  const families = parsePrometheusText(text);
  const histogram = families.get('http_server_request_duration_seconds')!;
  t.is(histogram.type, 'histogram');
  const routeLabels = { http_request_method: 'GET', http_response_status_code: '200', http_route: '/items/{id}' };
  const count = histogram.samples.find(
    (s) => s.name.endsWith('_count') && JSON.stringify(s.labels) === JSON.stringify(routeLabels),
  );
  t.truthy(count, text);
  t.true(count!.value >= 2);
  const buckets = histogram.samples.filter(
    (s) =>
      s.name.endsWith('_bucket') &&
      s.labels.http_route === '/items/{id}' &&
      s.labels.http_response_status_code === '200',
  );
  t.deepEqual(
    buckets.map((b) => b.labels.le),
    ['0.005', '0.01', '0.025', '0.05', '0.075', '0.1', '0.25', '0.5', '0.75', '1', '2.5', '5', '7.5', '10', '+Inf'],
  );
  const failed = histogram.samples.find((s) => s.name.endsWith('_count') && s.labels.error_type === 'TypeError');
  t.is(failed?.labels.http_response_status_code, '500');
  const gauge = families.get('http_server_active_requests')!;
  t.is(gauge.type, 'gauge');
  // The scrape itself is the one request in flight.
  t.deepEqual(gauge.samples, [{ name: 'http_server_active_requests', labels: {}, value: 1 }]);
});

test('the strict reader refuses what is not the text format', (t) => {
  t.throws(() => parsePrometheusText('# TYPE a histogram\na_bucket{le="1"} 1\na_count 1\na_sum 1\n'), {
    message: /no \+Inf/,
  });
  t.throws(() => parsePrometheusText('# TYPE a gauge\na{b="c} 1\n'), { message: /malformed labels/ });
  t.throws(() => parsePrometheusText('# TYPE a gauge\na one\n'), { message: /not a number/ });
});

test('options are checked when the plugin is made', (t) => {
  t.throws(() => openTelemetry({ metricsPath: 'metrics' }), { code: CODE.RU_ERR_PLUGIN, message: /metricsPath/ });
  t.throws(() => openTelemetry({ tracer: 1 } as never), {
    code: CODE.RU_ERR_PLUGIN,
    message: /unknown option "tracer"/,
  });
});
