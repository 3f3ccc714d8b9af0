import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { startVoiceServer, type VoiceServer } from '../src/server';
import { ApiKeyStore } from '../src/storage/api-key-store';
import { GlossaryStore } from '../src/storage/glossary-store';
import { DeepLSpec } from './support/deepl-spec';
import { requireEnginePackages } from './support/system-packages';

// DeepL's v3 glossaries as a client uses them over HTTP, on SQLite and on PostgreSQL: create with dictionaries, list,
// get, a dictionary's entries, delete; each key sees only its own; every answer validates against DeepL's schemas.

let directory: string;
let postgres: TestPostgresDatabase;
let engines: VoiceEngines;
const spec = new DeepLSpec();
test.before(async () => {
  requireEnginePackages();
  directory = mkdtempSync(path.join(tmpdir(), 'voice-glossaries-'));
  postgres = await postgresForTests('voice_glossaries');
  // One set of engines for every server here: these tests translate nothing.
  engines = createOfflineEngines();
});
test.after.always(async () => {
  await engines?.close();
  await postgres?.close();
  rmSync(directory, { recursive: true, force: true });
});

const GLOSSARY = 'deepl:openapi#/components/schemas/MultilingualGlossary';
const ENTRIES = 'deepl:openapi#/components/schemas/GlossaryDictionary';
const BAD_REQUEST = 'deepl:openapi#/components/responses/BadRequestGlossaries/content/application~1json/schema';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

function client(server: VoiceServer, key: string) {
  return async (method: string, target: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${server.url}${target}`, {
      method,
      headers: {
        authorization: `DeepL-Auth-Key ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  };
}

function conforms(t: ExecutionContext, reference: string, value: unknown, what: string): void {
  t.deepEqual(spec.check(reference, value), [], `${what} validates against ${reference}`);
}

const CREATE = {
  name: 'Office words',
  dictionaries: [
    { source_lang: 'en', target_lang: 'es', entries: 'report\tmemoria\nmeeting\tjunta', entries_format: 'tsv' },
    { source_lang: 'EN', target_lang: 'FR', entries: 'report,compte rendu', entries_format: 'csv' },
  ],
};

const databases = [
  { name: 'SQLite', url: async () => path.join(directory, `glossaries-${Math.random().toString(36).slice(2)}.db`) },
  { name: 'PostgreSQL', url: () => postgres.freshDatabase('voice_glossaries') },
];

for (const database of databases) {
  test.serial(
    `${database.name}: a key creates, lists, reads and deletes its glossaries; another key sees none of them`,
    async (t) => {
      const url = await database.url();
      let server = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
      t.teardown(() => server.close());
      const keyA = await server.createApiKey('glossaries A');
      const keyB = await server.createApiKey('glossaries B');
      let a = client(server, keyA);
      let b = client(server, keyB);

      const created = await a('POST', '/v3/glossaries', CREATE);
      t.is(created.status, 201, JSON.stringify(created.body));
      conforms(t, GLOSSARY, created.body, 'the created glossary');
      const id: string = created.body.glossary_id;
      t.regex(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      t.is(created.headers.get('location'), `/v3/glossaries/${id}`);
      t.is(created.body.name, 'Office words');
      t.deepEqual(created.body.dictionaries, [
        { source_lang: 'en', target_lang: 'es', entry_count: 2 },
        { source_lang: 'en', target_lang: 'fr', entry_count: 1 },
      ]);
      t.true(Math.abs(Date.parse(created.body.creation_time) - Date.now()) < 60_000, created.body.creation_time);

      const listed = await a('GET', '/v3/glossaries');
      t.is(listed.status, 200);
      t.deepEqual(listed.body, { glossaries: [created.body] });
      for (const glossary of listed.body.glossaries) conforms(t, GLOSSARY, glossary, 'a listed glossary');
      t.deepEqual((await b('GET', '/v3/glossaries')).body, { glossaries: [] }, "key B lists none of A's glossaries");

      const got = await a('GET', `/v3/glossaries/${id}`);
      t.is(got.status, 200);
      t.deepEqual(got.body, created.body);
      const entries = await a('GET', `/v3/glossaries/${id}/entries?source_lang=en&target_lang=es`);
      t.is(entries.status, 200);
      conforms(t, ENTRIES, entries.body, 'the entries answer');
      t.deepEqual(entries.body, {
        dictionaries: [
          { source_lang: 'en', target_lang: 'es', entries: 'report\tmemoria\nmeeting\tjunta', entries_format: 'tsv' },
        ],
      });
      t.deepEqual(
        (await a('GET', `/v3/glossaries/${id}/entries?source_lang=EN&target_lang=fr`)).body.dictionaries[0].entries,
        'report\tcompte rendu',
        'CSV entries come back as TSV',
      );

      // Another key's glossary is unknown: 404 everywhere, nothing deleted.
      for (const target of [`/v3/glossaries/${id}`, `/v3/glossaries/${id}/entries?source_lang=en&target_lang=es`]) {
        const answer = await b('GET', target);
        t.is(answer.status, 404, target);
        t.is(answer.body.code, 'not_found');
      }
      t.is((await b('DELETE', `/v3/glossaries/${id}`)).status, 404);
      t.is((await a('GET', `/v3/glossaries/${id}`)).status, 200, "key B's delete changed nothing");
      const noPair = await a('GET', `/v3/glossaries/${id}/entries?source_lang=en&target_lang=it`);
      t.is(noPair.status, 404);
      t.regex(noPair.body.message, /no dictionary for en-it/);
      const missing = await a('GET', `/v3/glossaries/${id}/entries?source_lang=en`);
      t.is(missing.status, 400);
      t.deepEqual(missing.body, { message: 'target_lang is required', code: 'missing_parameter' });

      // Stored in the database: a restarted server still has it.
      await server.close();
      server = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
      a = client(server, keyA);
      b = client(server, keyB);
      t.deepEqual((await a('GET', `/v3/glossaries/${id}`)).body, created.body, 'kept across a restart');

      const deleted = await a('DELETE', `/v3/glossaries/${id}`);
      t.is(deleted.status, 204);
      t.is(deleted.body, undefined);
      t.is((await a('GET', `/v3/glossaries/${id}`)).status, 404);
      t.is((await a('DELETE', `/v3/glossaries/${id}`)).status, 404);
      t.deepEqual((await a('GET', '/v3/glossaries')).body, { glossaries: [] });
    },
  );
}

test.serial(
  'glossaries that break the rules are refused with 400 {message, detail, code}, and nothing is stored',
  async (t) => {
    const server = await startVoiceServer({
      databaseUrl: path.join(directory, 'refusals.db'),
      engines,
      sessionRateLimit: false,
    });
    t.teardown(() => server.close());
    const key = await server.createApiKey('glossary refusals');
    const a = client(server, key);
    const dictionary = (change: Record<string, unknown>) => ({
      name: 'x',
      dictionaries: [{ source_lang: 'en', target_lang: 'es', entries: 'report\tmemoria', ...change }],
    });
    const cases: Array<[string, unknown, number, string, RegExp]> = [
      [
        'a pair this server does not translate',
        dictionary({ target_lang: 'de' }),
        400,
        'unsupported_language_pair',
        /dictionaries\[0\] is en-de; this server translates en-ca, en-es, en-fr, en-gl, en-it, en-pt$/,
      ],
      [
        'a source other than English',
        dictionary({ source_lang: 'de', target_lang: 'en' }),
        400,
        'unsupported_language_pair',
        /is de-en/,
      ],
      ['a language to itself', dictionary({ target_lang: 'en' }), 400, 'unsupported_language_pair', /is en-en/],
      [
        'a duplicated source phrase',
        dictionary({ entries: 'report\tmemoria\nreport\tinforme' }),
        400,
        'invalid_entries',
        /^dictionaries\[0\] \(en-es\), line 2: the source phrase "report" duplicates line 1$/,
      ],
      [
        'an empty target phrase',
        dictionary({ entries: 'report\t' }),
        400,
        'invalid_entries',
        /the target phrase is empty/,
      ],
      [
        'an unknown entries format',
        dictionary({ entries_format: 'xlsx' }),
        400,
        'invalid_entries_format',
        /got "xlsx"/,
      ],
      [
        'a null entries format',
        dictionary({ entries_format: null }),
        400,
        'invalid_entries_format',
        /must not be null/,
      ],
      [
        'two dictionaries for one pair',
        {
          name: 'x',
          dictionaries: [dictionary({}).dictionaries[0], dictionary({ target_lang: 'ES' }).dictionaries[0]],
        },
        400,
        'duplicate_dictionary',
        /Two dictionaries for en-es/,
      ],
      ['no dictionaries', { name: 'x', dictionaries: [] }, 400, 'invalid_request', /at least one dictionary/],
      ['no name', { dictionaries: dictionary({}).dictionaries }, 400, 'missing_parameter', /name is required/],
      [
        'a name over 1024 bytes',
        { ...dictionary({}), name: 'é'.repeat(513) },
        400,
        'invalid_name',
        /longer than 1024 UTF-8 bytes/,
      ],
      [
        'entries that are not text',
        dictionary({ entries: ['report', 'memoria'] }),
        400,
        'invalid_entries',
        /must be a string/,
      ],
      ['an unknown field', { ...dictionary({}), ready: true }, 400, 'unknown_parameter', /ready/],
    ];
    for (const [what, body, status, code, message] of cases) {
      const answer = await a('POST', '/v3/glossaries', body);
      t.is(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
      t.is(answer.body.code, code, what);
      t.regex(answer.body.detail ?? answer.body.message, message, what);
      conforms(t, BAD_REQUEST, answer.body, what);
    }
    t.deepEqual((await a('GET', '/v3/glossaries')).body, { glossaries: [] }, 'no refused glossary was stored');
    const notJson = await a('POST', '/v3/glossaries', '{"name":');
    t.is(notJson.status, 400);

    // The 1000 glossaries a key may have (made in the store: 1000 requests would only take longer).
    const store = new GlossaryStore(server.database.db);
    const owner = (await new ApiKeyStore(server.database.db).verify(key))!.id;
    for (let index = 0; index < 1000; index += 1)
      await store.create(owner, `g${index}`, [
        { sourceLang: 'en', targetLang: 'es', entries: [{ source: 'a', target: 'b' }] },
      ]);
    const over = await a('POST', '/v3/glossaries', dictionary({}));
    t.is(over.status, 456);
    t.is(over.body.code, 'quota_exceeded');
    t.is(await store.count(owner), 1000);
  },
);

test.serial('PostgreSQL: a glossary made on one instance is read, and deleted, on another', async (t) => {
  const url = await postgres.freshDatabase('voice_glossaries');
  const first = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
  t.teardown(() => first.close());
  const second = await startVoiceServer({ databaseUrl: url, engines, sessionRateLimit: false });
  t.teardown(() => second.close());
  const key = await first.createApiKey('two instances');
  const created = await client(first, key)('POST', '/v3/glossaries', CREATE);
  t.is(created.status, 201);
  const elsewhere = client(second, key);
  t.deepEqual((await elsewhere('GET', `/v3/glossaries/${created.body.glossary_id}`)).body, created.body);
  t.is((await elsewhere('DELETE', `/v3/glossaries/${created.body.glossary_id}`)).status, 204);
  t.is((await client(first, key)('GET', `/v3/glossaries/${created.body.glossary_id}`)).status, 404);
});
