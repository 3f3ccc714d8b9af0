import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test from 'ava';
import { sql } from 'kysely';
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
} from 'app-support/testing';
import { startBookingServer } from '../src/server';
import { API, ApiClient } from './helpers/api-client';
import { assertError } from './helpers/assert-error';
import { useEngines } from './helpers/engines';
import { createBody, SLOT_ID } from './helpers/fixture';
import { holdLock } from './helpers/held-lock';
import { eventually, startHttpFixture } from './helpers/http-fixture';

/** A stop's deadline no loaded machine reaches: the test waits for the request in flight, not for a time. */
const NO_DEADLINE = 10 * 60_000;

// Operations over real HTTP on 127.0.0.1: liveness and readiness (with the database check, and while shutting down),
// request ids on answers and in the access log, compression, the rate limit per API key (and, on PostgreSQL, shared
// by two instances), trust proxy off by default and honoured for a trusted proxy only.

const engines = useEngines('http_operations');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One request on a connection of its own, as sent (no decompression, no header added but Host). */
const raw = (url: string, target: string, headers: Array<[string, string]> = [], method = 'GET') =>
  requestOnce(Number(new URL(url).port), method, target, headers);

const json = (answer: RawAnswer) => JSON.parse(answer.body.toString('utf8'));

for (const engine of engines) {
  test(`${engine.name}: /health answers while the process runs; /ready checks the database and answers 503 naming it once it is gone`, async (t) => {
    const url = await engine.freshUrl();
    const { server } = await startHttpFixture(url);
    t.teardown(() => server.close());
    t.is(headerOf(await raw(server.url, '/health'), 'cache-control'), 'no-store');
    // No key needed: the probes come before authentication.
    t.is((await raw(server.url, '/ready', [], 'HEAD')).status, 200);
    // PostgreSQL refuses connections (the open ones cut) until restored; SQLite's handle is closed.
    const postgres = engine.name === 'PostgreSQL';
    const takeAway = async () =>
      postgres
        ? (await cutOffDatabase(await engine.adminUrl(), url)).restore
        : void (await server.system.database.destroy());
    t.deepEqual(await probesAroundOutage(server.port, takeAway), expectedProbeRound(postgres));
  });
}

test('PostgreSQL: /ready answers 503 "shutting down" from the moment a stop begins, while a request in flight finishes', async (t) => {
  const engine = engines[1]!;
  const url = await engine.freshUrl();
  const { server, alice } = await startHttpFixture(url, { shutdownTimeoutMs: NO_DEADLINE });
  // A create that waits on a row lock another session holds: in flight while the server stops.
  const lock = await holdLock(url, sql`select id from inventory_slot where id = ${SLOT_ID} for update`);
  t.teardown(() => lock.release());
  const probe = new RawHttpConnection('127.0.0.1', server.port);
  t.teardown(() => probe.close());
  t.is((await probe.exchange({ method: 'GET', target: '/ready', headers: [] })).answer?.status, 200);
  // Settled into a value at once, so a failure elsewhere leaves no unhandled rejection behind.
  const inFlight = alice.post(`${API}/booking`, createBody(1, 0)).then(
    (answer) => answer,
    (error: Error) => error,
  );
  await lock.someoneWaits();
  const closed = server.close();
  // The probe's keep-alive connection was open before the stop: the balancer learns the instance is going.
  const stopping = (await probe.exchange({ method: 'GET', target: '/ready', headers: [] })).answer!;
  t.is(stopping.status, 503);
  t.deepEqual(json(stopping), { status: 'shutting down' });
  await lock.release();
  const answered = await inFlight;
  t.false(answered instanceof Error, String(answered));
  t.is((answered as Exclude<typeof answered, Error>).status, 201, 'the request in flight was answered');
  await closed;
});

test('request ids: a well-formed X-Request-Id comes back, anything else is replaced by a new one; the access log line carries it', async (t) => {
  const lines: LoggedLine[] = [];
  const { server, aliceKey } = await startHttpFixture(await engines[0]!.freshUrl(), { logger: recordingLogger(lines) });
  t.teardown(() => server.close());
  const auth: [string, string] = ['Authorization', `Bearer ${aliceKey}`];

  const given = await raw(server.url, `${API}/product`, [auth, ['X-Request-Id', 'partner-7f3a:retry.2']]);
  t.is(given.status, 200);
  t.is(headerOf(given, 'x-request-id'), 'partner-7f3a:retry.2');
  for (const bad of ['two words', 'x'.repeat(129), 'quote"d', 'semi;colon', '']) {
    const answer = await raw(server.url, `${API}/product`, [auth, ['X-Request-Id', bad]]);
    t.regex(headerOf(answer, 'x-request-id') ?? '', UUID, JSON.stringify(bad));
  }
  const none = await raw(server.url, `${API}/product`, [auth]);
  t.regex(headerOf(none, 'x-request-id') ?? '', UUID);
  // Errors and probes carry one too.
  const refused = await raw(server.url, `${API}/product`, [['X-Request-Id', 'no-key-1']]);
  t.is(refused.status, 401);
  t.is(headerOf(refused, 'x-request-id'), 'no-key-1');
  t.is(headerOf(await raw(server.url, '/health', [['X-Request-Id', 'probe-1']]), 'x-request-id'), 'probe-1');

  // The access log: one line per request at info, with the id; none for the probes.
  const access = lines.filter((line) => line.message === 'request');
  const ofGiven = access.find((line) => line.fields.reqId === 'partner-7f3a:retry.2');
  t.like(ofGiven?.fields, { method: 'GET', path: `${API}/product`, status: 200 });
  t.like(access.find((line) => line.fields.reqId === 'no-key-1')?.fields, { status: 401 });
  t.is(
    access.find((line) => line.fields.reqId === headerOf(none, 'x-request-id'))?.fields.status,
    200,
    'a generated id is logged as sent',
  );
  t.false(
    access.some((line) => line.fields.reqId === 'probe-1'),
    'health probes are left out of the access log',
  );
  t.false(
    access.some((line) => /two words|quote/.test(String(line.fields.reqId))),
    'a refused id never reaches the log',
  );
});

test('compression: a large JSON answer is sent gzip or brotli as asked (the same JSON once decompressed), small ones as they are', async (t) => {
  const { server, alice, aliceKey } = await startHttpFixture(await engines[0]!.freshUrl());
  t.teardown(() => server.close());
  for (let i = 0; i < 6; i++) t.is((await alice.post(`${API}/booking`, createBody(1, 0))).status, 201);
  const auth: [string, string] = ['Authorization', `Bearer ${aliceKey}`];
  const plain = await raw(server.url, `${API}/booking?limit=100`, [auth]);
  t.is(headerOf(plain, 'content-encoding'), undefined);
  t.true(plain.body.length > 2048, `a large answer (${plain.body.length} bytes)`);
  t.is(headerOf(plain, 'vary'), 'Accept-Encoding');

  const gzipped = await raw(server.url, `${API}/booking?limit=100`, [auth, ['Accept-Encoding', 'gzip']]);
  t.is(gzipped.status, 200);
  t.is(headerOf(gzipped, 'content-encoding'), 'gzip');
  t.is(headerOf(gzipped, 'content-type'), 'application/json');
  t.true(gzipped.body.length < plain.body.length / 2, `${gzipped.body.length} of ${plain.body.length} bytes`);
  t.deepEqual(JSON.parse(gunzipSync(gzipped.body).toString('utf8')), json(plain));

  const brotli = await raw(server.url, `${API}/booking?limit=100`, [auth, ['Accept-Encoding', 'gzip;q=0.5, br']]);
  t.is(headerOf(brotli, 'content-encoding'), 'br');
  t.deepEqual(JSON.parse(brotliDecompressSync(brotli.body).toString('utf8')), json(plain));

  // A small answer (one product's variant inventory page of one slot) stays as it is.
  const small = await raw(server.url, `${API}/booking/1`, [auth, ['Accept-Encoding', 'gzip']]);
  t.true(small.body.length < 1024, `${small.body.length} bytes`);
  t.is(headerOf(small, 'content-encoding'), undefined);
});

test('rate limit: past the limit an API key gets 429 in the partner envelope with Retry-After and RateLimit-*; other keys, the customer pages and the probes are not held back', async (t) => {
  const { server, alice, bob, anonymous } = await startHttpFixture(await engines[0]!.freshUrl(), {
    rateLimit: { limit: 5, windowSeconds: 3600 },
    background: { fulfilmentIntervalMs: 20 },
  });
  t.teardown(() => server.close());
  const created = await alice.post(`${API}/booking`, createBody(1, 0));
  t.is(created.headers.get('ratelimit-limit'), '5');
  t.is(created.headers.get('ratelimit-remaining'), '4');
  await alice.put(`${API}/booking/${created.body.bookingId}`, { status: 'PENDING', partnerReferenceId: 'RL-1' });
  const done = await alice.get(`${API}/booking/${created.body.bookingId}`);
  t.is(done.headers.get('ratelimit-remaining'), '2');
  t.is((await alice.get(`${API}/product`)).headers.get('ratelimit-remaining'), '1');
  t.is((await alice.get(`${API}/product/p-walk`)).headers.get('ratelimit-remaining'), '0');

  const refused = await alice.get(`${API}/booking`);
  assertError(t, refused, 429, 'E_TOO_MANY_REQUESTS', /^Rate limit exceeded: 5 requests per 3600 s; retry in \d+ s$/);
  // 5 an hour: a request's worth comes back 720 s after the first was spent (less the test's own run time).
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter >= 690 && retryAfter <= 720, `Retry-After ${retryAfter}`);
  t.is(refused.headers.get('ratelimit-limit'), '5');
  t.is(refused.headers.get('ratelimit-remaining'), '0');
  t.true(Number(refused.headers.get('ratelimit-reset')) >= 3570, String(refused.headers.get('ratelimit-reset')));
  // Every route of the partner API shares the key's bucket, the create included: nothing is created.
  assertError(
    t,
    await alice.post(`${API}/booking`, createBody(1, 0)),
    429,
    'E_TOO_MANY_REQUESTS',
    /Rate limit exceeded/,
  );
  t.is(
    (await server.system.repositories.catalogue.findSlot(SLOT_ID))?.remaining,
    29,
    'the refused create held no seat',
  );

  // Bob's key (sent as Headout-Auth) has its own bucket.
  t.is((await bob.get(`${API}/product`)).status, 200);
  // The customer pages, the OpenAPI document and the probes are not limited (the voucher read from the table: the
  // API would spend Alice's requests).
  const row = await eventually(
    () => server.system.repositories.bookings.findById(Number(created.body.bookingId)),
    (found) => found?.voucher_url != null,
  );
  const voucherPath = new URL(row!.voucher_url!).pathname;
  for (let i = 0; i < 8; i++) {
    t.is((await anonymous.get(voucherPath)).status, 200);
    t.is((await anonymous.get(`${API}/openapi.json`)).status, 200);
    t.is((await anonymous.get('/health')).status, 200);
  }
});

test('rate limit: requests without a key count by address; a client cannot escape its bucket with X-Forwarded-For unless the app trusts it as a proxy', async (t) => {
  const direct = await startHttpFixture(await engines[0]!.freshUrl(), { rateLimit: { limit: 3, windowSeconds: 3600 } });
  t.teardown(() => direct.server.close());
  // Trust proxy off (the default): forged addresses all count as 127.0.0.1.
  const forged = [];
  for (let i = 0; i < 4; i++)
    forged.push((await direct.anonymous.get(`${API}/product`, { 'X-Forwarded-For': `203.0.113.${i}` })).status);
  t.deepEqual(forged, [401, 401, 401, 429]);

  // Behind a trusted proxy (loopback here), each forwarded client has its own bucket.
  const proxied = await startHttpFixture(await engines[0]!.freshUrl(), {
    rateLimit: { limit: 3, windowSeconds: 3600 },
    trustProxy: 'loopback',
  });
  t.teardown(() => proxied.server.close());
  const fromOne = [];
  for (let i = 0; i < 4; i++)
    fromOne.push((await proxied.anonymous.get(`${API}/product`, { 'X-Forwarded-For': '203.0.113.1' })).status);
  t.deepEqual(fromOne, [401, 401, 401, 429]);
  t.is(
    (await proxied.anonymous.get(`${API}/product`, { 'X-Forwarded-For': '203.0.113.2' })).status,
    401,
    'another client behind the proxy is not limited',
  );
});

test('trust proxy: off by default, forwarding headers shape no link; with the proxy trusted, its X-Forwarded-Proto and -Host make the links', async (t) => {
  // What a proxy sends: the client it forwards, the protocol and host that client asked for.
  const headers = (key: string): Array<[string, string]> => [
    ['Authorization', `Bearer ${key}`],
    ['Host', 'internal:8081'],
    ['X-Forwarded-For', '203.0.113.9'],
    ['X-Forwarded-Proto', 'https'],
    ['X-Forwarded-Host', 'partners.example.com'],
  ];
  const direct = await startHttpFixture(await engines[0]!.freshUrl());
  t.teardown(() => direct.server.close());
  for (let i = 0; i < 3; i++) await direct.alice.post(`${API}/booking`, createBody(1, 0));
  t.is(
    json(await raw(direct.server.url, `${API}/booking?limit=2`, headers(direct.aliceKey))).nextUrl,
    `http://internal:8081${API}/booking?offset=2&limit=2`,
  );

  const behind = await startHttpFixture(await engines[0]!.freshUrl(), { trustProxy: 'loopback' });
  t.teardown(() => behind.server.close());
  for (let i = 0; i < 3; i++) await behind.alice.post(`${API}/booking`, createBody(1, 0));
  t.is(
    json(await raw(behind.server.url, `${API}/booking?limit=2`, headers(behind.aliceKey))).nextUrl,
    `https://partners.example.com${API}/booking?offset=2&limit=2`,
  );
  // A forwarded host that is no plain host name is ignored (the proxy's Host stays), as a forged Host is.
  const junk = await raw(behind.server.url, `${API}/booking?limit=2`, [
    ...headers(behind.aliceKey).slice(0, 4),
    ['X-Forwarded-Host', 'x"><script>'],
  ]);
  t.is(json(junk).nextUrl, `https://internal:8081${API}/booking?offset=2&limit=2`);
});

test('PostgreSQL: two instances on one database share the limit: of 30 concurrent requests with one key across both, exactly 10 pass', async (t) => {
  const url = await engines[1]!.freshUrl();
  const first = await startHttpFixture(url, { rateLimit: { limit: 10, windowSeconds: 3600 } });
  t.teardown(() => first.server.close());
  t.true(first.server.sharedRateLimits);
  const second = await startBookingServer({
    databaseUrl: url,
    seedDemoCatalogue: false,
    background: false,
    rateLimit: { limit: 10, windowSeconds: 3600 },
  });
  t.teardown(() => second.close());
  const onSecond = new ApiClient(second.url, first.alice.headers);
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? first.alice : onSecond).get(`${API}/product`)),
  );
  const statuses = answers.map((answer) => answer.status);
  t.is(statuses.filter((status) => status === 200).length, 10, JSON.stringify(statuses));
  t.is(statuses.filter((status) => status === 429).length, 20);
  t.true(
    answers.some((answer, i) => i % 2 === 1 && answer.status === 200),
    'both instances served some',
  );
  // Bob's key is another bucket, on either instance.
  t.is((await new ApiClient(second.url, first.bob.headers).get(`${API}/product`)).status, 200);
  // The table holds hashes: no API key is stored.
  const keys = await sql<{ key: string }>`select key from rest_uws_rate_limits`.execute(
    first.server.system.database.db,
  );
  t.is(keys.rows.length, 2);
  for (const row of keys.rows) t.false(row.key.includes(first.aliceKey) || row.key.includes(first.bobKey));
});
