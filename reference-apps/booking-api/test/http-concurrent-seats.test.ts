import test from 'ava';
import { API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody, SLOT_ID, VARIANT_ID } from './helpers/fixture';
import { startHttpFixture } from './helpers/http-fixture';

const engines = useEngines('http_seats');

for (const engine of engines) {
  // PostgreSQL: two servers on one database stand for two instances behind a load balancer.
  const instances = engine.name === 'PostgreSQL' ? 'two servers' : 'one server';
  test(`${engine.name}: 50 concurrent HTTP creates for the last 10 seats, through ${instances}: exactly 10 succeed`, async (t) => {
    const url = await engine.freshUrl();
    const first = await startHttpFixture(url, { capacity: 10 });
    const second = engine.name === 'PostgreSQL' ? await startHttpFixture(url, { seed: false, clock: first.clock, keys: first }) : first;
    t.teardown(async () => {
      await first.server.close();
      await second.server.close();
    });

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? first : second).alice.post(`${API}/booking`, createBody(1, 0))),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    t.is(created.length, 10, answers.map((answer) => answer.status).join(' '));
    t.is(refused.length, 40);
    for (const answer of refused) t.is(answer.body.error.code, 'E_SOLD_OUT');
    t.true(refused.every((answer) => /^Inventory slot slot-walk-0201-1000 has \d seat\(s\) left; 1 requested$/.test(answer.body.error.message)));
    t.is(new Set(created.map((answer) => answer.body.bookingId)).size, 10, 'ten different bookings');

    const slot = (await first.alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`)).body.items[0];
    t.is(slot.id, SLOT_ID);
    t.is(slot.remaining, 0);
    t.is(slot.availability, 'CLOSED');
    t.is((await second.alice.get(`${API}/booking?limit=100`)).body.total, 10, 'exactly ten bookings stored');
  });
}
