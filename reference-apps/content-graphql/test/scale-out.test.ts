import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresForTests } from 'app-support';
import { startContentServer, type RunningContentServer } from '../src/server';

// Two instances of the app on one PostgreSQL database, as behind a load balancer. Neither polls
// (changePollMs: 0): what one instance changes can only reach the other through LISTEN/NOTIFY.
const KEY = 'scale-out-admin-key-0123456789';
/** The bound asserted for a change to reach the other instance; the measured figures are logged. */
const BOUND_MS = 1000;

let database: Awaited<ReturnType<typeof postgresForTests>>;
let dir: string;
let a: RunningContentServer;
let b: RunningContentServer;
const delays: number[] = [];

test.serial.before('start two instances at once on one PostgreSQL database', async () => {
  database = await postgresForTests('content_scale_out');
  dir = await mkdtemp(join(tmpdir(), 'content-scale-'));
  const start = () =>
    startContentServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: database.url,
      assetsRoot: join(dir, 'assets'),
      adminKey: KEY,
      settings: { changePollMs: 0 },
    });
  [a, b] = await Promise.all([start(), start()]);
});

test.serial.after.always('stop', async () => {
  await a?.close();
  await b?.close();
  await database?.close();
  await rm(dir, { recursive: true, force: true });
});

const admin = (server: RunningContentServer, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}/admin${path}`, {
    method,
    headers: { 'X-Admin-Key': KEY, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function graphql(
  server: RunningContentServer,
  query: string,
  token?: string,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/api`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: await response.json() };
}

/** Asks `server` again and again until `done` holds; returns how long that took after `since`. */
async function waitUntil(
  server: RunningContentServer,
  query: string,
  done: (answer: { status: number; body: any }) => boolean,
  since: number,
  token?: string,
): Promise<number> {
  for (;;) {
    const answer = await graphql(server, query, token);
    const elapsed = performance.now() - since;
    if (done(answer)) return elapsed;
    if (elapsed > 10_000) throw new Error(`no change seen after 10 s; last answer ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const percentile = (values: number[], p: number) =>
  [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

test.serial('instances started at once seed the demo content once', async (t) => {
  const sites = await a.service.store.db.selectFrom('sites').select('id').execute();
  t.is(sites.length, 2);
  const query = '{ entries(section: "news", status: null) { title } }';
  const [fromA, fromB] = [await graphql(a, query), await graphql(b, query)];
  t.deepEqual(fromA.body, fromB.body);
  t.is(fromA.body.data.entries.length, 9, 'the news section holds the demo articles once');
  t.not(a.service.store.instanceId, b.service.store.instanceId);
  t.truthy(a.service.changes?.listening);
  t.truthy(b.service.changes?.listening);
});

test.serial('a content change through either instance invalidates the cached results of both', async (t) => {
  const id = (await graphql(a, '{ entry(slug: "storm-warning-for-the-weekend") { id } }')).body.data.entry.id;
  const query = `{ entry(id: ${id}) { title } }`;
  for (let round = 0; round < 10; round++) {
    const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
    const title = `Storm warning, update ${round}`;
    // Both instances hold the old answer in their result cache before the change.
    for (const server of [a, b]) {
      await graphql(server, query);
      t.true(server.service.graphql.cache.size > 0);
    }
    const response = await admin(writer, 'PUT', `/elements/${id}`, { title });
    t.is(response.status, 204);
    const changedAt = performance.now();
    t.is(
      (await graphql(writer, query)).body.data.entry.title,
      title,
      'the writing instance answers the new title at once',
    );
    delays.push(await waitUntil(reader, query, (answer) => answer.body.data?.entry?.title === title, changedAt));
  }
  t.log(
    `content change to the other instance: p50 ${percentile(delays, 50).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms over ${delays.length} changes`,
  );
  t.true(
    Math.max(...delays) < BOUND_MS,
    `every change reached the other instance within ${BOUND_MS} ms: ${delays.map((d) => d.toFixed(1)).join(', ')}`,
  );

  // Disabling the entry through b hides it on a.
  t.is((await admin(b, 'POST', `/elements/${id}/disable`)).status, 204);
  const hidden = await waitUntil(a, query, (answer) => answer.body.data?.entry === null, performance.now());
  t.true(hidden < BOUND_MS);
  t.is((await admin(a, 'POST', `/elements/${id}/enable`)).status, 204);
  await waitUntil(b, query, (answer) => answer.body.data?.entry !== null, performance.now());
});

test.serial('a schema change through one instance changes what clients of the other see', async (t) => {
  const schemas = (await (await admin(a, 'GET', '/schemas')).json()) as Array<{ id: number; isPublic: boolean }>;
  const publicId = schemas.find((s) => s.isPublic)!.id;
  const typeQuery = '{ __type(name: "news_article_Entry") { name } }';
  t.deepEqual((await graphql(b, typeQuery)).body.data, { __type: { name: 'news_article_Entry' } });
  t.is((await admin(a, 'PUT', `/schemas/${publicId}/scope`, { scope: ['sections.about'] })).status, 200);
  const narrowed = await waitUntil(b, typeQuery, (answer) => answer.body.data?.__type === null, performance.now());
  t.true(narrowed < BOUND_MS);
  t.log(`schema change to the other instance: ${narrowed.toFixed(1)} ms`);
  const entries = await graphql(b, '{ entries(section: "news") { title } }');
  t.deepEqual(entries.body.data, { entries: [] }, 'the news section is out of the public scope on both instances');
  t.is(
    (
      await admin(b, 'PUT', `/schemas/${publicId}/scope`, {
        scope: ['sections.*', 'volumes.images', 'categorygroups.*', 'taggroups.*', 'globalsets.*'],
      })
    ).status,
    200,
  );
  await waitUntil(a, typeQuery, (answer) => answer.body.data?.__type?.name === 'news_article_Entry', performance.now());
});

test.serial('a token created, disabled, enabled or deleted through one instance is treated alike by all', async (t) => {
  const schema = (await (
    await admin(a, 'POST', '/schemas', { name: 'Partner site', scope: ['sections.news'] })
  ).json()) as { id: number };
  const created = (await (await admin(a, 'POST', '/tokens', { name: 'partner', schemaId: schema.id })).json()) as {
    id: number;
    token: string;
  };
  const query = '{ entries(section: "news", limit: 1) { title } }';
  const works = (answer: { status: number; body: any }) =>
    answer.status === 200 && Array.isArray(answer.body.data?.entries);
  const refused = (answer: { status: number; body: any }) =>
    answer.status === 400 && answer.body.errors?.[0]?.message === 'Invalid Authorization header';

  // b never saw the token being made: it must learn of it from a.
  t.true((await waitUntil(b, query, works, performance.now(), created.token)) < BOUND_MS);
  t.true(works(await graphql(a, query, created.token)));

  t.is((await admin(a, 'POST', `/tokens/${created.id}/disable`)).status, 200);
  t.true(refused(await graphql(a, query, created.token)), 'the instance that disabled the token refuses it at once');
  const disabled = await waitUntil(b, query, refused, performance.now(), created.token);
  t.true(disabled < BOUND_MS);
  t.log(`token disabled on one instance, refused by the other after ${disabled.toFixed(1)} ms`);
  for (let i = 0; i < 5; i++) t.true(refused(await graphql(b, query, created.token)), 'and stays refused');

  t.is((await admin(b, 'POST', `/tokens/${created.id}/enable`)).status, 200);
  t.true((await waitUntil(a, query, works, performance.now(), created.token)) < BOUND_MS);
  t.is((await admin(b, 'DELETE', `/tokens/${created.id}`)).status, 204);
  t.true((await waitUntil(a, query, refused, performance.now(), created.token)) < BOUND_MS);
});

test.serial('an instance whose listening connection is cut reconnects and hears changes again', async (t) => {
  const id = (await graphql(a, '{ entry(slug: "harbour-traffic-doubles") { id } }')).body.data.entry.id;
  const query = `{ entry(id: ${id}) { title } }`;
  await graphql(b, query);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const killed = await client.query(
      `select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()`,
    );
    t.is(killed.rows.length, 2, 'both instances held a LISTEN connection');
  } finally {
    await client.end();
  }
  // A change made while b is deaf is missed as a notice; b drops its caches when it reconnects.
  t.is((await admin(a, 'PUT', `/elements/${id}`, { title: 'Traffic doubles, during the outage' })).status, 204);
  const heard = await waitUntil(
    b,
    query,
    (answer) => answer.body.data?.entry?.title === 'Traffic doubles, during the outage',
    performance.now(),
  );
  t.log(`change made while the listening connection was down seen after ${heard.toFixed(1)} ms`);
  t.true(heard < 5000);
  t.true(b.service.changes!.listening);
  t.is((await admin(a, 'PUT', `/elements/${id}`, { title: 'Traffic doubles, after the outage' })).status, 204);
  t.true(
    (await waitUntil(
      b,
      query,
      (answer) => answer.body.data?.entry?.title === 'Traffic doubles, after the outage',
      performance.now(),
    )) < BOUND_MS,
  );
});
