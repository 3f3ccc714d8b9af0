import test from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { otlpAttribute as attr, otlpReceiver, type OtlpSpan } from 'app-support/testing';
import { startMain } from './helpers/main-process';

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
    // Metrics switched off (http-metrics.test.ts has them): the shutdown then exports none.
    OTEL_METRICS_EXPORTER: 'none',
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
  t.false(
    receiver.paths.some((p) => p.includes('/v1/metrics')),
    receiver.paths.join('\n'),
  );
});
