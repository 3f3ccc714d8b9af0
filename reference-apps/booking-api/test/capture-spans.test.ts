import test from 'ava';
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExportResult } from '@opentelemetry/core';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTelemetry, stopTelemetry } from 'app-support/telemetry';
import { PeriodicJob } from '../src/domain/periodic-job';
import { API } from './helpers/api-client';
import { createBody } from './helpers/fixture';
import { startHttpFixture } from './helpers/http-fixture';

/** Keeps the spans and wakes the test when one ends. */
class WaitingExporter extends InMemorySpanExporter {
  private waiters: Array<() => void> = [];
  override export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    super.export(spans, done);
    for (const wake of this.waiters.splice(0)) wake();
  }
  async until(found: () => ReadableSpan | undefined): Promise<ReadableSpan> {
    for (;;) {
      const span = found();
      if (span !== undefined) return span;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

// Telemetry on as main.ts turns it on from OTEL_EXPORTER_OTLP_ENDPOINT, with the spans kept in memory.
const exporter = new WaitingExporter();
startTelemetry({ serviceName: 'booking-api', exporter });

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-spans-'));
test.after.always(async () => {
  await stopTelemetry();
  fs.rmSync(folder, { recursive: true, force: true });
});

test.serial(
  'a capture is a span under its request, and the fulfilment it triggers a span under the capture',
  async (t) => {
    const { server, alice } = await startHttpFixture(path.join(folder, 'capture.db'), {
      background: { fulfilmentIntervalMs: 60_000, sweepIntervalMs: 60_000 },
    });
    t.teardown(() => server.close());
    const created = await alice.post(`${API}/booking`, createBody(1, 1));
    t.is(created.status, 201, created.text);
    const id = created.body.bookingId as string;
    exporter.reset();

    const captured = await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'SPAN-1' });
    t.is(captured.status, 200, captured.text);
    const request = await exporter.until(() =>
      exporter.getFinishedSpans().find((s) => s.name === 'PUT /api/public/v1/booking/{id}'),
    );
    const capture = await exporter.until(() => exporter.getFinishedSpans().find((s) => s.name === 'booking.capture'));
    t.is(capture.parentSpanContext?.spanId, request.spanContext().spanId, 'the capture is a child of the request');
    t.like(capture.attributes, { 'booking.id': id, 'booking.captured': true });
    const fulfilment = await exporter.until(() =>
      exporter.getFinishedSpans().find((s) => s.name === 'booking.fulfilment'),
    );
    t.is(
      fulfilment.parentSpanContext?.spanId,
      capture.spanContext().spanId,
      'the fulfilment is a child of the capture',
    );
    t.is(fulfilment.spanContext().traceId, request.spanContext().traceId);
    t.is(fulfilment.attributes['booking.fulfilment.completed'], 1);

    // The same capture again: a span that says it captured nothing, and no fulfilment round of its own.
    exporter.reset();
    const again = await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'SPAN-1' });
    t.is(again.status, 200);
    const repeated = await exporter.until(() => exporter.getFinishedSpans().find((s) => s.name === 'booking.capture'));
    t.is(repeated.attributes['booking.captured'], false);
    // A capture refused: the span records the error.
    const refused = await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'OTHER' });
    t.is(refused.status, 409);
    const failed = await exporter.until(() =>
      exporter.getFinishedSpans().find((s) => s.name === 'booking.capture' && s.status.code === 2),
    );
    t.true(failed.events.some((e) => e.name === 'exception'));
  },
);

test('a round a request triggers runs in its context; the rounds after it do not inherit it', async (t) => {
  const store = new AsyncLocalStorage<string>();
  const seen: Array<string | undefined> = [];
  let wake: (() => void) | undefined;
  const job = new PeriodicJob('test', 1, async () => {
    seen.push(store.getStore());
    wake?.();
  });
  const rounds = (n: number) =>
    new Promise<void>((resolve) => {
      wake = () => {
        if (seen.length >= n) resolve();
      };
    });
  // The job's timers do not hold the process open (unref): this does, for the test.
  const alive = setInterval(() => undefined, 60_000);
  t.teardown(() => clearInterval(alive));
  const started = rounds(1);
  job.start();
  await started;
  // A round runs to its end within one turn of the event loop: at the next turn none is in progress, so the
  // trigger below runs a round at once, in the request's context.
  await new Promise((resolve) => setImmediate(resolve));
  const more = rounds(seen.length + 3);
  store.run('capture request', () => job.trigger());
  await more;
  await job.stop();
  t.true(seen.includes('capture request'), `rounds saw ${JSON.stringify(seen)}`);
  const after = seen.slice(seen.indexOf('capture request') + 1);
  t.true(after.length >= 1);
  t.deepEqual(
    after.filter((value) => value !== undefined),
    [],
    'later rounds run outside the request',
  );
});
