import test from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { translateWithGlossary } from '../src/domain/glossary/term-protection';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { LiveStream, requestSession, streamAddress } from './support/live-stream';
import { REPORT_SENTENCE, spokenPassage } from './support/speech-fixtures';
import { requireEnginePackages } from './support/system-packages';

// Glossaries applied: with Apertium, each glossary phrase is kept out of the translation and its target phrase put
// in its place, so it always comes out as the glossary writes it; a session request names the glossary with
// glossary_id, and the stream's translations follow it (also when another instance runs the stream).

let engines: VoiceEngines;
let postgres: TestPostgresDatabase;
test.before(async () => {
  requireEnginePackages();
  engines = createOfflineEngines();
  postgres = await postgresForTests('voice_glossary_sessions');
});
test.after.always(async () => {
  await engines?.close();
  await postgres?.close();
});

const OFFICE = [
  { source: 'report', target: 'memoria' },
  { source: 'meeting', target: 'junta' },
];

test.serial(
  'Apertium: a glossary phrase always comes out as its target phrase, direct and through the Spanish pivot',
  async (t) => {
    const plain = await engines.translator.translate(REPORT_SENTENCE, 'en', 'es');
    t.regex(plain, /informe/, `without a glossary: ${plain}`);
    t.regex(plain, /reunión/);
    const withGlossary = await translateWithGlossary(
      engines.translator,
      REPORT_SENTENCE,
      'en',
      'es',
      'default',
      OFFICE,
    );
    t.log(withGlossary);
    t.regex(withGlossary, /\bmemoria\b/);
    t.regex(withGlossary, /\bjunta\b/);
    t.notRegex(withGlossary, /informe|reunión|Zxqj/i);
    // French goes through Spanish: the phrase survives both steps, exactly as written (capital and all).
    const french = await translateWithGlossary(engines.translator, 'The report is ready.', 'en', 'fr', 'default', [
      { source: 'report', target: 'Compte-Rendu' },
    ]);
    t.log(french);
    t.regex(french, /\bCompte-Rendu\b/);
    t.notRegex(french, /rapport|Zxqj/i);
    // A phrase of several words, whatever its case in the sentence.
    const catalan = await translateWithGlossary(
      engines.translator,
      'Please Book A Table for two.',
      'en',
      'ca',
      'default',
      [{ source: 'book a table', target: 'fer una reserva' }],
    );
    t.log(catalan);
    t.regex(catalan, /fer una reserva/);
  },
);

async function glossaryOf(server: VoiceServer, key: string, dictionaries: unknown[]): Promise<string> {
  const response = await fetch(`${server.url}/v3/glossaries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${key}` },
    body: JSON.stringify({ name: 'office', dictionaries }),
  });
  const body = (await response.json()) as { glossary_id: string };
  if (response.status !== 201) throw new Error(`glossary refused: ${JSON.stringify(body)}`);
  return body.glossary_id;
}

async function translatedTranscript(url: string, format: 'json' | 'msgpack', language: string): Promise<string> {
  const stream = await LiveStream.open(url, format);
  try {
    await stream.stream(spokenPassage([REPORT_SENTENCE]), 3200, 60);
    await stream.waitFor('end_of_stream', (message) => 'end_of_stream' in message, 120_000);
    return stream.targetText(language);
  } finally {
    stream.close();
  }
}

const ES_DICTIONARY = { source_lang: 'en', target_lang: 'es', entries: 'report\tmemoria\nmeeting\tjunta' };

test.serial(
  'a session with glossary_id: the spoken sentence is translated with the glossary; unknown, foreign and useless glossaries are refused',
  async (t) => {
    const server = await startVoiceServer({ engines, sessionRateLimit: false });
    t.teardown(() => server.close());
    const key = await server.createApiKey('glossary session');
    const other = await server.createApiKey('another key');
    const glossary = await glossaryOf(server, key, [ES_DICTIONARY]);
    const request = { source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000', target_languages: ['es'] };

    const without = await translatedTranscript(
      streamAddress(await requestSession(server.url, key, request)),
      'json',
      'es',
    );
    t.log(`without: ${without}`);
    t.regex(without, /informe/);
    const withGlossary = await translatedTranscript(
      streamAddress(
        await requestSession(server.url, key, { ...request, message_format: 'msgpack', glossary_id: glossary }),
      ),
      'msgpack',
      'es',
    );
    t.log(`with: ${withGlossary}`);
    t.regex(withGlossary, /\bmemoria\b/);
    t.notRegex(withGlossary, /informe|Zxqj/i);

    const refusals: Array<[string, string, Record<string, unknown>, string, RegExp]> = [
      [
        'an unknown glossary',
        key,
        { ...request, glossary_id: 'def3a26b-3e84-45b3-84ae-0c0aaf3525f7' },
        'glossary_not_found',
        /must name a glossary of this API key/,
      ],
      ["another key's glossary", other, { ...request, glossary_id: glossary }, 'glossary_not_found', /not found/],
      [
        'a glossary without the targets’ pair',
        key,
        { ...request, target_languages: ['fr'], glossary_id: glossary },
        'glossary_language_mismatch',
        /no dictionary for the session's language pairs \(en-fr\)/,
      ],
      [
        'a glossary with no targets to apply to',
        key,
        { ...request, target_languages: [], glossary_id: glossary },
        'glossary_language_mismatch',
        /needs target_languages/,
      ],
      ['an empty glossary id', key, { ...request, glossary_id: '' }, 'invalid_glossary_id', /non-empty string/],
    ];
    for (const [what, by, body, code, message] of refusals) {
      const answer = await requestSession(server.url, by, body);
      t.is(answer.status, 400, what);
      t.is(answer.body.code, code, `${what}: ${answer.body.message}`);
      t.regex(answer.body.message, message, what);
    }
    // pt-BR uses the glossary's en-pt dictionary.
    const portuguese = await glossaryOf(server, key, [
      { source_lang: 'en', target_lang: 'pt', entries: 'report\trelatório' },
    ]);
    t.is(
      (await requestSession(server.url, key, { ...request, target_languages: ['pt-BR'], glossary_id: portuguese }))
        .status,
      200,
    );
  },
);

test.serial(
  'PostgreSQL: a session requested on one instance with glossary_id is translated with it on the other, even after the glossary is deleted',
  async (t) => {
    const url = await postgres.freshDatabase('voice_glossary_sessions');
    const first = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
    t.teardown(() => first.close());
    const second = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
    t.teardown(() => second.close());
    const key = await first.createApiKey('glossary across instances');
    const glossary = await glossaryOf(first, key, [ES_DICTIONARY]);
    const answer = await requestSession(first.url, key, {
      source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000',
      target_languages: ['es'],
      glossary_id: glossary,
    });
    // The session keeps the glossary it was requested with.
    const deleted = await fetch(`${first.url}/v3/glossaries/${glossary}`, {
      method: 'DELETE',
      headers: { authorization: `DeepL-Auth-Key ${key}` },
    });
    t.is(deleted.status, 204);
    const onSecond = `${second.url.replace('http', 'ws')}/v3/voice/realtime/connect?token=${encodeURIComponent(answer.body.token)}`;
    const text = await translatedTranscript(onSecond, 'json', 'es');
    t.log(text);
    t.regex(text, /\bmemoria\b/);
    t.notRegex(text, /informe/);
  },
);
