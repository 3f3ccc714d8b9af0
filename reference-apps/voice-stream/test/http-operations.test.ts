import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import test from 'ava';
import pg from 'pg';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import {
  RawHttpConnection,
  cutOffDatabase,
  expectedProbeRound,
  headerOf,
  probesAroundOutage,
  recordingLogger,
  requestOnce,
  type LoggedLine,
  type RawAnswer,
  type RawHeader,
} from 'app-support/testing';
import { OPENAPI_PATH } from '../src/app';
import { readVoiceConfig } from '../src/config';
import { createOfflineEngines, type VoiceEngines } from '../src/engines/voice-engines';
import { startVoiceServer, type VoiceServer, type VoiceServerOptions } from '../src/server';
import { requireEnginePackages } from './support/system-packages';

// Operations over real HTTP on 127.0.0.1: liveness and readiness (the database check, SQLite and PostgreSQL, and
// while shutting down), request ids on answers and in the logs, compression, the session request's rate limit per
// API key (429 {message, code}), trust proxy off by default and honoured for a trusted proxy only.

const SESSIONS = '/v3/voice/realtime';
const PCM_16K = 'audio/pcm;encoding=s16le;rate=16000';
const SESSION_BODY = JSON.stringify({ source_media_content_type: PCM_16K, target_languages: ['fr'] });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let engines: VoiceEngines;
let postgres: TestPostgresDatabase;
let folder: string;
test.before(async () => {
  requireEnginePackages();
  engines = createOfflineEngines();
  postgres = await postgresForTests('voice_operations');
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-operations-'));
});
test.after.always(async () => {
  await engines?.close();
  await postgres?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

let files = 0;
async function start(t: { teardown(fn: () => unknown): void }, options: VoiceServerOptions = {}): Promise<VoiceServer> {
  const server = await startVoiceServer({
    databaseUrl: path.join(folder, `voice-${++files}.db`),
    engines,
    registry: { maxSessionsPerKey: 100 },
    ...options,
  });
  t.teardown(() => server.close());
  return server;
}

/** One request on a connection of its own, as sent (no decompression, no header added but Host and Content-Length). */
const raw = (server: { port: number }, method: string, target: string, headers: RawHeader[] = [], body?: string) =>
  requestOnce(server.port, method, target, headers, body);

const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));
const auth = (key: string): RawHeader => ['Authorization', `DeepL-Auth-Key ${key}`];
const jsonType: RawHeader = ['Content-Type', 'application/json'];

test('configuration: trust proxy, session rate limit and log level from flags or VOICE_* variables', (t) => {
  t.like(readVoiceConfig([], {}), { trustProxy: false, sessionRateLimitPerMinute: 60, logLevel: 'info' });
  t.like(
    readVoiceConfig([], { VOICE_TRUST_PROXY: 'uniquelocal', VOICE_SESSION_RATE_LIMIT: '120', VOICE_LOG_LEVEL: 'warn' }),
    { trustProxy: 'uniquelocal', sessionRateLimitPerMinute: 120, logLevel: 'warn' },
  );
  t.like(
    readVoiceConfig(['--trust-proxy', '2', '--session-rate-limit', 'off', '--log-level', 'error'], {
      VOICE_TRUST_PROXY: 'loopback',
    }),
    { trustProxy: 2, sessionRateLimitPerMinute: false, logLevel: 'error' },
  );
  t.throws(() => readVoiceConfig(['--trust-proxy', 'anyone'], {}), { message: /^Invalid --trust-proxy "anyone"/ });
  t.throws(() => readVoiceConfig([], { VOICE_SESSION_RATE_LIMIT: 'many' }), {
    message: /^Invalid VOICE_SESSION_RATE_LIMIT "many"/,
  });
});

for (const engine of ['SQLite', 'PostgreSQL'] as const) {
  test(`${engine}: /health answers while the process runs; /ready checks the database and answers 503 naming it once it is gone`, async (t) => {
    const url =
      engine === 'PostgreSQL' ? await postgres.freshDatabase('voice_ready') : path.join(folder, `ready-${++files}.db`);
    const server = await start(t, { databaseUrl: url });
    // PostgreSQL refuses connections (the open ones cut) until restored; SQLite's handle is closed.
    const takeAway = async () =>
      engine === 'PostgreSQL'
        ? (await cutOffDatabase(postgres.url, url)).restore
        : void (await server.database.destroy());
    t.deepEqual(await probesAroundOutage(server.port, takeAway), expectedProbeRound(engine === 'PostgreSQL'));
  });
}

test('PostgreSQL: /ready answers 503 "shutting down" from the moment the server stops, while a request in flight finishes', async (t) => {
  const url = await postgres.freshDatabase('voice_stopping');
  const server = await start(t, { databaseUrl: url });
  const key = await server.createApiKey('stopping');
  const probe = new RawHttpConnection('127.0.0.1', server.port);
  t.teardown(() => probe.close());
  t.is((await probe.exchange({ method: 'GET', target: '/ready', headers: [] })).answer?.status, 200);
  // Another session locks the sessions table (a migration, say): a session request waits on it, in flight while
  // the server stops.
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  t.teardown(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE voice_sessions IN ACCESS EXCLUSIVE MODE');
  const inFlight = raw(server, 'POST', SESSIONS, [auth(key), jsonType], SESSION_BODY);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const closed = server.close();
  // The probe's keep-alive connection was open before the stop: the balancer learns the instance is going.
  const stopping = (await probe.exchange({ method: 'GET', target: '/ready', headers: [] })).answer!;
  t.is(stopping.status, 503);
  t.deepEqual(json(stopping), { status: 'shutting down' });
  await locker.query('COMMIT');
  const answer = await inFlight;
  t.is(answer.status, 200, answer.body.toString());
  t.truthy(json(answer).token);
  await closed;
});

test('request ids: a well-formed X-Request-Id comes back, anything else is replaced; the access line and the request logger carry it', async (t) => {
  const lines: LoggedLine[] = [];
  const server = await start(t, { logger: recordingLogger(lines) });
  const key = await server.createApiKey('ids');
  const given = await raw(
    server,
    'POST',
    SESSIONS,
    [auth(key), jsonType, ['X-Request-Id', 'client-4711']],
    SESSION_BODY,
  );
  t.is(given.status, 200);
  t.is(headerOf(given, 'x-request-id'), 'client-4711');
  for (const bad of ['with space', 'x'.repeat(200), '<script>']) {
    t.regex(
      headerOf(
        await raw(server, 'POST', SESSIONS, [auth(key), jsonType, ['X-Request-Id', bad]], SESSION_BODY),
        'x-request-id',
      ) ?? '',
      UUID,
    );
  }
  t.regex(headerOf(await raw(server, 'GET', '/health'), 'x-request-id') ?? '', UUID);
  const access = lines.filter((line) => line.message === 'request');
  t.like(access.find((line) => line.fields.reqId === 'client-4711')?.fields, {
    method: 'POST',
    path: SESSIONS,
    status: 200,
  });
  t.false(
    access.some((line) => line.fields.path === '/health'),
    'probes are left out of the access log',
  );

  // The key store gone: the 503's log line is written with the request's logger, and carries its id.
  await server.database.destroy();
  const failed = await raw(
    server,
    'POST',
    SESSIONS,
    [auth(key), jsonType, ['X-Request-Id', 'client-4712']],
    SESSION_BODY,
  );
  t.is(failed.status, 503);
  t.deepEqual(json(failed), {
    message: 'The key store (database) is unavailable; retry shortly',
    code: 'service_unavailable',
  });
  const logged = lines.find((line) => line.message === 'key store error: answered 503');
  t.is(logged?.level, 'error');
  t.is(logged?.fields.reqId, 'client-4712');
});

test('compression: the OpenAPI document (a large JSON answer) is sent gzip when asked, the same JSON once decompressed', async (t) => {
  const server = await start(t);
  const plain = await raw(server, 'GET', OPENAPI_PATH);
  t.is(headerOf(plain, 'content-encoding'), undefined);
  t.true(plain.body.length > 2048, `${plain.body.length} bytes`);
  const gzipped = await raw(server, 'GET', OPENAPI_PATH, [['Accept-Encoding', 'gzip']]);
  t.is(headerOf(gzipped, 'content-encoding'), 'gzip');
  t.is(headerOf(gzipped, 'vary'), 'Accept-Encoding');
  t.true(gzipped.body.length < plain.body.length / 2, `${gzipped.body.length} of ${plain.body.length} bytes`);
  t.deepEqual(JSON.parse(gunzipSync(gzipped.body).toString('utf8')), json(plain));
  // A session answer is small: sent as it is.
  const key = await server.createApiKey('small');
  const small = await raw(server, 'POST', SESSIONS, [auth(key), jsonType, ['Accept-Encoding', 'gzip']], SESSION_BODY);
  t.is(small.status, 200);
  t.is(headerOf(small, 'content-encoding'), undefined);
});

test('rate limit: past its session requests an API key gets 429 {message, code} with Retry-After and RateLimit-*; other keys and reconnections are not held back', async (t) => {
  const server = await start(t, { sessionRateLimit: { limit: 3, windowSeconds: 3600 } });
  const key = await server.createApiKey('busy');
  const other = await server.createApiKey('other');
  const tokens: string[] = [];
  for (const remaining of ['2', '1', '0']) {
    const answer = await raw(server, 'POST', SESSIONS, [auth(key), jsonType], SESSION_BODY);
    t.is(answer.status, 200);
    t.is(headerOf(answer, 'ratelimit-limit'), '3');
    t.is(headerOf(answer, 'ratelimit-remaining'), remaining);
    tokens.push(json(answer).token);
  }
  const refused = await raw(server, 'POST', SESSIONS, [auth(key), jsonType], SESSION_BODY);
  t.is(refused.status, 429);
  t.is(headerOf(refused, 'content-type'), 'application/json');
  const body = json(refused);
  t.deepEqual(Object.keys(body).sort(), ['code', 'message']);
  t.is(body.code, 'too_many_requests');
  t.regex(body.message, /^Rate limit exceeded: 3 requests per 3600 s; retry in \d+ s$/);
  const retryAfter = Number(headerOf(refused, 'retry-after'));
  t.true(retryAfter >= 1150 && retryAfter <= 1200, `Retry-After ${retryAfter}`);
  t.is(headerOf(refused, 'ratelimit-remaining'), '0');
  // Counted before the key is checked or the body read: a flood with a key costs no database lookup.
  t.is((await raw(server, 'POST', SESSIONS, [auth(key), jsonType], '{not json')).status, 429);
  t.is(
    (await raw(server, 'POST', SESSIONS, [auth(other), jsonType], SESSION_BODY)).status,
    200,
    'another key has its own bucket',
  );
  const rotated = await raw(server, 'GET', `${SESSIONS}?token=${encodeURIComponent(tokens[0]!)}`, [auth(key)]);
  t.is(rotated.status, 200, 'reconnection is not limited');
  t.is(headerOf(rotated, 'ratelimit-limit'), undefined);
});

test('trust proxy: off by default, forwarding headers shape no streaming_url; with the proxy trusted, its X-Forwarded-Proto and -Host do', async (t) => {
  const forwarded: RawHeader[] = [
    ['Host', 'internal:8083'],
    ['X-Forwarded-For', '203.0.113.9'],
    ['X-Forwarded-Proto', 'https'],
    ['X-Forwarded-Host', 'voice.example.com'],
  ];
  const direct = await start(t);
  const directKey = await direct.createApiKey('direct');
  const plain = await raw(direct, 'POST', SESSIONS, [auth(directKey), jsonType, ...forwarded], SESSION_BODY);
  t.is(json(plain).streaming_url, 'ws://internal:8083/v3/voice/realtime/connect');
  const forged = await raw(
    direct,
    'POST',
    SESSIONS,
    [auth(directKey), jsonType, ['Host', 'x"><script>']],
    SESSION_BODY,
  );
  t.is(
    json(forged).streaming_url,
    `ws://127.0.0.1:${direct.port}/v3/voice/realtime/connect`,
    'a Host that is no host name is not used',
  );

  const behind = await start(t, { trustProxy: 'loopback' });
  const behindKey = await behind.createApiKey('behind');
  const proxied = await raw(behind, 'POST', SESSIONS, [auth(behindKey), jsonType, ...forwarded], SESSION_BODY);
  t.is(json(proxied).streaming_url, 'wss://voice.example.com/v3/voice/realtime/connect');
});
