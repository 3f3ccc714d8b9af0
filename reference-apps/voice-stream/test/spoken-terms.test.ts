import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { parseTermList, spellTerms, termWords } from '../src/domain/spoken-terms/spoken-terms';
import { ipaToCmu } from '../src/engines/pocketsphinx/ipa-to-cmu';
import { DEFAULT_MODEL_DIRECTORY } from '../src/engines/pocketsphinx/pocketsphinx-library';
import { Pronouncer } from '../src/engines/pocketsphinx/pronunciation';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { DeepLSpec } from './support/deepl-spec';
import { requireEnginePackages } from './support/system-packages';

// Spoken terms (DeepL's /v3/spoken-terms) as a client uses them over HTTP, on SQLite and PostgreSQL, and the pieces
// that turn a term into words the recogniser knows: the list's rules, the pronunciations (the CMU dictionary's, else
// espeak-ng's phonemes mapped to the model's phones), and the spelling of recognised terms.

let directory: string;
let postgres: TestPostgresDatabase;
let engines: VoiceEngines;
const spec = new DeepLSpec();
test.before(async () => {
  requireEnginePackages();
  directory = mkdtempSync(path.join(tmpdir(), 'voice-spoken-terms-'));
  postgres = await postgresForTests('voice_spoken_terms');
  engines = createOfflineEngines();
});
test.after.always(async () => {
  await engines?.close();
  await postgres?.close();
  rmSync(directory, { recursive: true, force: true });
});

test('term lists follow DeepL rules: newline-separated, case-sensitive, none empty, repeated or padded, 300 characters', (t) => {
  t.deepEqual(parseTermList('DeepL\nAPI\nwebhook\n'), { terms: ['DeepL', 'API', 'webhook'] });
  t.deepEqual(parseTermList('DeepL\ndeepl'), { terms: ['DeepL', 'deepl'] }, 'case-sensitive: not a repeat');
  const problem = (entries: string) => {
    const parsed = parseTermList(entries);
    return 'problem' in parsed ? parsed.problem : 'accepted';
  };
  t.is(problem('DeepL\n\nAPI'), 'line 2: the term is empty');
  t.is(problem('DeepL\nDeepL'), 'line 2: "DeepL" repeats line 1');
  t.is(problem(' DeepL'), 'line 1: the term has leading or trailing whitespace');
  t.is(problem('Deep\tL'), 'line 1: the term contains a control character');
  t.is(
    problem(Array.from({ length: 31 }, (_, index) => `term${String(index).padStart(6, '0')}`).join('\n')),
    'the terms hold 310 characters; a term list holds at most 300',
  );
  t.is(
    problem(Array.from({ length: 30 }, (_, index) => `term${String(index).padStart(6, '0')}`).join('\n')),
    'accepted',
  );
});

test('recognised words are written as the term list writes them, the longest term first', (t) => {
  t.deepEqual(termWords("New Relic's O'Neill-Smith!"), ['new', "relic's", "o'neill-smith"]);
  t.is(
    spellTerms('please call zelensky and new relic about deepl', ['Zelensky', 'New Relic', 'Relic', 'DeepL']),
    'please call Zelensky and New Relic about DeepL',
  );
  t.is(
    spellTerms('a relic in the zelenskyy file', ['Zelensky', 'Relic']),
    'a Relic in the zelenskyy file',
    'whole words only',
  );
});

test("pronunciations: the CMU dictionary's when it has the word, else espeak-ng's IPA in the model's phones", async (t) => {
  t.deepEqual(ipaToCmu('zɛlˈɛnski'), ['Z', 'EH', 'L', 'EH', 'N', 'S', 'K', 'IY']);
  t.deepEqual(ipaToCmu('bˈʌʔn̩'), ['B', 'AH', 'T', 'AH', 'N']);
  t.deepEqual(ipaToCmu('tʃˈɜːtʃ'), ['CH', 'ER', 'CH']);
  t.deepEqual(ipaToCmu('nˌækɐmjˈʊɹɹə'), ['N', 'AE', 'K', 'AH', 'M', 'Y', 'UH', 'R', 'AH'], 'a doubled phone kept once');
  t.is(ipaToCmu('ʘ'), undefined, 'a symbol with no phone: no pronunciation rather than a wrong one');
  const pronouncer = Pronouncer.forModel(DEFAULT_MODEL_DIRECTORY);
  t.deepEqual(await pronouncer.pronounce('kowalski'), ['K AH W AA L S K IY'], 'from the CMU dictionary');
  t.deepEqual(await pronouncer.pronounce('zelensky'), ['Z EH L EH N S K IY'], 'from espeak-ng');
  const { vocabulary, unpronounceable } = await pronouncer.vocabulary(['New Relic', 'Zelensky', '???']);
  t.deepEqual(unpronounceable, []);
  t.deepEqual(vocabulary.phrases, [['new', 'relic'], ['zelensky']]);
  t.deepEqual(
    vocabulary.words.map((entry) => entry.word),
    ['new', 'relic', 'zelensky'],
  );
});

const COLLECTION = 'deepl:spoken-terms#/components/schemas/SpokenTerms';
const LISTING = 'deepl:spoken-terms#/components/schemas/SpokenTermsListing';
const ENTRIES = 'deepl:spoken-terms#/components/schemas/SpokenTermsEntries';

function client(server: VoiceServer, key: string) {
  return async (method: string, target: string, body?: unknown) => {
    const response = await fetch(`${server.url}${target}`, {
      method,
      headers: {
        authorization: `DeepL-Auth-Key ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  };
}

function conforms(t: ExecutionContext, reference: string, value: unknown, what: string): void {
  t.deepEqual(spec.check(reference, value), [], `${what} validates against ${reference}`);
  t.deepEqual(spec.undocumented(reference, value), [], `${what} names only fields of ${reference}`);
}

const databases = [
  { name: 'SQLite', url: async () => path.join(directory, `terms-${Math.random().toString(36).slice(2)}.db`) },
  { name: 'PostgreSQL', url: () => postgres.freshDatabase('voice_spoken_terms') },
];

for (const database of databases) {
  test.serial(
    `${database.name}: a key creates, lists, reads and deletes its Spoken Terms; another key sees none`,
    async (t) => {
      const url = await database.url();
      let server = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
      t.teardown(() => server.close());
      const keyA = await server.createApiKey('terms A');
      const keyB = await server.createApiKey('terms B');
      let a = client(server, keyA);
      const b = client(server, keyB);
      const created = await a('POST', '/v3/spoken-terms', {
        name: 'Technical Terms',
        term_lists: [{ lang: 'en', entries: 'DeepL\nZelensky\nNew Relic' }],
      });
      t.is(created.status, 201, JSON.stringify(created.body));
      conforms(t, COLLECTION, created.body, 'the created collection');
      const id: string = created.body.spoken_terms_id;
      t.is(created.headers.get('location'), `/v3/spoken-terms/${id}`);
      t.deepEqual(created.body.term_lists, [{ lang: 'en', entry_count: 3 }]);
      t.is(created.body.name, 'Technical Terms');

      const listed = await a('GET', '/v3/spoken-terms');
      conforms(t, LISTING, listed.body, 'the listing');
      t.deepEqual(listed.body, { spoken_terms: [created.body] });
      t.deepEqual((await b('GET', '/v3/spoken-terms')).body, { spoken_terms: [] });
      t.deepEqual((await a('GET', `/v3/spoken-terms/${id}`)).body, created.body);
      const entries = await a('GET', `/v3/spoken-terms/${id}/entries?lang=en`);
      conforms(t, ENTRIES, entries.body, 'the entries');
      t.deepEqual(entries.body, { lang: 'en', entries: 'DeepL\nZelensky\nNew Relic' });
      t.is((await a('GET', `/v3/spoken-terms/${id}/entries?lang=de`)).status, 404);
      t.deepEqual((await a('GET', `/v3/spoken-terms/${id}/entries`)).body, {
        message: 'lang is required',
        code: 'missing_parameter',
      });
      for (const target of [`/v3/spoken-terms/${id}`, `/v3/spoken-terms/${id}/entries?lang=en`])
        t.is((await b('GET', target)).status, 404, `another key: ${target}`);
      t.is((await b('DELETE', `/v3/spoken-terms/${id}`)).status, 404);

      await server.close();
      server = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
      a = client(server, keyA);
      t.deepEqual((await a('GET', `/v3/spoken-terms/${id}`)).body, created.body, 'kept across a restart');
      t.is((await a('DELETE', `/v3/spoken-terms/${id}`)).status, 204);
      t.is((await a('GET', `/v3/spoken-terms/${id}`)).status, 404);
      t.deepEqual((await a('GET', '/v3/spoken-terms')).body, { spoken_terms: [] });
    },
  );
}

test.serial(
  'Spoken Terms that break the rules are refused with 400 {message, detail, code}, and nothing is stored',
  async (t) => {
    const server = await startVoiceServer({
      databaseUrl: path.join(directory, 'refusals.db'),
      engines,
      sessionRateLimit: false,
    });
    t.teardown(() => server.close());
    const a = client(server, await server.createApiKey('term refusals'));
    const list = (change: Record<string, unknown>) => ({
      name: 'x',
      term_lists: [{ lang: 'en', entries: 'DeepL', ...change }],
    });
    const cases: Array<[string, unknown, string, RegExp]> = [
      [
        'a language the recogniser does not hear',
        list({ lang: 'de' }),
        'unsupported_language',
        /term_lists\[0\] is "de"; the recogniser hears en$/,
      ],
      [
        'a repeated term',
        list({ entries: 'DeepL\nDeepL' }),
        'invalid_entries',
        /^term_lists\[0\] \(en\), line 2: "DeepL" repeats line 1$/,
      ],
      ['more than 300 characters', list({ entries: 'x'.repeat(301) }), 'invalid_entries', /at most 300/],
      [
        'a term with nothing to say',
        list({ entries: 'DeepL\n???' }),
        'invalid_entries',
        /no pronunciation could be found/,
      ],
      [
        'two lists for one language',
        {
          name: 'x',
          term_lists: [
            { lang: 'en', entries: 'a' },
            { lang: 'EN', entries: 'b' },
          ],
        },
        'duplicate_term_list',
        /Two term lists for en/,
      ],
      ['no name', { term_lists: [] }, 'missing_parameter', /name is required/],
      ['entries that are not text', list({ entries: 5 }), 'invalid_entries', /must be a string/],
    ];
    for (const [what, body, code, message] of cases) {
      const answer = await a('POST', '/v3/spoken-terms', body);
      t.is(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
      t.is(answer.body.code, code, what);
      t.regex(answer.body.detail ?? answer.body.message, message, what);
    }
    t.deepEqual((await a('GET', '/v3/spoken-terms')).body, { spoken_terms: [] }, 'nothing refused was stored');
  },
);
