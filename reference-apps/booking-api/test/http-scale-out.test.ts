import test from 'ava';
import { sql } from 'kysely';
import { openDatabase, postgresForTests, type TestPostgresDatabase } from 'app-support';
import type { BookingSchema } from '../src/storage/schema';
import { API, type ApiClient } from './helpers/api-client';
import { createBody, HOUR, SLOT_ID } from './helpers/fixture';
import { eventually } from './helpers/http-fixture';
import { clientOf, listAll, prepareDatabase, remainingOnSlot, seatsHeld, startInstance } from './helpers/instances';
import { runCli, startMain, type RunningMain } from './helpers/main-process';

// Two app processes (node dist/src/main.js) on different ports over one PostgreSQL database: two instances behind a
// load balancer, as docs/deployment.md describes.
let postgres: TestPostgresDatabase;
test.before(async () => {
  postgres = await postgresForTests('http_scale_out');
});
test.after.always(() => postgres?.close());
// One test at a time: each runs two app processes and their load, on a machine the rest of the suite shares.

async function twoInstances(t: { teardown(fn: () => unknown): void }, capacity: number | null) {
  const prepared = await prepareDatabase(await postgres.freshDatabase('scale_out'), capacity);
  const instances: RunningMain[] = await Promise.all([startInstance(prepared.url), startInstance(prepared.url)]);
  t.teardown(() => Promise.all(instances.map((instance) => instance.stop('SIGTERM'))));
  const [one, two] = instances.map((instance) => clientOf(instance, prepared.aliceKey));
  return { prepared, instances, one: one!, two: two! };
}

test.serial(
  'a booking created through one instance is read, listed and captured through the other, and fulfilled once',
  async (t) => {
    const { one, two } = await twoInstances(t, 30);
    t.not(one.baseUrl, two.baseUrl);
    const created = await one.post(`${API}/booking`, createBody(2, 1));
    t.is(created.status, 201);
    const id = created.body.bookingId;
    t.deepEqual((await two.get(`${API}/booking/${id}`)).body, created.body, 'the other instance reads it as created');
    t.deepEqual(
      (await two.get(`${API}/booking`)).body.items.map((booking: { bookingId: string }) => booking.bookingId),
      [id],
    );

    const captured = await two.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'LB-1' });
    t.is(captured.status, 200);
    // PENDING as the spec shows, even when the other instance's fulfilment round takes the booking at once.
    t.is(captured.body.status, 'PENDING');
    t.is(captured.body.partnerReferenceId, 'LB-1');
    // The same capture through the first instance is the idempotent retry a partner behind a load balancer makes.
    t.is((await one.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'LB-1' })).status, 200);
    t.is((await one.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'LB-2' })).status, 409);

    const completed = await eventually(
      () => one.get(`${API}/booking/${id}`),
      (answer) => answer.body.status === 'COMPLETED',
    );
    t.is(completed.body.status, 'COMPLETED');
    t.is(completed.body.tickets.length, 3);
    t.deepEqual((await two.get(`${API}/booking/${id}`)).body, completed.body, 'both instances answer the same booking');
    t.is(await remainingOnSlot(two), 27);
  },
);

test.serial('50 concurrent creates spread over both instances for the last 10 seats: exactly 10 succeed', async (t) => {
  const { one, two } = await twoInstances(t, 10);
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? one : two).post(`${API}/booking`, createBody(1, 0))),
  );
  const statuses = answers.map((answer) => answer.status);
  t.is(statuses.filter((status) => status === 201).length, 10, statuses.join(' '));
  t.is(statuses.filter((status) => status === 409).length, 40, statuses.join(' '));
  for (const refused of answers.filter((answer) => answer.status === 409)) t.is(refused.body.error.code, 'E_SOLD_OUT');
  const winners = answers.filter((answer) => answer.status === 201);
  t.is(new Set(winners.map((answer) => answer.body.bookingId)).size, 10);
  t.is(await remainingOnSlot(one), 0);
  t.is(await remainingOnSlot(two), 0);
  t.is((await listAll(two)).length, 10);
});

/**
 * Creates `count` bookings of 1 to 3 adults, alternating instances, ten at a time: all at once, a loaded machine
 * makes some wait for a database connection past the pool's timeout, and 503 is then the right answer (the
 * concurrency of creates is the test above's; here they only set the stage).
 */
async function createMany(clients: ApiClient[], count: number): Promise<Array<{ id: string; seats: number }>> {
  const answers: Array<{ id: string; seats: number }> = [];
  for (let start = 0; start < count; start += 10) {
    const wave = Array.from({ length: Math.min(10, count - start) }, async (_, offset) => {
      const index = start + offset;
      const seats = 1 + (index % 3);
      const answer = await clients[index % clients.length]!.post(`${API}/booking`, createBody(seats, 0));
      if (answer.status !== 201) throw new Error(`create ${index}: ${answer.status} ${answer.text}`);
      return { id: answer.body.bookingId as string, seats };
    });
    answers.push(...(await Promise.all(wave)));
  }
  return answers;
}

test.serial(
  'the fulfilment worker and the capture-timeout sweep run on both instances and do no booking twice',
  async (t) => {
    const capacity = 1000;
    const { prepared, instances, one, two } = await twoInstances(t, capacity);
    const bookings = await createMany([one, two], 150);
    const toCapture = bookings.filter((_, index) => index % 3 !== 0);
    const toForget = bookings.filter((_, index) => index % 3 === 0);

    const capture = (client: ApiClient, booking: { id: string }) =>
      client.put(`${API}/booking/${booking.id}`, { status: 'PENDING', partnerReferenceId: `REF-${booking.id}` });
    const database = await openDatabase<BookingSchema>(prepared.url);
    t.teardown(() => database.destroy());
    const statusesOf = () =>
      database.db
        .selectFrom('booking')
        .select(['id', 'status', 'seats', 'partner_reference_id', 'voucher_url', 'timed_out_at'])
        .orderBy('id')
        .execute();
    // Bounded only so that a broken test ends (under AVA's 60 s without a result); it waits for the rows, not a time.
    const completedAll = async (some: Array<{ id: string }>) => {
      const ids = new Set(some.map((booking) => booking.id));
      const rows = await eventually(
        statusesOf,
        (rows) => rows.filter((row) => ids.has(String(row.id))).every((row) => row.status === 'COMPLETED'),
        50_000,
      );
      return rows.filter((row) => ids.has(String(row.id)));
    };
    const urlOf = (instance: RunningMain) => `http://localhost:${new URL(instance.url).port}/`;

    // Each worker alone first (the other instance's process stopped, SIGSTOP, and let go on again, SIGCONT), so that
    // both are seen to work whatever the machine's load; then all the other captures at once through both instances:
    // both fulfilment workers are woken and race for the same rows.
    const paused = new Set<RunningMain>();
    const pause = (instance: RunningMain) => (paused.add(instance), instance.child.kill('SIGSTOP'));
    const resume = (instance: RunningMain) => (paused.delete(instance), instance.child.kill('SIGCONT'));
    t.teardown(() => {
      for (const instance of paused) resume(instance);
    });
    const alone = [toCapture.slice(0, 10), toCapture.slice(10, 20)] as const;
    const together = toCapture.slice(20);
    for (const [i, client] of [one, two].entries()) {
      const other = instances[1 - i]!;
      pause(other);
      t.deepEqual(
        [...new Set((await Promise.all(alone[i].map((b) => capture(client, b)))).map((a) => a.status))],
        [200],
      );
      const rows = await completedAll(alone[i]);
      resume(other);
      t.deepEqual(
        rows.filter((row) => !row.voucher_url?.startsWith(urlOf(instances[i]!))).map((row) => row.id),
        [],
        `instance ${i + 1}'s worker fulfilled what was captured while it ran alone`,
      );
    }
    const captures = await Promise.all(together.map((booking, index) => capture(index % 2 === 0 ? one : two, booking)));
    t.deepEqual([...new Set(captures.map((answer) => answer.status))], [200]);
    await completedAll(together);

    // An hour passes for the bookings nobody captured (their creation time moved back; the instances use the real
    // clock). Both sweeps (every 25 ms) race to time them out and give the seats back.
    await database.db
      .updateTable('booking')
      .set({ created_at: sql`created_at - ${2 * HOUR}` })
      .where('status', '=', 'UNCAPTURED')
      .execute();

    const settled = await eventually(
      statusesOf,
      (rows) => rows.every((row) => row.status === 'COMPLETED' || row.status === 'CAPTURE_TIMEOUT'),
      50_000,
    );
    const byId = new Map(settled.map((row) => [String(row.id), row]));
    for (const booking of toCapture) {
      t.is(byId.get(booking.id)?.status, 'COMPLETED', `captured booking ${booking.id}`);
      t.is(byId.get(booking.id)?.partner_reference_id, `REF-${booking.id}`);
    }
    for (const booking of toForget)
      t.is(byId.get(booking.id)?.status, 'CAPTURE_TIMEOUT', `forgotten booking ${booking.id}`);

    // Each instance links vouchers under its own address (no public URL set), which tells who fulfilled what.
    const fulfilledBy = instances.map(
      (instance) => settled.filter((row) => row.voucher_url?.startsWith(urlOf(instance))).length,
    );
    t.log(`fulfilled by instance one: ${fulfilledBy[0]}, by instance two: ${fulfilledBy[1]}`);
    t.is(fulfilledBy[0]! + fulfilledBy[1]!, toCapture.length);
    t.true(
      fulfilledBy.every((count) => count > 0),
      'both workers took part',
    );

    // Fulfilled once: exactly one ticket per seat, no ticket issued twice.
    const tickets = await database.db.selectFrom('ticket').select(['booking_id', 'public_id', 'position']).execute();
    const seatsCompleted = toCapture.reduce((sum, booking) => sum + booking.seats, 0);
    t.is(tickets.length, seatsCompleted, 'tickets issued = seats of the fulfilled bookings');
    t.is(new Set(tickets.map((ticket) => ticket.public_id)).size, tickets.length);
    t.is(
      new Set(tickets.map((ticket) => `${ticket.booking_id}:${ticket.position}`)).size,
      tickets.length,
      'no position filled twice',
    );
    for (const booking of toCapture) {
      const answer = await two.get(`${API}/booking/${booking.id}`);
      t.is(answer.body.tickets.length, booking.seats);
    }
    // Timed out once: every seat given back exactly once, so what is left plus what is held is the capacity.
    const held = seatsHeld(await listAll(one));
    t.is(held, seatsCompleted);
    t.is(await remainingOnSlot(one), capacity - seatsCompleted);
    const slot = await database.db
      .selectFrom('inventory_slot')
      .select('remaining')
      .where('id', '=', SLOT_ID)
      .executeTakeFirstOrThrow();
    t.is(slot.remaining, capacity - seatsCompleted);
  },
);

test.serial(
  'one instance with rest.uws serve() worker threads (--workers 2) on PostgreSQL serves and stops; SQLite is refused',
  async (t) => {
    const prepared = await prepareDatabase(await postgres.freshDatabase('scale_workers'), 100);
    const server = await startMain([
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--database',
      prepared.url,
      '--workers',
      '2',
    ]);
    t.teardown(() => server.stop('SIGKILL'));
    t.regex(server.output(), /listening on http:\/\/127\.0\.0\.1:\d+, database postgres:\/\/\S+, 2 worker threads/);
    // Printed just after the listening lines; it may come in the next chunk of the pipe.
    const poolLine = /PostgreSQL pool of 4 connections per worker, statement timeout 10000 ms, connect timeout 5000 ms/;
    for (const deadline = Date.now() + 5000; !poolLine.test(server.output()) && Date.now() < deadline; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    t.regex(server.output(), poolLine);
    const alice = clientOf(server, prepared.aliceKey);
    // Many connections at once: the kernel spreads them over both threads; every answer is right.
    const created = await Promise.all(Array.from({ length: 20 }, () => alice.post(`${API}/booking`, createBody(1, 0))));
    t.deepEqual([...new Set(created.map((answer) => answer.status))], [201]);
    const reads = await Promise.all(created.map((answer) => alice.get(`${API}/booking/${answer.body.bookingId}`)));
    t.deepEqual(
      reads.map((answer) => answer.body.bookingId),
      created.map((answer) => answer.body.bookingId),
    );
    t.is(await remainingOnSlot(alice), 80);
    t.is(await server.stop('SIGTERM'), 0);
    t.regex(server.output(), /SIGTERM received, stopping[\s\S]*booking-api: stopped/);

    const refused = await runCli('main.js', ['--port', '0', '--database', 'sqlite::memory:', '--workers', '2']);
    t.is(refused.code, 1);
    t.regex(refused.output, /--workers 2 needs PostgreSQL/);
  },
);
