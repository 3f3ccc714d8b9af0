import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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
import { readContentConfig } from '../src/config';
import { expandScope } from '../src/domain/access/scope';
import { startContentServer, type ContentServerOptions, type RunningContentServer } from '../src/server';

// Operations over real HTTP on 127.0.0.1: liveness and readiness (the database check on SQLite and PostgreSQL, and
// while shutting down), request ids on answers and in the access log, compression of a large GraphQL answer, the
// GraphQL endpoint's rate limit per token (429 in GraphQL's shape), trust proxy off by default.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ENTRIES =
  '{ entries(limit: 100) { id uid title slug uri url sectionHandle typeHandle postDate dateCreated dateUpdated } }';

let postgres: TestPostgresDatabase;
let dir: string;
test.before(async () => {
  postgres = await postgresForTests('content_operations');
  dir = await mkdtemp(join(tmpdir(), 'content-operations-'));
});
test.after.always(async () => {
  await postgres?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let count = 0;
async function start(
  t: { teardown(fn: () => unknown): void },
  options: Partial<ContentServerOptions> = {},
): Promise<RunningContentServer> {
  const n = ++count;
  const server = await startContentServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, `content-${n}.db`),
    assetsRoot: join(dir, `assets-${n}`),
    settings: { changePollMs: 0 },
    ...options,
  });
  t.teardown(() => server.close());
  return server;
}

const raw = (server: { port: number }, method: string, target: string, headers: RawHeader[] = [], body?: string) =>
  requestOnce(server.port, method, target, headers, body);

const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));
const query = (text: string) => `/api?query=${encodeURIComponent(text)}`;

/** A token of a schema that reads the news articles. */
async function newToken(server: RunningContentServer, name: string): Promise<string> {
  const { access, store } = server.service;
  const schema = await access.createSchema(
    `Schema of ${name}`,
    expandScope(['entrytypes.news.article'], await store.catalog()),
  );
  return (await access.createToken({ name, schemaId: schema.id })).token;
}

test('configuration: trust proxy, rate limit and log level from flags or CONTENT_GRAPHQL_* variables', (t) => {
  const defaults = readContentConfig([], {});
  t.is(defaults.options.trustProxy, false);
  t.deepEqual(defaults.options.rateLimit, { limit: 600, windowSeconds: 60 });
  t.is(defaults.run.logLevel, 'info');
  const fromEnv = readContentConfig([], {
    CONTENT_GRAPHQL_TRUST_PROXY: '10.0.0.0/8',
    CONTENT_GRAPHQL_RATE_LIMIT: 'off',
    CONTENT_GRAPHQL_LOG_LEVEL: 'warn',
  });
  t.is(fromEnv.options.trustProxy, '10.0.0.0/8');
  t.is(fromEnv.options.rateLimit, false);
  t.is(fromEnv.run.logLevel, 'warn');
  const fromFlags = readContentConfig(['--trust-proxy', '1', '--rate-limit', '1200', '--log-level', 'debug'], {
    CONTENT_GRAPHQL_RATE_LIMIT: 'off',
  });
  t.like(fromFlags.options, { trustProxy: 1, rateLimit: { limit: 1200, windowSeconds: 60 } });
  t.is(fromFlags.run.logLevel, 'debug');
  t.throws(() => readContentConfig(['--rate-limit', 'plenty'], {}), { message: /^Invalid --rate-limit "plenty"/ });
  t.throws(() => readContentConfig([], { CONTENT_GRAPHQL_TRUST_PROXY: '300.1.2.3' }), {
    message: /^Invalid CONTENT_GRAPHQL_TRUST_PROXY "300\.1\.2\.3"/,
  });
});

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`${dialect}: /health answers while the process runs; /ready checks the database and answers 503 naming it once it is gone`, async (t) => {
    const url =
      dialect === 'postgres' ? await postgres.freshDatabase('content_ready') : join(dir, `ready-${++count}.db`);
    const server = await start(t, { databaseUrl: url });
    // PostgreSQL refuses connections (the open ones cut) until restored; SQLite's handle is closed.
    const takeAway = async () =>
      dialect === 'postgres'
        ? (await cutOffDatabase(postgres.url, url)).restore
        : void (await server.database.destroy());
    t.deepEqual(await probesAroundOutage(server.port, takeAway), expectedProbeRound(dialect === 'postgres'));
  });
}

test('postgres: /ready answers 503 "shutting down" from the moment the server stops, while a query in flight finishes', async (t) => {
  const url = await postgres.freshDatabase('content_stopping');
  const server = await start(t, { databaseUrl: url });
  t.is((await raw(server, 'GET', query('{ ping }'))).status, 200);
  const probe = new RawHttpConnection('127.0.0.1', server.port);
  t.teardown(() => probe.close());
  t.is((await probe.exchange({ method: 'GET', target: '/ready', headers: [] })).answer?.status, 200);
  // Another session locks the elements table (a migration, say): a query (past the cache) waits on it.
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  t.teardown(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE elements IN ACCESS EXCLUSIVE MODE');
  const inFlight = raw(server, 'GET', query(ENTRIES), [['X-Craft-Gql-Cache', 'no-cache']]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const closed = server.close();
  const stopping = (await probe.exchange({ method: 'GET', target: '/ready', headers: [] })).answer!;
  t.is(stopping.status, 503);
  t.deepEqual(json(stopping), { status: 'shutting down' });
  await locker.query('COMMIT');
  const answer = await inFlight;
  t.is(answer.status, 200);
  t.true(json(answer).data.entries.length > 0);
  await closed;
});

test('request ids: a well-formed X-Request-Id comes back, anything else is replaced; the access log line carries it', async (t) => {
  const lines: LoggedLine[] = [];
  const server = await start(t, { logger: recordingLogger(lines) });
  const given = await raw(server, 'GET', query('{ ping }'), [['X-Request-Id', 'site-build:42']]);
  t.is(given.status, 200);
  t.is(headerOf(given, 'x-request-id'), 'site-build:42');
  for (const bad of ['a b', 'é', 'x'.repeat(129)]) {
    t.regex(headerOf(await raw(server, 'GET', query('{ ping }'), [['X-Request-Id', bad]]), 'x-request-id') ?? '', UUID);
  }
  t.regex(
    headerOf(await raw(server, 'POST', '/api', [['Content-Type', 'text/csv']], 'x'), 'x-request-id') ?? '',
    UUID,
    'errors carry one too',
  );
  const access = lines.filter((line) => line.message === 'request');
  t.like(access.find((line) => line.fields.reqId === 'site-build:42')?.fields, {
    method: 'GET',
    path: '/api',
    status: 200,
  });
  t.truthy(access.find((line) => line.fields.status === 415));
});

test('compression: a large GraphQL answer is sent gzip or brotli when asked (the same JSON once decompressed), small ones as they are', async (t) => {
  const server = await start(t);
  const plain = await raw(server, 'GET', query(ENTRIES));
  t.is(plain.status, 200);
  t.is(headerOf(plain, 'content-encoding'), undefined);
  t.true(plain.body.length > 2048, `${plain.body.length} bytes`);
  const gzipped = await raw(server, 'GET', query(ENTRIES), [['Accept-Encoding', 'gzip']]);
  t.is(headerOf(gzipped, 'content-encoding'), 'gzip');
  t.is(headerOf(gzipped, 'vary'), 'Accept-Encoding');
  t.is(headerOf(gzipped, 'content-type'), 'application/json; charset=utf-8');
  t.true(gzipped.body.length < plain.body.length / 2, `${gzipped.body.length} of ${plain.body.length} bytes`);
  t.deepEqual(JSON.parse(gunzipSync(gzipped.body).toString('utf8')), json(plain));
  const brotli = await raw(
    server,
    'POST',
    '/api',
    [
      ['Content-Type', 'application/json'],
      ['Accept-Encoding', 'br'],
    ],
    JSON.stringify({ query: ENTRIES }),
  );
  t.is(headerOf(brotli, 'content-encoding'), 'br');
  t.deepEqual(JSON.parse(brotliDecompressSync(brotli.body).toString('utf8')), json(plain));
  const small = await raw(server, 'GET', query('{ ping }'), [['Accept-Encoding', 'gzip']]);
  t.is(headerOf(small, 'content-encoding'), undefined);
  t.deepEqual(json(small), { data: { ping: 'pong' } });
});

test('rate limit: past its limit a token gets 429 in GraphQL shape with Retry-After and RateLimit-*; GET and POST share it; other tokens, the preflight and the admin API are not held back', async (t) => {
  const adminKey = 'admin-key-for-the-rate-limit-test';
  const server = await start(t, { rateLimit: { limit: 3, windowSeconds: 3600 }, adminKey });
  const token = await newToken(server, 'busy');
  const other = await newToken(server, 'other');
  const bearer = (secret: string): RawHeader => ['Authorization', `Bearer ${secret}`];
  const get = await raw(server, 'GET', query('{ ping }'), [bearer(token)]);
  t.is(headerOf(get, 'ratelimit-limit'), '3');
  t.is(headerOf(get, 'ratelimit-remaining'), '2');
  const post = await raw(
    server,
    'POST',
    '/api',
    [bearer(token), ['Content-Type', 'application/json']],
    JSON.stringify({ query: '{ ping }' }),
  );
  t.is(headerOf(post, 'ratelimit-remaining'), '1');
  t.is(
    headerOf(
      await raw(server, 'POST', '/api', [bearer(token), ['Content-Type', 'application/graphql']], '{ ping }'),
      'ratelimit-remaining',
    ),
    '0',
  );

  const refused = await raw(server, 'GET', query('{ ping }'), [bearer(token)]);
  t.is(refused.status, 429);
  t.is(headerOf(refused, 'content-type'), 'application/json; charset=utf-8');
  const body = json(refused);
  t.deepEqual(Object.keys(body), ['errors']);
  t.regex(body.errors[0].message, /^Rate limit exceeded: 3 requests per 3600 s; retry in \d+ s$/);
  const retryAfter = Number(headerOf(refused, 'retry-after'));
  t.true(retryAfter >= 1150 && retryAfter <= 1200, `Retry-After ${retryAfter}`);
  t.is(headerOf(refused, 'ratelimit-remaining'), '0');
  t.is(headerOf(refused, 'access-control-allow-origin'), '*', 'a browser can read the refusal');
  t.is(
    (await raw(server, 'POST', '/api', [bearer(token), ['Content-Type', 'application/json']], '{ not json')).status,
    429,
    'counted before the body is read',
  );

  t.is((await raw(server, 'GET', query('{ ping }'), [bearer(other)])).status, 200, 'another token has its own bucket');
  t.is((await raw(server, 'GET', query('{ ping }'))).status, 200, 'the public schema counts by address');
  t.is((await raw(server, 'OPTIONS', '/api', [bearer(token)])).status, 200, 'the preflight is not limited');
  t.is(
    (await raw(server, 'GET', '/admin/schemas', [['X-Admin-Key', adminKey], bearer(token)])).status,
    200,
    'the admin API is not limited',
  );
});

test('trust proxy: requests without a token count by address; forged X-Forwarded-For shares the bucket unless the proxy is trusted', async (t) => {
  const direct = await start(t, { rateLimit: { limit: 2, windowSeconds: 3600 } });
  const forged = [];
  for (let i = 0; i < 3; i++)
    forged.push((await raw(direct, 'GET', query('{ ping }'), [['X-Forwarded-For', `203.0.113.${i}`]])).status);
  t.deepEqual(forged, [200, 200, 429]);

  const behind = await start(t, { rateLimit: { limit: 2, windowSeconds: 3600 }, trustProxy: 'loopback' });
  const one = [];
  for (let i = 0; i < 3; i++)
    one.push((await raw(behind, 'GET', query('{ ping }'), [['X-Forwarded-For', '203.0.113.1']])).status);
  t.deepEqual(one, [200, 200, 429]);
  t.is(
    (await raw(behind, 'GET', query('{ ping }'), [['X-Forwarded-For', '203.0.113.2']])).status,
    200,
    'another client behind the trusted proxy',
  );
});
