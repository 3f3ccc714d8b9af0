import test from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { LiveStream, requestSession, streamAddress } from './support/live-stream';
import { spokenPassage, TABLE_SENTENCE } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';

// Spoken terms at work: names the recogniser does not know (not in its dictionary, so it cannot say them) are heard
// once a session names a Spoken Terms collection with them. The speech is flite's; the names' pronunciations come
// from espeak-ng (neither name is in the CMU dictionary), so the test shows the offline derivation doing the work.

let engines: VoiceEngines;
let postgres: TestPostgresDatabase;
test.before(async () => {
  requireEnginePackages();
  engines = createOfflineEngines();
  postgres = await postgresForTests('voice_spoken_terms_sessions');
});
test.after.always(async () => {
  await engines?.close();
  await postgres?.close();
});

const NAMES = ['Please call Zelensky tomorrow morning.', 'I had lunch with Ottoline yesterday.'];
const PCM = { source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000' };

async function collectionOf(server: VoiceServer, key: string): Promise<string> {
  const response = await fetch(`${server.url}/v3/spoken-terms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${key}` },
    body: JSON.stringify({ name: 'people', term_lists: [{ lang: 'en', entries: 'Zelensky\nOttoline' }] }),
  });
  const body = (await response.json()) as { spoken_terms_id: string };
  if (response.status !== 201) throw new Error(`spoken terms refused: ${JSON.stringify(body)}`);
  return body.spoken_terms_id;
}

async function transcript(url: string, sentences: readonly string[]): Promise<{ source: string; spanish: string }> {
  const stream = await LiveStream.open(url);
  try {
    await stream.stream(spokenPassage(sentences), 3200, 60);
    await stream.waitFor('end_of_stream', (message) => 'end_of_stream' in message, 120_000);
    return { source: stream.sourceText(), spanish: stream.targetText('es') };
  } finally {
    stream.close();
  }
}

test.serial(
  'names the recogniser mishears are heard, and spelled as the list writes them, with spoken_terms_id',
  async (t) => {
    const server = await startVoiceServer({ engines, sessionRateLimit: false });
    t.teardown(() => server.close());
    const key = await server.createApiKey('spoken terms session');
    const collection = await collectionOf(server, key);
    const request = { ...PCM, target_languages: ['es'] };

    const without = await transcript(streamAddress(await requestSession(server.url, key, request)), [
      ...NAMES,
      TABLE_SENTENCE,
    ]);
    t.log(`without: ${without.source}`);
    t.notRegex(without.source, /zelensky|ottoline/i, 'not in the dictionary: the recogniser cannot say them');

    const withTerms = await transcript(
      streamAddress(await requestSession(server.url, key, { ...request, spoken_terms_id: collection })),
      [...NAMES, TABLE_SENTENCE],
    );
    t.log(`with:    ${withTerms.source}`);
    t.log(`es:      ${withTerms.spanish}`);
    t.regex(withTerms.source, /\bcall Zelensky tomorrow\b/);
    t.regex(withTerms.source, /\bwith Ottoline yesterday\b/);
    // The sentence without a name is heard as before: the terms do not crowd out other words.
    t.regex(withTerms.source, /I would like to book a table for two people at seven o'clock\./);
    t.regex(withTerms.spanish, /\bZelensky\b/, 'the name reaches the translation too');

    const other = await server.createApiKey('another key');
    const refusals: Array<[string, string, Record<string, unknown>, string, RegExp]> = [
      [
        'an unknown collection',
        key,
        { ...request, spoken_terms_id: 'def3a26b-3e84-45b3-84ae-0c0aaf3525f7' },
        'spoken_terms_not_found',
        /must name a collection of this API key/,
      ],
      [
        "another key's collection",
        other,
        { ...request, spoken_terms_id: collection },
        'spoken_terms_not_found',
        /not found/,
      ],
      ['null', key, { ...request, spoken_terms_id: null }, 'invalid_spoken_terms_id', /must not be null/],
    ];
    for (const [what, by, body, code, message] of refusals) {
      const answer = await requestSession(server.url, by, body);
      t.is(answer.status, 400, what);
      t.is(answer.body.code, code, `${what}: ${answer.body.message}`);
      t.regex(answer.body.message, message, what);
    }
    const empty = await fetch(`${server.url}/v3/spoken-terms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${key}` },
      body: JSON.stringify({ name: 'no lists', term_lists: [] }),
    });
    const emptyId = ((await empty.json()) as { spoken_terms_id: string }).spoken_terms_id;
    const mismatch = await requestSession(server.url, key, { ...request, spoken_terms_id: emptyId });
    t.is(mismatch.status, 400);
    t.is(mismatch.body.code, 'spoken_terms_language_mismatch');
  },
);

test.serial(
  'PostgreSQL: a session requested on one instance with spoken_terms_id hears the names on the other',
  async (t) => {
    const url = await postgres.freshDatabase('voice_spoken_terms_sessions');
    const first = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
    t.teardown(() => first.close());
    const second = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
    t.teardown(() => second.close());
    const key = await first.createApiKey('spoken terms across instances');
    const answer = await requestSession(first.url, key, { ...PCM, spoken_terms_id: await collectionOf(first, key) });
    t.is(answer.status, 200, JSON.stringify(answer.body));
    const onSecond = `${second.url.replace('http', 'ws')}/v3/voice/realtime/connect?token=${encodeURIComponent(answer.body.token)}`;
    const { source } = await transcript(onSecond, NAMES);
    t.log(source);
    t.regex(source, /\bZelensky\b/);
    t.regex(source, /\bOttoline\b/);
  },
);
