import http from 'node:http';
import test from 'ava';
import { sql } from 'kysely';
import { openDatabase } from 'app-support';
import { API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody } from './helpers/fixture';
import { holdLock } from './helpers/held-lock';
import { startHttpFixture } from './helpers/http-fixture';
import { rawRequest } from './helpers/raw-http';
import { runCli, startMain } from './helpers/main-process';

/** A stop's deadline no loaded machine reaches: the test waits for the request in flight, not for a time. */
const NO_DEADLINE = 10 * 60_000;

const engines = useEngines('http_lifecycle');
const postgres = engines.find((engine) => engine.name === 'PostgreSQL')!;

test('PostgreSQL: a stop lets requests in progress finish, refuses new connections, and closes kept-alive ones after their answer', async (t) => {
  const url = await postgres.freshUrl();
  const { server, alice } = await startHttpFixture(url, { shutdownTimeoutMs: NO_DEADLINE });
  const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(async () => {
    keptAlive.destroy();
    await server.close();
  });
  const first = await rawRequest(server.url, { path: `${API}/booking`, headers: alice.headers, agent: keptAlive });
  t.is(first.status, 200);
  t.is(first.headers.connection, undefined, 'a connection kept alive');

  // Another session holds the booking table, so the next create waits inside the server.
  const lock = await holdLock(url, sql`LOCK TABLE booking IN ACCESS EXCLUSIVE MODE`);
  t.teardown(() => lock.release());
  const creating = alice.post(`${API}/booking`, createBody(1, 0)).then(
    (answer) => answer,
    (error: Error) => error,
  );
  await lock.someoneWaits(); // the request reached the server and waits for the lock

  let stopped = false;
  const stopping = server.close().then(() => (stopped = true));
  const refused = await rawRequest(server.url, { path: `${API}/booking`, headers: alice.headers }).catch(
    (error: NodeJS.ErrnoException) => error.code,
  );
  t.is(refused, 'ECONNREFUSED', 'no new connections');
  // A request on the connection kept alive is still answered while the create holds the stop (the catalogue is not
  // the locked table), and its connection closes after: the stop has begun, and waits.
  const late = await rawRequest(server.url, { path: `${API}/product`, headers: alice.headers, agent: keptAlive });
  t.is(late.status, 200);
  t.is(late.headers.connection, 'close');
  t.false(stopped, 'the stop waits for the create in progress');

  await lock.release();
  const created = await creating;
  t.false(created instanceof Error, String(created));
  t.is((created as Exclude<typeof created, Error>).status, 201, 'the request in progress completed');
  await stopping;
  t.true(stopped);
  const reader = await openDatabase(url);
  t.teardown(() => reader.destroy());
  const rows = await reader.db
    .selectFrom('booking' as never)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  t.is((rows as { n: number }).n, 1, 'and its booking is stored');
});

for (const engine of engines) {
  test(`${engine.name}: npm start's main reads port and database from flags and environment, prints them, stops on SIGTERM and SIGINT`, async (t) => {
    const url = await engine.freshUrl();
    const issued = await runCli('cli/keys-cli.js', ['create', 'Main Test Partner', '--database', url]);
    t.is(issued.code, 0, issued.output);
    const key = /API key: (\S+)/.exec(issued.output)![1];

    // Flags.
    const first = await startMain([
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--database',
      url,
      '--public-url',
      'https://booking.example.test',
    ]);
    t.regex(first.output(), /booking-api: listening on http:\/\/127\.0\.0\.1:\d+, database /);
    t.regex(first.output(), /links under https:\/\/booking\.example\.test/);
    if (engine.name === 'PostgreSQL')
      t.false(first.output().includes(new URL(url).password || '\u0000'), 'no password printed');
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${first.url}${API}/booking`, {
      method: 'POST',
      headers,
      body: JSON.stringify(await demoBooking(first.url, headers)),
    });
    t.is(created.status, 201, await created.clone().text());
    const booking = (await created.json()) as { bookingId: string };
    t.is(await first.stop('SIGTERM'), 0);
    t.regex(first.output(), /SIGTERM received, stopping[\s\S]*booking-api: stopped/);

    // Environment variables; the booking made by the first process is there.
    const second = await startMain([], { BOOKING_PORT: '0', HOST: '127.0.0.1', BOOKING_DATABASE_URL: url, PORT: '1' });
    const read = await fetch(`${second.url}${API}/booking/${booking.bookingId}`, { headers });
    t.is(read.status, 200);
    t.is(((await read.json()) as { status: string }).status, 'UNCAPTURED');
    t.is(await second.stop('SIGINT'), 0);
    t.regex(second.output(), /SIGINT received, stopping[\s\S]*booking-api: stopped/);
  });
}

test('main refuses a bad configuration with a message and exit code 1', async (t) => {
  const bad = await runCli('main.js', ['--port', '70000']);
  t.is(bad.code, 1);
  t.regex(bad.output, /Invalid port "70000" from --port: expected an integer from 0 to 65535/);
  const badUrl = await runCli('main.js', ['--port', '0', '--database', 'sqlite::memory:', '--public-url', 'ftp://x']);
  t.is(badUrl.code, 1);
  t.regex(badUrl.output, /Invalid public base URL "ftp:\/\/x"/);
});

/** A booking from the demo catalogue main seeds at first start: one adult at the Louvre, the first slot offered. */
async function demoBooking(baseUrl: string, headers: Record<string, string>) {
  const inventory = (await fetch(`${baseUrl}${API}/inventory?variantId=2003&limit=1`, { headers }).then((response) =>
    response.json(),
  )) as {
    items: { id: string; pricing: { persons: { type: string; price: number }[] } }[];
  };
  const slot = inventory.items[0];
  const adult = slot.pricing.persons.find((person) => person.type === 'ADULT')!;
  return {
    variantId: '2003',
    inventoryId: slot.id,
    customersDetails: {
      count: 1,
      customers: [
        {
          personType: 'ADULT',
          isPrimary: true,
          inputFields: [
            { id: 'name', value: 'Jean Dupont' },
            { id: 'email', value: 'jean@example.com' },
            { id: 'phone', value: '+33 1 23 45 67 89' },
          ],
        },
      ],
    },
    variantInputFields: [],
    price: { amount: adult.price, currencyCode: 'EUR' },
  };
}
