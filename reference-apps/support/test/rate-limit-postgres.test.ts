import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import 'reflect-metadata';
import {
  GET,
  Path,
  PostgresRateLimitStore,
  RateLimit,
  RestBuilder,
  byHeader,
  loadUws,
  rateLimit,
  type Logger,
} from 'rest.uws';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { postgresForTests } from '../src/index';

/**
 * rest.uws's PostgreSQL rate limit store, tested here because this package has `pg` and the throwaway cluster
 * (the framework itself never loads `pg`): two app instances share one limit through the database.
 */

@Path('/quota')
class Quota {
  @GET
  @RateLimit({ limit: 40, windowSeconds: 3600 })
  spend() {
    return { ok: true };
  }
}

function listen(app: TemplatedApp): Promise<{ url: string; close(): void }> {
  const uws = loadUws();
  return new Promise((resolve, reject) => {
    app.listen('127.0.0.1', 0, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error('listen failed'));
      resolve({
        url: `http://127.0.0.1:${uws.us_socket_local_port(socket)}`,
        close: () => uws.us_listen_socket_close(socket),
      });
    });
  });
}

/**
 * A pool for a test's database. pg re-emits an idle client's error on its pool, and an unheard one ends the process:
 * the throwaway database is dropped WITH (FORCE) at teardown, which cuts any client still open then (an app's own
 * pool has this listener too). Errors before the test's end are kept, and the test asserts there were none.
 */
function testPool(config: pg.PoolConfig): { pool: pg.Pool; errors: Error[] } {
  const pool = new pg.Pool(config);
  const errors: Error[] = [];
  pool.on('error', (err) => void errors.push(err));
  return { pool, errors };
}

/** An app instance on the database; closed by the test's teardown even when the other instance fails to start. */
async function instance(t: ExecutionContext, url: string) {
  const { pool, errors } = testPool({ connectionString: url, max: 4 });
  t.teardown(() => pool.end());
  const store = new PostgresRateLimitStore({ pool });
  await store.migrate();
  const server = await listen(
    new RestBuilder()
      .use(rateLimit({ store, key: byHeader('X-Api-Key') }))
      .register(Quota)
      .build(),
  );
  t.teardown(() => server.close());
  return { pool, errors, store, server };
}

test('two instances share one limit: of 120 concurrent requests across both, exactly 40 pass', async (t) => {
  const database = await postgresForTests('rate_limit');
  t.teardown(() => database.close());
  // Started at once, as two instances of a deployment start: both create the table (a race PostgreSQL answers with
  // one of three errors, each of which the store takes as "already there").
  const [a, b] = await Promise.all([instance(t, database.url), instance(t, database.url)]);
  const send = (server: { url: string }, key: string) =>
    fetch(`${server.url}/quota`, { headers: { 'X-Api-Key': key } });
  const answers = await Promise.all(
    Array.from({ length: 120 }, (_, i) => send(i % 2 === 0 ? a.server : b.server, 'partner-1')),
  );
  const statuses = answers.map((r) => r.status);
  t.is(statuses.filter((s) => s === 200).length, 40);
  t.is(statuses.filter((s) => s === 429).length, 80);
  const refused = answers.find((r) => r.status === 429)!;
  t.is(refused.headers.get('ratelimit-limit'), '40');
  t.is(refused.headers.get('ratelimit-remaining'), '0');
  // 40 per hour: the next request fits 90 s after the bucket last moved (give or take the test's own run time).
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter >= 80 && retryAfter <= 90, `Retry-After ${retryAfter}`);
  t.is(((await refused.json()) as { code: string }).code, 'RU_ERR_RATE_LIMITED');
  // The remaining counts the instances reported, together, are each value from 39 down to 0 once.
  const remaining = answers.filter((r) => r.status === 200).map((r) => Number(r.headers.get('ratelimit-remaining')));
  t.deepEqual(
    remaining.sort((x, y) => y - x),
    Array.from({ length: 40 }, (_, i) => 39 - i),
  );

  // Another key has its own bucket, on either instance.
  t.is((await send(b.server, 'partner-2')).status, 200);
  t.is((await send(a.server, 'partner-2')).headers.get('ratelimit-remaining'), '38');

  // The table holds hashes: no API key is stored.
  const rows = await a.pool.query('SELECT key FROM rest_uws_rate_limits');
  t.is(rows.rows.length, 2);
  for (const row of rows.rows) t.false(String(row.key).includes('partner'), row.key);
  t.deepEqual([...a.errors, ...b.errors], []);
});

test('the store on a database that is down: 503 RU_ERR_RATE_LIMIT_STORE, not a crash; fine again once it is back', async (t) => {
  const database = await postgresForTests('rate_limit_down');
  t.teardown(() => database.close());
  const { pool, errors } = testPool({ connectionString: database.url, max: 2, connectionTimeoutMillis: 2000 });
  const store = new PostgresRateLimitStore({ pool, table: 'limits' });
  const logged: unknown[] = [];
  const quiet: Logger = { error: (o) => void logged.push(o), warn() {}, info() {}, debug() {} };
  const server = await listen(new RestBuilder().logger(quiet).use(rateLimit({ store })).register(Quota).build());
  t.teardown(async () => {
    server.close();
    await pool.end();
  });
  t.is((await fetch(`${server.url}/quota`)).status, 200);
  // The table is dropped under the running app: every query now fails, as with a database that is gone.
  await pool.query('DROP TABLE limits');
  const down = await fetch(`${server.url}/quota`);
  t.is(down.status, 503);
  t.is(((await down.json()) as { code: string }).code, 'RU_ERR_RATE_LIMIT_STORE');
  t.true(logged.length > 0, 'the failure is logged');
  await pool.query(
    'CREATE TABLE limits (key text PRIMARY KEY, tat float8 NOT NULL, allowed boolean NOT NULL, seen_at float8 NOT NULL)',
  );
  const back = await fetch(`${server.url}/quota`);
  t.is(back.status, 200);
  t.is(back.headers.get('ratelimit-remaining'), '39');
  t.deepEqual(errors, []);
});

test('a table name that is no plain identifier is refused', (t) => {
  const pool = { query: async () => ({ rows: [] }) };
  t.throws(() => new PostgresRateLimitStore({ pool, table: 'x; drop table users' }), {
    message: /lower-case identifier/,
  });
  t.throws(() => new PostgresRateLimitStore({} as never), { message: /needs \{ pool \}/ });
});

test('instances that start at once all create the table: each error PostgreSQL gives the loser of that race means "already there"', async (t) => {
  // The race itself, for real: eight stores on fresh tables, each table created by four at once, ten times over.
  const database = await postgresForTests('rate_limit_race');
  t.teardown(() => database.close());
  const { pool, errors } = testPool({ connectionString: database.url, max: 8 });
  t.teardown(() => pool.end());
  for (let round = 0; round < 10; round++) {
    const table = `race_${round}`;
    await t.notThrowsAsync(
      Promise.all(Array.from({ length: 4 }, () => new PostgresRateLimitStore({ pool, table }).migrate())),
      `round ${round}`,
    );
  }
  t.deepEqual(errors, []);
  // Each of the three answers a losing CREATE TABLE IF NOT EXISTS can get (seen: 42710 in CI), and only those.
  const failingWith = (code: string) => ({
    query: async () => {
      throw Object.assign(new Error(`simulated ${code}`), { code });
    },
  });
  for (const code of ['42P07', '42710', '23505'])
    await t.notThrowsAsync(new PostgresRateLimitStore({ pool: failingWith(code) }).migrate(), code);
  await t.throwsAsync(new PostgresRateLimitStore({ pool: failingWith('42501') }).migrate(), {
    message: 'simulated 42501',
  });
});
