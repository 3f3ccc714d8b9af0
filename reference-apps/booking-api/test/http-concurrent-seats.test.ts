import test from 'ava';
import { API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody, SLOT_ID, VARIANT_ID } from './helpers/fixture';
import { startHttpFixture, type HttpFixture } from './helpers/http-fixture';

const engines = useEngines('http_seats');

for (const engine of engines) {
  // PostgreSQL: two servers on one database stand for two instances behind a load balancer.
  const instances = engine.name === 'PostgreSQL' ? 'two servers' : 'one server';
  test(`${engine.name}: 50 concurrent HTTP creates for the last 10 seats, through ${instances}: exactly 10 succeed`, async (t) => {
    const url = await engine.freshUrl();
    const first = await startHttpFixture(url, { capacity: 10 });
    const second =
      engine.name === 'PostgreSQL'
        ? await startHttpFixture(url, { seed: false, clock: first.clock, keys: first })
        : first;
    t.teardown(async () => {
      await first.server.close();
      await second.server.close();
    });

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        (index % 2 === 0 ? first : second).alice.post(`${API}/booking`, createBody(1, 0)),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    t.is(created.length, 10, answers.map((answer) => answer.status).join(' '));
    t.is(refused.length, 40);
    for (const answer of refused) t.is(answer.body.error.code, 'E_SOLD_OUT');
    t.true(
      refused.every((answer) =>
        /^Inventory slot slot-walk-0201-1000 has \d seat\(s\) left; 1 requested$/.test(answer.body.error.message),
      ),
    );
    t.is(new Set(created.map((answer) => answer.body.bookingId)).size, 10, 'ten different bookings');

    const slot = (await first.alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`))
      .body.items[0];
    t.is(slot.id, SLOT_ID);
    t.is(slot.remaining, 0);
    t.is(slot.availability, 'CLOSED');
    t.is((await second.alice.get(`${API}/booking?limit=100`)).body.total, 10, 'exactly ten bookings stored');
  });
}

/** Seats as stored: the slot's remaining count, and the seats held by its bookings that still hold them. */
async function storedSeats(fixture: HttpFixture): Promise<{ remaining: number; held: number }> {
  const db = fixture.server.system.database.db;
  const slot = await db
    .selectFrom('inventory_slot')
    .select('remaining')
    .where('id', '=', SLOT_ID)
    .executeTakeFirstOrThrow();
  const held = await db
    .selectFrom('booking')
    .select((eb) => eb.fn.sum<number>('seats').as('seats'))
    .where('inventory_id', '=', SLOT_ID)
    .where('status', 'in', ['UNCAPTURED', 'PENDING', 'COMPLETED'])
    .executeTakeFirstOrThrow();
  return { remaining: Number(slot.remaining), held: Number(held.seats ?? 0) };
}

for (const engine of engines) {
  // The booking API's own oversell guard (the conditional seat UPDATE in BookingRepository.insertTakingSeats) must
  // answer the loser of a race 409 E_SOLD_OUT: without it the database's CHECK constraint still stops the oversell,
  // but as a 500. Checked against the stored rows, not only the answers.
  test(`${engine.name}: racing for the last seats, the losers get 409 E_SOLD_OUT with what is left, and the stored seats add up and never go below zero`, async (t) => {
    const url = await engine.freshUrl();
    const first = await startHttpFixture(url, { capacity: 3 });
    const second =
      engine.name === 'PostgreSQL'
        ? await startHttpFixture(url, { seed: false, clock: first.clock, keys: first })
        : first;
    t.teardown(async () => {
      await first.server.close();
      await second.server.close();
    });
    const race = (count: number, adults: number) =>
      Promise.all(
        Array.from({ length: count }, (_, index) =>
          (index % 2 === 0 ? first : second).alice.post(`${API}/booking`, createBody(adults, 0)),
        ),
      );

    // Two-seat bookings for three seats: one wins, every other is told one seat is left.
    const pairs = await race(8, 2);
    t.deepEqual(
      pairs.map((answer) => answer.status).sort(),
      [201, 409, 409, 409, 409, 409, 409, 409],
      pairs.map((answer) => answer.text).join('\n'),
    );
    for (const loser of pairs.filter((answer) => answer.status === 409)) {
      t.like(loser.body, {
        status: 409,
        error: { code: 'E_SOLD_OUT', message: 'Inventory slot slot-walk-0201-1000 has 1 seat(s) left; 2 requested' },
      });
    }
    t.deepEqual(await storedSeats(first), { remaining: 1, held: 2 });

    // The last seat: one of six wins.
    const singles = await race(6, 1);
    t.deepEqual(
      singles.map((answer) => answer.status).sort(),
      [201, 409, 409, 409, 409, 409],
      singles.map((answer) => answer.text).join('\n'),
    );
    t.deepEqual(await storedSeats(first), { remaining: 0, held: 3 });

    // Sold out: every one of them is refused, nothing is stored, nothing goes below zero.
    const late = await race(6, 1);
    t.true(
      late.every((answer) => answer.status === 409 && answer.body.error.code === 'E_SOLD_OUT'),
      late.map((answer) => answer.text).join('\n'),
    );
    t.deepEqual(await storedSeats(first), { remaining: 0, held: 3 });
    t.is((await first.alice.get(`${API}/booking?limit=100`)).body.total, 2, 'two bookings stored, no more');
  });
}
