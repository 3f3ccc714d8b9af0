import test from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import {
  otlpAttribute as attr,
  type OtlpMetricPoint,
  otlpReceiver,
  otlpResourceAttribute as resourceAttr,
} from 'app-support/testing';
import { startMain } from './helpers/main-process';

let postgres: TestPostgresDatabase | undefined;
let databaseUrl = '';
test.before(async (t) => {
  t.timeout(120_000);
  postgres = await postgresForTests('booking-metrics');
  databaseUrl = await postgres.freshDatabase('booking-metrics');
  // The schema and the demo catalogue made first, without telemetry, once for the tests of this file.
  const seeding = await startMain([], { BOOKING_PORT: '0', HOST: '127.0.0.1', BOOKING_DATABASE_URL: databaseUrl });
  t.is(await seeding.stop('SIGTERM'), 0);
});
test.after.always(async () => {
  await postgres?.close();
});

const VOUCHER = '/voucher/00000000-0000-4000-8000-000000000000';

/** The duration point of the request the test made: the route's, answered 404. */
const voucherDuration = (points: OtlpMetricPoint[]) =>
  points.find(
    (p) =>
      p.metric === 'http.server.request.duration' &&
      p.type === 'histogram' &&
      attr(p, 'http.route') === '/voucher/{token}' &&
      attr(p, 'http.response.status_code') === 404 &&
      Number(p.count) >= 1,
  );

/** Starts the app sending telemetry to a receiver, with these extra variables. */
async function appWithTelemetry(receiverUrl: string, env: NodeJS.ProcessEnv) {
  return startMain([], {
    BOOKING_PORT: '0',
    HOST: '127.0.0.1',
    BOOKING_DATABASE_URL: databaseUrl,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
    OTEL_SERVICE_NAME: 'booking-api-under-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=metrics-test,service.version=9.9.9',
    ...env,
  });
}

test.serial(
  'the app exports the HTTP server metrics every OTEL_METRIC_EXPORT_INTERVAL, under its resource',
  async (t) => {
    t.timeout(120_000);
    const receiver = await otlpReceiver();
    t.teardown(() => receiver.close());
    const main = await appWithTelemetry(receiver.url, { OTEL_METRIC_EXPORT_INTERVAL: '100' });
    t.teardown(() => main.stop('SIGTERM'));

    t.is((await fetch(`${main.url}${VOUCHER}`)).status, 404);

    // Exported while the app runs: the periodic reader, not the shutdown.
    const duration = await receiver.until(() => voucherDuration(receiver.metrics));
    t.is(attr(duration, 'http.request.method'), 'GET');
    t.is(resourceAttr(duration, 'service.name'), 'booking-api-under-test');
    t.is(resourceAttr(duration, 'deployment.environment.name'), 'metrics-test');
    t.is(resourceAttr(duration, 'service.version'), '9.9.9');
    const active = receiver.metrics.find((p) => p.metric === 'http.server.active_requests');
    t.is(active?.type, 'sum');
    t.is(attr(active!, 'http.request.method'), 'GET');
    t.is(await main.stop('SIGTERM'), 0);
  },
);

test.serial('stopping the app exports the metrics recorded since the last export', async (t) => {
  t.timeout(120_000);
  const receiver = await otlpReceiver();
  t.teardown(() => receiver.close());
  // An interval no test waits for: only the shutdown can export.
  const main = await appWithTelemetry(receiver.url, { OTEL_METRIC_EXPORT_INTERVAL: '3600000' });
  t.teardown(() => main.stop('SIGTERM'));

  t.is((await fetch(`${main.url}${VOUCHER}`)).status, 404);
  t.is(await main.stop('SIGTERM'), 0);

  // The app exported before it exited, and the receiver had the body before it answered.
  t.truthy(voucherDuration(receiver.metrics), receiver.paths.join('\n'));
});
