import test from 'ava';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { appTracer, startTelemetry, stopTelemetry } from 'app-support/telemetry';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { ManualScheduler } from '../src/domain/session/scheduler';
import { errorOf, openSession, sourceConcluded, streamAll, targetConcluded } from './support/session-harness';
import { REPORT_SENTENCE, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';

// Telemetry on as main.ts turns it on from OTEL_EXPORTER_OTLP_ENDPOINT, with the spans kept in memory; the endpoint
// gives its sessions `appTracer('voice-stream')` as this test does.
const exporter = new InMemorySpanExporter();
startTelemetry({ serviceName: 'voice-stream', exporter });

let engines: VoiceEngines;
test.before(() => {
  requireEnginePackages();
  engines = createOfflineEngines();
});
test.after.always(async () => {
  await engines?.close();
  await stopTelemetry();
});
test.beforeEach(() => exporter.reset());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const millis = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;

test.serial(
  'a session: its span, a recognition span per concluded segment, a translation span per target under it',
  async (t) => {
    const scheduler = new ManualScheduler();
    const open = openSession(
      engines,
      { source_media_content_type: PCM_16K, target_languages: ['es', 'fr'] },
      { scheduler, tracer: appTracer('voice-stream') },
    );
    await streamAll(open, spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE]), {
      chunkBytes: 3200,
      chunkMs: 100,
      scheduler,
    });
    const source = sourceConcluded(open.received);
    t.true(source.length >= 2, `${source.length} source segments`);
    t.is(targetConcluded(open.received, 'es').length, source.length);

    const spans = exporter.getFinishedSpans();
    const sessions = spans.filter((s) => s.name === 'voice.session');
    t.is(sessions.length, 1);
    const session = sessions[0]!;
    t.like(session.attributes, {
      'voice.source.language': 'en',
      'voice.target.languages': ['es', 'fr'],
      'voice.session.outcome': 'completed',
      'voice.segments': source.length,
    });

    const recognitions = spans.filter((s) => s.name === 'voice.recognition');
    t.is(recognitions.length, source.length, 'one recognition span per concluded source segment');
    recognitions
      .sort((a, b) => Number(a.attributes['voice.segment.index']) - Number(b.attributes['voice.segment.index']))
      .forEach((recognition, index) => {
        t.is(parentOf(recognition), idOf(session), 'a recognition is a child of the session');
        t.is(recognition.spanContext().traceId, session.spanContext().traceId);
        t.like(recognition.attributes, {
          'voice.segment.index': index,
          'voice.segment.start_ms': source[index]!.start_time,
          'voice.segment.end_ms': source[index]!.end_time,
        });
        // Inside the session, from the segment's audio to its conclusion.
        t.true(millis(recognition.startTime) >= millis(session.startTime));
        t.true(millis(recognition.endTime) <= millis(session.endTime));
        const translations = spans.filter((s) => s.name === 'voice.translation' && parentOf(s) === idOf(recognition));
        t.deepEqual(
          translations.map((s) => s.attributes['voice.target.language']).sort(),
          ['es', 'fr'],
          `segment ${index}: one translation per target, under its recognition`,
        );
        for (const translation of translations) t.is(translation.attributes['voice.segment.index'], index);
      });
    t.is(spans.filter((s) => s.name === 'voice.translation').length, 2 * source.length);
  },
);

test.serial('a session that fails ends its span with status ERROR and the reason; no tracer, no span', async (t) => {
  const scheduler = new ManualScheduler();
  const open = openSession(
    engines,
    { source_media_content_type: PCM_16K, target_languages: ['es'] },
    { scheduler, tracer: appTracer('voice-stream') },
  );
  // Nothing but end_of_source_media twice: the second is a protocol violation.
  const end = JSON.stringify({ end_of_source_media: {} });
  open.session.receiveFrame(end, false);
  open.session.receiveFrame(end, false);
  await open.session.done;
  const error = errorOf(open.received);
  t.truthy(error);
  const session = exporter.getFinishedSpans().find((s) => s.name === 'voice.session');
  t.truthy(session);
  t.is(session!.attributes['voice.session.outcome'], 'failed');
  t.is(session!.status.code, 2 /* ERROR */);
  t.is(session!.status.message, error!.error_message);

  exporter.reset();
  const untraced = openSession(
    engines,
    { source_media_content_type: PCM_16K, target_languages: ['es'] },
    { scheduler: new ManualScheduler() },
  );
  untraced.session.receiveFrame(end, false);
  await untraced.session.done;
  t.deepEqual(exporter.getFinishedSpans(), []);
});
