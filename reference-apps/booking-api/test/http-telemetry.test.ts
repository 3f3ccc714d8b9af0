import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { startMain } from './helpers/main-process';

/** A span as OTLP/HTTP JSON carries it (ids in hex). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
}

/** A small OTLP/HTTP receiver: takes POST /v1/traces (JSON), keeps the spans, tells the waiters. */
async function otlpReceiver() {
  const spans: Array<OtlpSpan & { service: string }> = [];
  const waiters: Array<() => void> = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value
            ?.stringValue;
          for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) spans.push({ ...span, service });
        }
        for (const wake of waiters.splice(0)) wake();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    /** Resolves once `found` returns something, checking after every export. */
    async until<T>(found: () => T | undefined): Promise<T> {
      for (;;) {
        const value = found();
        if (value !== undefined) return value;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : undefined);
};

let postgres: TestPostgresDatabase | undefined;
test.before(async () => {
  postgres = await postgresForTests('booking-telemetry');
});
test.after.always(async () => {
  await postgres?.close();
});

test('with OTEL_EXPORTER_OTLP_ENDPOINT, the app sends its request spans, with the database spans as their children', async (t) => {
  t.timeout(120_000);
  const receiver = await otlpReceiver();
  t.teardown(() => receiver.close());
  const url = await postgres!.freshDatabase('booking-telemetry');
  // The schema and the demo catalogue made first, without telemetry: their thousands of queries are not the point.
  const seeding = await startMain([], { BOOKING_PORT: '0', HOST: '127.0.0.1', BOOKING_DATABASE_URL: url });
  t.is(await seeding.stop('SIGTERM'), 0);
  const main = await startMain([], {
    BOOKING_PORT: '0',
    HOST: '127.0.0.1',
    BOOKING_DATABASE_URL: url,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: 'booking-api-under-test',
    OTEL_BSP_SCHEDULE_DELAY: '50',
  });
  t.teardown(() => main.stop('SIGTERM'));

  const traceId = '5bf92f3577b34da6a3ce929d0e0e4736';
  const res = await fetch(`${main.url}/voucher/00000000-0000-4000-8000-000000000000`, {
    headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
  });
  t.is(res.status, 404, await res.text());

  const server = await receiver.until(() =>
    receiver.spans.find((s) => s.kind === 2 && s.traceId === traceId && s.name === 'GET /voucher/{token}'),
  );
  t.is(server.service, 'booking-api-under-test');
  t.is(server.parentSpanId, '00f067aa0ba902b7');
  t.is(attr(server, 'http.route'), '/voucher/{token}');
  t.is(attr(server, 'http.response.status_code'), 404);
  t.is(attr(server, 'url.path'), '/voucher/00000000-0000-4000-8000-000000000000');

  // The query the handler made: a pg span under the request's span (directly, or under pg-pool's connect span).
  const query = await receiver.until(() =>
    receiver.spans.find((s) => s.traceId === traceId && s.name.startsWith('pg.query') && s.parentSpanId !== undefined),
  );
  const parent = receiver.spans.find((s) => s.spanId === query.parentSpanId);
  t.truthy(parent, `the query's parent span ${query.parentSpanId} was exported`);
  const chain = [query.name];
  let up: OtlpSpan | undefined = query;
  while (up !== undefined && up.spanId !== server.spanId) {
    up = receiver.spans.find((s) => s.spanId === up!.parentSpanId);
    if (up !== undefined) chain.push(up.name);
  }
  t.is(up?.spanId, server.spanId, `the query's ancestors: ${chain.join(' <- ')}`);
  t.is(attr(query, 'db.system') ?? attr(query, 'db.system.name'), 'postgresql');
  t.is(await main.stop('SIGTERM'), 0);
});
