import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { openApiDocument, RestBuilder } from 'rest.uws';
import { openDatabase } from 'app-support';
import {
  baseParts,
  buildCorpus,
  corpusSeed,
  extraRoute,
  formatCorpusReport,
  RawHttpConnection,
  routesFromOpenApi,
  runCorpus,
  sortFailures,
  snapshotDatabase,
  toRequest,
  type CorpusCase,
  type CorpusRoute,
  type RawHeader,
  type RawRequest,
  type RouteSample,
} from 'app-support/testing';
import { ApiKeyStore } from '../src/storage/api-key-store';
import { GlossaryStore } from '../src/storage/glossary-store';
import { SpokenTermsStore } from '../src/storage/spoken-terms-store';
import { MAX_BODY_BYTES, OPENAPI_PATH, voiceApp } from '../src/app';
import { STREAM_PATH } from '../src/http/streaming-url';
import { startVoiceServer } from '../src/server';
import { requireEnginePackages } from './support/system-packages';

// The hostile-input corpus (docs/reliability/hostile-input.md) against voice-stream's HTTP routes and its WebSocket upgrade: the
// session request, the reconnection, the glossaries and spoken terms, the page and its static files from the OpenAPI document rest.uws makes of the
// app, and the stream's upgrade beside them. Requests that need a live session token get a fresh one each, so every
// attack meets an otherwise valid request. Each answer must be a 4xx saying what was wrong, or a 2xx (101 for an
// upgrade) for valid input; never a 5xx, a hang or a crash; a refused request leaves the key table as it was.

const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';
const TERMS = { name: 'corpus', term_lists: [{ lang: 'en', entries: 'Zelensky\nNew Relic' }] };
const GLOSSARY = {
  name: 'corpus',
  dictionaries: [
    { source_lang: 'en', target_lang: 'es', entries: 'report\tmemoria\nmeeting\tjunta', entries_format: 'tsv' },
  ],
};
/** Stands for a fresh session token in a request; replaced just before the request is sent. */
const FRESH_TOKEN = 'FRESHTOKEN';
const UPGRADE_HEADERS: RawHeader[] = [
  ['Upgrade', 'websocket'],
  ['Connection', 'Upgrade'],
  ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='],
  ['Sec-WebSocket-Version', '13'],
];

test('voice-stream: every HTTP route and the WebSocket upgrade hold against the hostile-input corpus (SQLite)', async (t) => {
  requireEnginePackages();
  const dir = await mkdtemp(join(tmpdir(), 'voice-corpus-'));
  const databaseUrl = join(dir, 'voice.db');
  let now = Date.now();
  // Limits far above the sessions the corpus opens (each case that needs a token opens one; the session rate limit as
  // shipped, but high); the registry's clock is the test's, so a token can be made to expire.
  const server = await startVoiceServer({
    databaseUrl,
    maxSessions: 100_000,
    registry: { maxSessionsPerKey: 100_000, now: () => now },
    sessionRateLimit: { limit: 1_000_000 },
  });
  const keys = await openDatabase(databaseUrl);
  t.teardown(async () => {
    await keys.destroy();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const key = await server.createApiKey('corpus');
  const store = new ApiKeyStore(keys.db as never);
  const revoked = await store.create('corpus revoked');
  await store.revoke(revoked.id);
  const authorization: RawHeader = ['Authorization', `DeepL-Auth-Key ${key}`];

  const newSession = async (): Promise<{ token: string; session_id: string }> => {
    const answer = await fetch(`${server.url}/v3/voice/realtime`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `DeepL-Auth-Key ${key}` },
      body: JSON.stringify({ source_media_content_type: PCM_16K, target_languages: ['es'] }),
    });
    if (answer.status !== 200) throw new Error(`session request: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as { token: string; session_id: string };
  };
  const withFreshToken = (request: RawRequest) => async (): Promise<RawRequest> => ({
    ...request,
    target: request.target.replace(FRESH_TOKEN, (await newSession()).token),
  });

  const document = openApiDocument(
    voiceApp(
      {
        engines: server.engines,
        keys: store,
        glossaries: new GlossaryStore(keys.db as never),
        spokenTerms: new SpokenTermsStore(keys.db as never),
        registry: server.registry,
        capacity: server.capacity,
      },
      { publicBaseUrl: undefined, fallbackHost: () => 'localhost' },
      new RestBuilder(),
    ).build(),
    { title: 'voice-stream', version: '1' },
  );
  // The WebSocket upgrade is no REST route, and the page, its static files and the document itself are not
  // operations of the API: the document leaves them out, the corpus does not.
  const upgrade = extraRoute('GET', STREAM_PATH, { queryParams: ['token'] });
  const routes = routesFromOpenApi(document, [
    upgrade,
    extraRoute('GET', '/'),
    extraRoute('GET', '/app/{path}'),
    extraRoute('GET', OPENAPI_PATH),
  ]);
  const glossary = async (): Promise<string> => {
    const answer = await fetch(`${server.url}/v3/glossaries`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `DeepL-Auth-Key ${key}` },
      body: JSON.stringify(GLOSSARY),
    });
    if (answer.status !== 201) throw new Error(`glossary: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { glossary_id: string }).glossary_id;
  };
  const terms = async (): Promise<string> => {
    const answer = await fetch(`${server.url}/v3/spoken-terms`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `DeepL-Auth-Key ${key}` },
      body: JSON.stringify(TERMS),
    });
    if (answer.status !== 201) throw new Error(`spoken terms: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { spoken_terms_id: string }).spoken_terms_id;
  };
  // One glossary and one collection to read, another of each to delete.
  const [readGlossary, deletedGlossary] = [await glossary(), await glossary()];
  const [readTerms, deletedTerms] = [await terms(), await terms()];
  const samples: Record<string, RouteSample> = {
    'POST /v3/glossaries': { body: GLOSSARY },
    'GET /v3/glossaries/{glossary_id}': { path: { glossary_id: readGlossary } },
    'GET /v3/glossaries/{glossary_id}/entries': {
      path: { glossary_id: readGlossary },
      query: { source_lang: 'en', target_lang: 'es' },
    },
    'DELETE /v3/glossaries/{glossary_id}': { path: { glossary_id: deletedGlossary } },
    'POST /v3/spoken-terms': { body: TERMS },
    'GET /v3/spoken-terms/{spoken_terms_id}': { path: { spoken_terms_id: readTerms } },
    'GET /v3/spoken-terms/{spoken_terms_id}/entries': {
      path: { spoken_terms_id: readTerms },
      query: { lang: 'en' },
    },
    'DELETE /v3/spoken-terms/{spoken_terms_id}': { path: { spoken_terms_id: deletedTerms } },
    'POST /v3/voice/realtime': {
      body: {
        source_media_content_type: PCM_16K,
        target_languages: ['es', 'fr'],
        target_media_languages: ['es'],
        message_format: 'json',
      },
    },
    'GET /v3/voice/realtime': { query: { token: FRESH_TOKEN } },
    [`GET ${STREAM_PATH}`]: { query: { token: FRESH_TOKEN }, headers: UPGRADE_HEADERS },
    'GET /app/{path}': { path: { path: 'app.js' } },
  };
  const plan = {
    routes,
    document,
    sample: (route: CorpusRoute) => samples[route.key],
    auth: {
      // The API key guards the REST routes; the stream's upgrade takes a token instead.
      appliesTo: (route: CorpusRoute) => route.template.startsWith('/v3/') && route.template !== STREAM_PATH,
      valid: [authorization],
      refused: [
        { name: 'a revoked key', value: [['Authorization', `DeepL-Auth-Key ${revoked.key}`] as RawHeader] },
        { name: 'the key as a Bearer token', value: [['Authorization', `Bearer ${key}`] as RawHeader] },
      ],
    },
    bodyLimit: MAX_BODY_BYTES,
    seed: corpusSeed(),
  };
  const generic = buildCorpus(plan).map((entry): CorpusCase => {
    const request = entry.request as RawRequest;
    return request.target.includes(FRESH_TOKEN) ? { ...entry, request: withFreshToken(request) } : entry;
  });

  const upgradeRequest = (token: string, headers: RawHeader[] = UPGRADE_HEADERS): RawRequest =>
    toRequest(upgrade, { ...baseParts(plan, upgrade), query: [['token', encodeURIComponent(token)]], headers });
  const reconnection = (token: string): RawRequest => ({
    method: 'GET',
    target: `/v3/voice/realtime?token=${encodeURIComponent(token)}`,
    headers: [authorization],
  });
  const tokenCase = (route: CorpusRoute | string, name: string, make: () => Promise<RawRequest>): CorpusCase => ({
    kind: 'tokens',
    route: typeof route === 'string' ? route : route.key,
    name,
    expect: 'refused',
    request: make,
  });
  const without = (name: string) => UPGRADE_HEADERS.filter(([header]) => header !== name);
  // Tokens used once already, replaced, expired, or of another kind; and upgrades that are not quite WebSocket.
  const special: CorpusCase[] = [
    tokenCase(upgrade, 'a token that already opened a stream', async () => {
      const { token } = await newSession();
      const first = await fetchUpgrade(server.port, upgradeRequest(token));
      if (first !== 101) throw new Error(`the first upgrade got ${first}`);
      return upgradeRequest(token);
    }),
    tokenCase(upgrade, 'a token replaced by a reconnection', async () => {
      const { token } = await newSession();
      await fetch(`${server.url}${reconnection(token).target}`, {
        headers: { Authorization: `DeepL-Auth-Key ${key}` },
      });
      return upgradeRequest(token);
    }),
    tokenCase(upgrade, 'an expired token', async () => {
      const { token } = await newSession();
      now += 60 * 60_000;
      return upgradeRequest(token);
    }),
    tokenCase(upgrade, 'a session id instead of a token', async () => upgradeRequest((await newSession()).session_id)),
    tokenCase(upgrade, 'the API key instead of a token', async () => upgradeRequest(key)),
    tokenCase('GET /v3/voice/realtime', 'a replaced token again', async () => {
      const { token } = await newSession();
      await fetch(`${server.url}${reconnection(token).target}`, {
        headers: { Authorization: `DeepL-Auth-Key ${key}` },
      });
      return reconnection(token);
    }),
    tokenCase('GET /v3/voice/realtime', 'an expired token', async () => {
      const { token } = await newSession();
      now += 60 * 60_000;
      return reconnection(token);
    }),
    tokenCase('GET /v3/voice/realtime', "another key's token", async () => {
      const other = await server.createApiKey('corpus other');
      const answer = await fetch(`${server.url}/v3/voice/realtime`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `DeepL-Auth-Key ${other}` },
        body: JSON.stringify({ source_media_content_type: PCM_16K, target_languages: ['es'] }),
      });
      return reconnection(((await answer.json()) as { token: string }).token);
    }),
    ...(
      [
        ['no Sec-WebSocket-Key', without('Sec-WebSocket-Key')],
        [
          'a Sec-WebSocket-Key that is not 16 bytes of base64',
          [...without('Sec-WebSocket-Key'), ['Sec-WebSocket-Key', 'not base64 at all!']],
        ],
        ['Sec-WebSocket-Version 8', [...without('Sec-WebSocket-Version'), ['Sec-WebSocket-Version', '8']]],
        ['no Sec-WebSocket-Version', without('Sec-WebSocket-Version')],
        ['Upgrade: h2c', [...without('Upgrade'), ['Upgrade', 'h2c']]],
        ['two Sec-WebSocket-Key headers', [...UPGRADE_HEADERS, ['Sec-WebSocket-Key', 'AAAAAAAAAAAAAAAAAAAAAA==']]],
        ['an unknown subprotocol', [...UPGRADE_HEADERS, ['Sec-WebSocket-Protocol', 'chat, \u00e9, ,,']]],
        [
          'broken extension parameters',
          [
            ...UPGRADE_HEADERS,
            ['Sec-WebSocket-Extensions', 'permessage-deflate; client_max_window_bits=99; server_no_context_takeover=x'],
          ],
        ],
      ] as Array<[string, RawHeader[]]>
    ).map(
      ([name, headers]): CorpusCase => ({
        kind: 'upgrade',
        route: upgrade.key,
        name,
        expect: 'any',
        mayClose: true,
        request: async () => upgradeRequest((await newSession()).token, headers),
      }),
    ),
  ];

  const report = await runCorpus({
    app: 'voice-stream',
    host: '127.0.0.1',
    port: server.port,
    cases: [...generic, ...special],
    seed: plan.seed,
    snapshot: () => snapshotDatabase(keys.db, { dialect: 'sqlite' }),
    health: { method: 'GET', target: '/', headers: [] },
  });
  t.log(formatCorpusReport(report));
  const { unexpected, fixed, setAside } = sortFailures(report, []);
  t.log(`${setAside} failure(s) set aside as pending framework holes`);
  t.deepEqual(unexpected.slice(0, 40), [], `${unexpected.length} failure(s)`);
  t.deepEqual(fixed, [], 'pending holes no longer found: remove them from the list, so the corpus guards the fix');
  t.true(routes.length >= 5, routes.map((route) => route.key).join(', '));
  t.true(report.cases > 800, `only ${report.cases} cases`);
});

/** The status of one upgrade request (101 when the WebSocket opened; the socket is closed at once). */
async function fetchUpgrade(port: number, request: RawRequest): Promise<number | undefined> {
  return (await RawHttpConnection.once('127.0.0.1', port, request)).answer?.status;
}
