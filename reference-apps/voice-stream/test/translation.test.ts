import test from 'ava';
import { ApertiumTranslator } from '../src/engines/apertium/apertium-translator';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { ManualScheduler } from '../src/domain/session/scheduler';
import { kinds, openSession, sourceConcluded, streamAll, targetConcluded, text } from './support/session-harness';
import { REPORT_SENTENCE, spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';

let engines: VoiceEngines;
test.before(() => {
  requireEnginePackages();
  engines = createOfflineEngines();
});
test.after.always(() => engines?.close());

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';

const EXPECTED_WORDS: Record<string, string[]> = {
  es: ['mesa', 'personas'],
  fr: ['table', 'personnes'],
  ca: ['taula', 'persones'],
  gl: ['mesa', 'persoas'],
  it: ['persone'],
  pt: ['mesa', 'pessoas'],
  'pt-BR': ['mesa', 'pessoas'],
  'pt-PT': ['mesa', 'pessoas'],
};

for (const [language, expected] of Object.entries(EXPECTED_WORDS)) {
  test(`Apertium translates the booking sentence into ${language}`, async (t) => {
    const translated = await engines.translator.translate(TABLE_SENTENCE, 'en', language);
    t.log(translated);
    for (const word of expected)
      t.true(translated.toLowerCase().includes(word), `"${word}" missing in "${translated}"`);
  });
}

test('English targets are the source text unchanged', async (t) => {
  for (const language of ['en', 'en-US', 'en-GB'])
    t.is(await engines.translator.translate(TABLE_SENTENCE, 'en', language), TABLE_SENTENCE);
});

test('one pipeline serves many requests in order, with Apertium special characters kept literal', async (t) => {
  const translator = new ApertiumTranslator();
  try {
    const sentences = [
      'Thank you very much.',
      'The price is [ten] dollars / $10 ^ @home <today> {maybe} \\ end.',
      'Where is the hospital?',
    ];
    const results = await Promise.all(sentences.map((sentence) => translator.translate(sentence, 'en', 'es')));
    t.is(results[0], 'Muchas gracias.');
    for (const literal of ['[', ']', '/', '$10', '^', '@', '<', '>', '{', '}', '\\'])
      t.true(results[1].includes(literal), `${literal} lost in "${results[1]}"`);
    t.true(results[1].startsWith('El precio'), results[1]);
    t.true(results[2].toLowerCase().includes('hospital'), results[2]);
  } finally {
    await translator.close();
  }
});

test('no translation from another source language', async (t) => {
  t.deepEqual(engines.translator.targetsFor('de'), []);
  await t.throwsAsync(engines.translator.translate('Hallo', 'de', 'es'));
});

test.serial(
  'spoken English is translated per target language, once per concluded segment, with the source times',
  async (t) => {
    const scheduler = new ManualScheduler();
    const open = openSession(
      engines,
      { source_media_content_type: PCM_16K, target_languages: ['es', 'FR'] },
      { scheduler },
    );
    await streamAll(open, spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE]), {
      chunkBytes: 3200,
      chunkMs: 100,
      scheduler,
    });
    const source = sourceConcluded(open.received);
    const spanish = targetConcluded(open.received, 'es');
    const french = targetConcluded(open.received, 'fr');
    t.log(text(spanish));
    t.log(text(french));
    t.is(spanish.length, source.length);
    t.is(french.length, source.length);
    t.true(text(spanish).includes('mesa') && text(spanish).includes('personas'));
    t.true(text(spanish).includes('informe'), 'the second sentence ("report") is translated too');
    t.true(text(french).includes('table') && text(french).includes('personnes'));
    spanish.forEach((segment, index) => {
      t.is(segment.start_time, source[index].start_time);
      t.is(segment.end_time, source[index].end_time);
      t.false('language' in segment, 'target segments carry no language field');
    });
    t.true(spanish[1].text.startsWith(' '), 'later segments start with a space so the texts concatenate');
    const endings = kinds(open.received).filter((kind) => kind.startsWith('end_of'));
    t.deepEqual(endings, [
      'end_of_source_transcript',
      'end_of_target_transcript',
      'end_of_target_transcript',
      'end_of_stream',
    ]);
    t.deepEqual(
      open.received
        .filter((message) => message.end_of_target_transcript)
        .map((message) => message.end_of_target_transcript.language),
      ['es', 'fr'],
    );
  },
);

test.serial('tentative target transcripts are refreshed at most about once a second', async (t) => {
  await engines.translator.translate('warm up', 'en', 'es');
  // The throttle governs when tentative text is sent to the translator; an update reaches the client when that
  // translation is done, so the gaps between arrivals also carry the translator's jitter (a busy CI host added
  // over 100 ms). The requests are checked exactly, the arrivals by their number over the whole stream.
  const requests: Array<{ at: number; text: string }> = [];
  const translator = Object.create(engines.translator) as typeof engines.translator;
  translator.translate = (text, source, target, formality) => {
    requests.push({ at: performance.now(), text: text.trim() });
    return engines.translator.translate(text, source, target, formality);
  };
  const open = openSession(
    { ...engines, translator },
    { source_media_content_type: PCM_16K, target_languages: ['es'] },
  );
  const arrivals: number[] = [];
  const originalPush = open.received.push.bind(open.received);
  open.received.push = (...messages) => {
    for (const message of messages) {
      const update = message.target_transcript_update;
      if (update && update.tentative.length > 0) arrivals.push(performance.now());
    }
    return originalPush(...messages);
  };
  const startedAt = performance.now();
  await streamAll(open, spokenPassage([TABLE_SENTENCE, REPORT_SENTENCE]), { chunkBytes: 3200, chunkMs: 100, speed: 2 });
  const streamedMs = performance.now() - startedAt;
  t.true(arrivals.length >= 2, `expected tentative translations while speaking, got ${arrivals.length}`);
  t.true(
    arrivals.length <= Math.floor(streamedMs / 1000) + 1,
    `${arrivals.length} tentative updates in ${Math.round(streamedMs)} ms`,
  );
  // Concluded sentences are translated at once, unthrottled: leave them out (dropping a request only widens a gap).
  const concluded = new Set(sourceConcluded(open.received).map((segment) => segment.text.trim()));
  const tentative = requests.filter((request) => !concluded.has(request.text)).map((request) => request.at);
  t.true(tentative.length >= 2, `expected throttled tentative requests, got ${tentative.length}`);
  for (let index = 1; index < tentative.length; index += 1) {
    // 10 ms for timers, which run on the event loop's millisecond clock rather than performance.now().
    t.true(
      tentative[index] - tentative[index - 1] >= 990,
      `tentative requests ${Math.round(tentative[index] - tentative[index - 1])} ms apart`,
    );
  }
});
