import test from 'ava';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { ManualScheduler } from '../src/domain/session/scheduler';
import { kinds, openSession, sourceConcluded, streamAll, text } from './support/session-harness';
import { REPORT_SENTENCE, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';
import { passagePcm } from '../src/cli/eval/eval-audio';
import { EVAL_VOICES } from '../src/cli/eval/eval-conditions';
import { wordErrorRate } from './support/word-error-rate';

let engines: VoiceEngines;
test.before(() => {
  requireEnginePackages(['sox']);
  engines = createOfflineEngines();
});
test.after.always(() => engines?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';
const CHUNK_100MS = 3200;

for (const format of ['json', 'msgpack'] as const) {
  test.serial(`flite speech streamed as 100 ms PCM chunks in ${format} is recognised with WER <= 0.20`, async (t) => {
    const audio = spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE]);
    const audioMs = (audio.length / 2 / 16000) * 1000;
    const scheduler = new ManualScheduler();
    const open = openSession(engines, { source_media_content_type: PCM_16K, message_format: format }, { scheduler });
    await streamAll(open, audio, { chunkBytes: CHUNK_100MS, chunkMs: 100, scheduler });

    t.true(open.closed);
    t.deepEqual(
      open.frameTypes,
      open.frameTypes.map(() => format === 'msgpack'),
      'JSON uses TEXT frames, MessagePack BINARY',
    );
    t.is(kinds(open.received).at(-1), 'end_of_stream');
    const concluded = sourceConcluded(open.received);
    const transcript = text(concluded);
    const wer = wordErrorRate(`${TABLE_SENTENCE} ${REPORT_SENTENCE}`, transcript);
    t.log(`transcript: ${transcript} (WER ${wer.toFixed(3)})`);
    t.true(wer <= 0.2, `WER ${wer} above 0.20: "${transcript}"`);
    t.true(concluded.length >= 2, 'a pause of 0.8 s separates the two sentences into two segments');
    let previousEnd = 0;
    for (const segment of concluded) {
      t.is(segment.language, 'en');
      t.true(Number.isInteger(segment.start_time) && Number.isInteger(segment.end_time));
      t.true(
        segment.start_time >= previousEnd,
        `segment starts at ${segment.start_time}, before the previous end ${previousEnd}`,
      );
      t.true(segment.end_time > segment.start_time);
      t.true(segment.end_time <= audioMs, `segment ends at ${segment.end_time} ms, after the audio (${audioMs} ms)`);
      previousEnd = segment.end_time;
    }
  });
}

test.serial('tentative segments arrive while speaking and are replaced, concluded ones appear once', async (t) => {
  const audio = spokenPassage([TABLE_SENTENCE]);
  const scheduler = new ManualScheduler();
  const open = openSession(engines, { source_media_content_type: PCM_16K }, { scheduler });
  await streamAll(open, audio, { chunkBytes: CHUNK_100MS, chunkMs: 100, scheduler });
  const updates = open.received
    .filter((message) => message.source_transcript_update)
    .map((message) => message.source_transcript_update);
  const firstConcluded = updates.findIndex((update) => update.concluded.length > 0);
  t.true(firstConcluded > 0, 'tentative updates come before the concluded one');
  t.true(
    updates
      .slice(0, firstConcluded)
      .some((update) => update.tentative.length === 1 && update.tentative[0].text.length > 0),
  );
  for (const update of updates) {
    t.true(Array.isArray(update.concluded) && Array.isArray(update.tentative), 'both arrays are always present');
  }
  const concludedTexts = updates.flatMap((update) => update.concluded.map((segment: { text: string }) => segment.text));
  t.is(new Set(concludedTexts).size, concludedTexts.length, 'no concluded segment is repeated');
  t.deepEqual(updates[firstConcluded].tentative, [], 'the concluded update clears the tentative segment');
});

test.serial('a client pacing 100 ms chunks at twice real time on the real clock is accepted', async (t) => {
  const audio = spokenPassage([TABLE_SENTENCE], 400);
  const open = openSession(engines, { source_media_content_type: PCM_16K, message_format: 'msgpack' });
  await streamAll(open, audio, { chunkBytes: CHUNK_100MS, chunkMs: 100, speed: 2 });
  t.is(kinds(open.received).at(-1), 'end_of_stream');
  const transcript = text(sourceConcluded(open.received));
  t.true(wordErrorRate(TABLE_SENTENCE, transcript) <= 0.2, transcript);
});

// A short request in a session of its own, over the hiss of a quiet microphone (white noise 45 dB below the
// speech, from the first sample): the voice activity detector hears the first half second of hiss as speech, and
// that burst must not become the cepstral mean the sentence is decoded with (live-cepstral-mean.ts). Without the
// initial mean's weight (-cmnweight 0) both sentences come out wrong ("at chevron a club", "but she thompson").
const rms = EVAL_VOICES.find((voice) => voice.name === 'flite-rms')!;
for (const sentence of [TABLE_SENTENCE, 'Where is the nearest bus stop?']) {
  test.serial(`"${sentence}" alone in its session over a microphone's noise floor is recognised`, async (t) => {
    const audio = passagePcm({ voice: rms, sampleRate: 16000, format: 'pcm', noise: null }, [sentence], 45);
    const scheduler = new ManualScheduler();
    const open = openSession(engines, { source_media_content_type: PCM_16K }, { scheduler });
    await streamAll(open, audio, { chunkBytes: CHUNK_100MS, chunkMs: 100, scheduler });
    t.is(kinds(open.received).at(-1), 'end_of_stream');
    const transcript = text(sourceConcluded(open.received));
    t.true(wordErrorRate(sentence, transcript) <= 0.1, `heard "${transcript}"`);
  });
}
