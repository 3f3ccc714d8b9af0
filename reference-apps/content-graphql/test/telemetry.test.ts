import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTelemetry, stopTelemetry } from 'app-support/telemetry';
import { startContentServer, type RunningContentServer } from '../src/server';

// Telemetry on as main.ts turns it on from OTEL_EXPORTER_OTLP_ENDPOINT, with the spans kept in memory.
const exporter = new InMemorySpanExporter();
startTelemetry({ serviceName: 'content-graphql', exporter });

let server: RunningContentServer;
let dir: string;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'content-telemetry-'));
  server = await startContentServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'content.db'),
    assetsRoot: join(dir, 'assets'),
    graphqlPath: '/graphql',
    settings: { changePollMs: 0, enableGraphQlCaching: false },
  });
});
test.after.always(async () => {
  await server?.close();
  await stopTelemetry();
  await rm(dir, { recursive: true, force: true });
});
test.beforeEach(() => exporter.reset());

const post = (body: unknown) =>
  fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The finished spans of one trace, by name (each name once). */
function byName(spans: ReadableSpan[]): Map<string, ReadableSpan> {
  const named = new Map<string, ReadableSpan>();
  for (const span of spans) {
    if (named.has(span.name)) throw new Error(`two spans named ${span.name}`);
    named.set(span.name, span);
  }
  return named;
}

const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;

test.serial('a query: the operation span under the request span, parse, validate and execute under it', async (t) => {
  const query = 'query One($slug: [String]) { entry(slug: $slug) { title } } query Two { ping }';
  const res = await post({ query, variables: { slug: 'about-us' }, operationName: 'One' });
  t.deepEqual(await res.json(), { data: { entry: { title: 'About us' } } });
  const spans = byName(exporter.getFinishedSpans());
  const request = spans.get('POST /graphql');
  const operation = spans.get('query');
  t.truthy(request, `spans: ${[...spans.keys()].join(', ')}`);
  t.truthy(operation);
  t.like(operation!.attributes, {
    'graphql.operation.type': 'query',
    'graphql.operation.name': 'One',
    'graphql.document': query,
  });
  t.is(parentOf(operation), idOf(request), 'the operation is a child of the request span');
  for (const phase of ['graphql.parse', 'graphql.validate', 'graphql.execute']) {
    const span = spans.get(phase);
    t.truthy(span, phase);
    t.is(parentOf(span), idOf(operation), `${phase} is a child of the operation span`);
    t.is(span!.spanContext().traceId, request!.spanContext().traceId);
  }
  t.like(spans.get('graphql.execute')!.attributes, {
    'graphql.operation.type': 'query',
    'graphql.operation.name': 'One',
  });
  // The phases in order, inside the operation.
  const start = (name: string) => spans.get(name)!.startTime;
  const after = (a: [number, number], b: [number, number]) => a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]);
  t.true(after(start('graphql.validate'), start('graphql.parse')));
  t.true(after(start('graphql.execute'), start('graphql.validate')));

  // The same text again: parsed and validated from the caches, still one span each.
  exporter.reset();
  await (await post({ query, variables: { slug: 'about-us' }, operationName: 'One' })).json();
  const again = byName(exporter.getFinishedSpans());
  t.is(again.get('graphql.parse')!.attributes['content_graphql.cached'], true);
  t.is(again.get('graphql.validate')!.attributes['content_graphql.cached'], true);
});

test.serial(
  'an anonymous query is named by its type alone; a syntax error has a parse span and no other phase',
  async (t) => {
    await (await post({ query: '{ ping }' })).json();
    const anonymous = byName(exporter.getFinishedSpans()).get('query');
    t.truthy(anonymous);
    t.false('graphql.operation.name' in anonymous!.attributes);
    t.is(anonymous!.attributes['graphql.document'], '{ ping }');

    exporter.reset();
    const broken = await post({ query: '{ ping' });
    t.truthy(((await broken.json()) as { errors?: unknown[] }).errors?.length);
    const spans = byName(exporter.getFinishedSpans());
    const operation = spans.get('GraphQL Operation');
    t.truthy(operation, `spans: ${[...spans.keys()].join(', ')}`);
    t.is(parentOf(spans.get('graphql.parse')), idOf(operation));
    t.false(spans.has('graphql.validate'));
    t.false(spans.has('graphql.execute'));
  },
);
