import test from 'ava';
import { postgresForTests, startThrowawayPostgres } from 'app-support';
import { sql } from 'kysely';
import type { Logger } from 'rest.uws';
import { API } from './helpers/api-client';
import { assertError } from './helpers/assert-error';
import { createBody, HOUR, SLOT_ID, VARIANT_ID } from './helpers/fixture';
import { holdLock } from './helpers/held-lock';
import { eventually, startHttpFixture } from './helpers/http-fixture';

const UNAVAILABLE = 'The booking database is unavailable; the request was not completed. Retry in a few seconds';

/** A logger that keeps what it is given (the test reads what the app told the operator). */
function recordingLogger(lines: Array<{ level: string; fields: unknown; message?: string }>): Logger {
  const at = (level: string) => (fields: unknown, message?: string) => void lines.push({ level, fields, message });
  const logger = {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => logger,
  };
  return logger as unknown as Logger;
}

// This test stops and starts its own cluster, so it never uses the shared TEST_POSTGRES_URL one.
test('PostgreSQL stopped under a running app: 503 in the envelope meanwhile, then the same app serves again and its background jobs carry on', async (t) => {
  const cluster = await startThrowawayPostgres();
  t.teardown(() => cluster.stop());
  const logged: Array<{ level: string; fields: unknown; message?: string }> = [];
  const fixture = await startHttpFixture(await cluster.createDatabase('outage_http'), {
    background: { fulfilmentIntervalMs: 50, sweepIntervalMs: 50 },
    logger: recordingLogger(logged),
  });
  const { server, alice, anonymous, clock } = fixture;
  t.teardown(() => server.close());

  const fulfilled = (await alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
  await alice.put(`${API}/booking/${fulfilled}`, { status: 'PENDING', partnerReferenceId: 'BEFORE' });
  const completed = await eventually(
    () => alice.get(`${API}/booking/${fulfilled}`),
    (answer) => answer.body.status === 'COMPLETED',
  );
  t.is(completed.body.status, 'COMPLETED');
  const voucherPath = new URL(completed.body.voucherUrl).pathname;
  const toCapture = (await alice.post(`${API}/booking`, createBody(2, 0))).body.bookingId;
  const toTimeOut = (await alice.post(`${API}/booking`, createBody(3, 0))).body.bookingId;
  t.is(
    (await alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`)).body.items[0]
      .remaining,
    24,
  );

  await cluster.pauseServer();
  const requests: Array<[string, string, unknown?]> = [
    ['GET', `${API}/booking`],
    ['GET', `${API}/booking/${fulfilled}`],
    ['POST', `${API}/booking`, createBody(1, 0)],
    ['PUT', `${API}/booking/${toCapture}`, { status: 'PENDING', partnerReferenceId: 'DURING' }],
    ['POST', `${API}/booking/create`, createBody(1, 0)],
    ['GET', `${API}/product`],
    ['GET', `${API}/product/p-walk`],
    ['GET', `${API}/inventory?variantId=${VARIANT_ID}`],
  ];
  for (const [method, path, body] of requests) {
    const started = Date.now();
    const answer = await alice.request(method, path, body);
    t.log(method, path, answer.status, `${Date.now() - started} ms`);
    assertError(t, answer, 503, 'E_SERVICE_UNAVAILABLE', UNAVAILABLE);
    t.is(answer.headers.get('retry-after'), '5');
    t.true(Date.now() - started < 5000, 'answered at once, not after a hang');
  }
  // Without a key too: the rate limit, counted in the database, comes before the key check (so that guessing keys
  // is limited as well).
  assertError(t, await anonymous.get(`${API}/booking`), 503, 'E_SERVICE_UNAVAILABLE', UNAVAILABLE);
  const page = await anonymous.get(voucherPath);
  t.is(page.status, 503);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.true(page.text.includes(UNAVAILABLE));
  t.notRegex(page.text, /\n\s*at |\.js:\d+|ECONNREFUSED/);
  // Let the background jobs fail a few rounds while the database is down.
  await new Promise((resolve) => setTimeout(resolve, 300));

  await cluster.resumeServer();
  // The same server, no restart: the pool opens new connections.
  const again = await eventually(
    () => alice.get(`${API}/booking/${fulfilled}`),
    (answer) => answer.status === 200,
    10_000,
  );
  t.is(again.status, 200);
  t.deepEqual(again.body, completed.body, 'nothing changed while the database was away');
  t.is((await alice.get(`${API}/booking`)).body.total, 3, 'no create of the outage was half-done');
  t.is((await anonymous.get(voucherPath)).status, 200);

  // The fulfilment worker survived: a capture now is fulfilled.
  t.is(
    (await alice.put(`${API}/booking/${toCapture}`, { status: 'PENDING', partnerReferenceId: 'AFTER' })).status,
    200,
  );
  const fulfilledAfter = await eventually(
    () => alice.get(`${API}/booking/${toCapture}`),
    (answer) => answer.body.status === 'COMPLETED',
  );
  t.is(fulfilledAfter.body.status, 'COMPLETED');
  t.is(fulfilledAfter.body.tickets.length, 2);

  // The sweep survived: past the hour, it times out the uncaptured booking by itself (read from the table, not the API,
  // whose reads would time it out too) and gives its 3 seats back.
  clock.advance(HOUR + 1000);
  const swept = await eventually(
    () => server.system.repositories.bookings.findById(Number(toTimeOut)),
    (row) => row?.status === 'CAPTURE_TIMEOUT',
  );
  t.is(swept?.status, 'CAPTURE_TIMEOUT');
  t.is((await server.system.repositories.catalogue.findSlot(SLOT_ID))?.remaining, 27);

  // The operator was told, without a line per request; no 500 was logged. The rate limit store (in the same
  // database) failing is one error line of rest.uws, and one line when it works again.
  const warnings = logged.filter((line) => line.message === 'database unavailable: answered 503');
  t.true(warnings.length >= 1 && warnings.length <= 2, JSON.stringify(warnings));
  t.deepEqual(
    logged.filter((line) => line.level === 'error').map((line) => line.message),
    ['rate limit store failed'],
  );
  t.is(logged.filter((line) => line.message === 'rate limit store works again').length, 1);
});

test('PostgreSQL: a statement past the statement timeout, or a wait for a connection past the connect timeout, is a 503 and holds nothing', async (t) => {
  const postgres = await postgresForTests('outage_timeouts');
  t.teardown(() => postgres.close());
  const url = postgres.url;
  const { server, alice } = await startHttpFixture(url, {
    postgresPool: { max: 2, statementTimeoutMs: 1500, connectionTimeoutMs: 400 },
  });
  t.teardown(() => server.close());
  // Another session holds the slot's row lock (a stuck process, say): the create's seat update waits on it until the
  // server cancels the statement.
  const lock = await holdLock(url, sql`select id from inventory_slot where id = ${SLOT_ID} for update`);
  t.teardown(() => lock.release());
  const started = Date.now();
  assertError(t, await alice.post(`${API}/booking`, createBody(1, 0)), 503, 'E_SERVICE_UNAVAILABLE', UNAVAILABLE);
  t.true(Date.now() - started < 6000, `cancelled after the timeout, not left waiting (${Date.now() - started} ms)`);
  await lock.release();
  // The cancelled create left nothing: no booking, no seat taken; the next one goes through. (Waited for: a new
  // connection on a loaded CI machine may take longer than the short connect timeout, for the rate limit or the read.)
  const after = await eventually(
    () => alice.get(`${API}/booking`),
    (answer) => answer.status === 200,
    15_000,
  );
  t.is(after.status, 200, JSON.stringify(after.body));
  t.is(after.body.total, 0);
  t.is((await alice.post(`${API}/booking`, createBody(1, 0))).status, 201);
  t.is((await server.system.repositories.catalogue.findSlot(SLOT_ID))?.remaining, 29);

  // Both pool connections busy (within the statement timeout) for longer than the connect timeout: the next request
  // gives up waiting with a 503.
  const sleepers = Promise.all([0, 1].map(() => sql`select pg_sleep(1.2)`.execute(server.system.database.db)));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assertError(t, await alice.get(`${API}/booking`), 503, 'E_SERVICE_UNAVAILABLE', UNAVAILABLE);
  await t.notThrowsAsync(sleepers, 'the statements holding the connections were not disturbed');
  const served = await eventually(
    () => alice.get(`${API}/booking`),
    (answer) => answer.status === 200,
    15_000,
  );
  t.is(served.status, 200, `served again once connections are free: ${JSON.stringify(served.body)}`);
});
