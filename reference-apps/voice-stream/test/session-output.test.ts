import test from 'ava';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { ManualScheduler } from '../src/domain/session/scheduler';
import { kinds, openSession, streamAll } from './support/session-harness';
import { REPORT_SENTENCE, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';

let engines: VoiceEngines;
test.before(() => {
  requireEnginePackages();
  engines = createOfflineEngines();
});
test.after.always(() => engines?.close());

for (const format of ['json', 'msgpack'] as const) {
  test.serial(
    `the ${format} stream ends with the end_of_* sequence and end_of_stream last, nothing after its end marker`,
    async (t) => {
      const scheduler = new ManualScheduler();
      const open = openSession(
        engines,
        {
          source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000',
          message_format: format,
          target_languages: ['fr'],
          target_media_languages: ['es'],
        },
        { scheduler },
      );
      await streamAll(open, spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE]), {
        chunkBytes: 3200,
        chunkMs: 100,
        scheduler,
      });
      const sequence = kinds(open.received);
      t.deepEqual(
        sequence.filter((kind) => kind.startsWith('end_of')),
        [
          'end_of_source_transcript',
          'end_of_target_transcript',
          'end_of_target_transcript',
          'end_of_target_media',
          'end_of_stream',
        ],
      );
      t.is(sequence.at(-1), 'end_of_stream');
      t.is(sequence.filter((kind) => kind === 'end_of_stream').length, 1);
      const at = (predicate: (message: Record<string, any>) => boolean) => open.received.findIndex(predicate);
      const lastAt = (predicate: (message: Record<string, any>) => boolean) =>
        open.received.map((message, index) => (predicate(message) ? index : -1)).reduce((a, b) => Math.max(a, b), -1);
      t.true(lastAt((message) => message.source_transcript_update) < at((message) => message.end_of_source_transcript));
      for (const language of ['fr', 'es']) {
        const end = at((message) => message.end_of_target_transcript?.language === language);
        t.true(end > 0, `end_of_target_transcript for ${language}`);
        t.true(lastAt((message) => message.target_transcript_update?.language === language) < end);
      }
      t.true(lastAt((message) => message.target_media_chunk) < at((message) => message.end_of_target_media));
      t.deepEqual(
        open.received.find((message) => message.end_of_target_media),
        { end_of_target_media: { language: 'es' } },
      );
      t.deepEqual(
        open.received.find((message) => message.end_of_source_transcript),
        { end_of_source_transcript: {} },
      );
      t.true(open.closed);
      // Every message has exactly one top-level key.
      for (const message of open.received) t.is(Object.keys(message).length, 1);
      const chunk = open.received.find((message) => message.target_media_chunk)!.target_media_chunk;
      t.is(
        typeof chunk.data[0],
        format === 'json' ? 'string' : 'object',
        'JSON carries base64 strings, MessagePack raw bytes',
      );
    },
  );
}
