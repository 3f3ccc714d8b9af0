import test from 'ava';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { ManualScheduler } from '../src/domain/session/scheduler';
import { errorOf, kinds, openSession, sourceConcluded, streamAll, text } from './support/session-harness';
import { encodeAudio, SOURCE_CODECS, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';
import { wordErrorRate } from './support/word-error-rate';

let engines: VoiceEngines;
let speech: Buffer;
test.before(() => {
  requireEnginePackages();
  engines = createOfflineEngines();
  speech = spokenPassage([TABLE_SENTENCE], 600);
});
test.after.always(() => engines?.close());

for (const codec of SOURCE_CODECS) {
  for (const format of ['json', 'msgpack'] as const) {
    test.serial(
      `${codec.name} (${codec.contentType}) in 100 ms chunks over ${format} is decoded and recognised with WER <= 0.20`,
      async (t) => {
        const encoded = encodeAudio(speech, codec.args);
        const audioMs = (speech.length / 2 / 16000) * 1000;
        // 100 ms of audio per chunk: the file's bytes spread evenly over its duration.
        const chunkBytes = codec.contentType.includes('ulaw') ? 800 : Math.ceil((encoded.length * 100) / audioMs);
        const scheduler = new ManualScheduler();
        const open = openSession(
          engines,
          { source_media_content_type: codec.contentType, message_format: format },
          { scheduler },
        );
        await streamAll(open, encoded, { chunkBytes, chunkMs: 100, scheduler });
        t.is(
          kinds(open.received).at(-1),
          'end_of_stream',
          JSON.stringify(open.received.find((message) => message.error)),
        );
        const transcript = text(sourceConcluded(open.received));
        const wer = wordErrorRate(TABLE_SENTENCE, transcript);
        t.log(`${codec.name}: ${transcript} (WER ${wer.toFixed(3)})`);
        t.true(wer <= 0.2, `WER ${wer}: "${transcript}"`);
        for (const segment of sourceConcluded(open.received)) t.true(segment.end_time <= audioMs + 50);
      },
    );
  }
}

test.serial('audio/auto detects the container (WebM/Opus) by itself', async (t) => {
  const encoded = encodeAudio(speech, ['-c:a', 'libopus', '-b:a', '32k', '-f', 'webm']);
  const scheduler = new ManualScheduler();
  const open = openSession(engines, { source_media_content_type: 'audio/auto' }, { scheduler });
  await streamAll(open, encoded, { chunkBytes: 400, chunkMs: 100, scheduler });
  t.true(wordErrorRate(TABLE_SENTENCE, text(sourceConcluded(open.received))) <= 0.2);
});

for (const rate of [8000, 44100, 48000]) {
  test.serial(`PCM s16le at ${rate} Hz is resampled and recognised`, async (t) => {
    const encoded = encodeAudio(speech, ['-ar', String(rate), '-c:a', 'pcm_s16le', '-f', 's16le']);
    const scheduler = new ManualScheduler();
    const open = openSession(
      engines,
      { source_media_content_type: `audio/pcm; encoding=s16le; rate=${rate}` },
      { scheduler },
    );
    await streamAll(open, encoded, { chunkBytes: (rate / 10) * 2, chunkMs: 100, scheduler });
    const transcript = text(sourceConcluded(open.received));
    t.true(wordErrorRate(TABLE_SENTENCE, transcript) <= 0.2, `${transcript} ${JSON.stringify(errorOf(open.received))}`);
  });
}

test.serial('A-law at 8 kHz is decoded and recognised', async (t) => {
  const encoded = encodeAudio(speech, ['-ar', '8000', '-c:a', 'pcm_alaw', '-f', 'alaw']);
  const scheduler = new ManualScheduler();
  const open = openSession(engines, { source_media_content_type: 'audio/pcm;encoding=alaw;rate=8000' }, { scheduler });
  await streamAll(open, encoded, { chunkBytes: 800, chunkMs: 100, scheduler });
  const transcript = text(sourceConcluded(open.received));
  t.true(wordErrorRate(TABLE_SENTENCE, transcript) <= 0.25, transcript);
});
