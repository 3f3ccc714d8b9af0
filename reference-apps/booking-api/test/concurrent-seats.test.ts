import test from 'ava';
import { BookingError } from '../src/domain/booking-error';
import { useEngines } from './helpers/engines';
import { createBody, openFixture, remainingSeats } from './helpers/fixture';

const engines = useEngines('concurrent_seats');

for (const engine of engines) {
  // PostgreSQL: two systems (two pools) on one database stand for two app instances.
  // SQLite: one system, its one connection shared by all 50 requests (several instances need PostgreSQL).
  const instances = engine.name === 'PostgreSQL' ? 'two instances' : 'one instance';
  test(`${engine.name}: 50 concurrent creates for the last 10 seats, from ${instances}: exactly 10 succeed`, async (t) => {
    const url = await engine.freshUrl();
    const first = await openFixture(url, { capacity: 10 });
    const second = engine.name === 'PostgreSQL' ? await openFixture(url, { seed: false, clock: first.clock }) : first;
    t.teardown(async () => {
      await first.system.close();
      await second.system.close();
    });
    t.is(await remainingSeats(first.system), 10);

    const attempts = Array.from({ length: 50 }, (_, index) =>
      (index % 2 === 0 ? first : second).system.bookings.create(first.alice, createBody(1, 0)),
    );
    const outcomes = await Promise.allSettled(attempts);
    const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const failed = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');

    t.is(succeeded.length, 10);
    t.is(failed.length, 40);
    for (const failure of failed) {
      t.true(failure.reason instanceof BookingError, String(failure.reason));
      t.is((failure.reason as BookingError).code, 'E_SOLD_OUT');
      t.is((failure.reason as BookingError).httpStatus, 409);
    }
    t.regex(
      (failed[0].reason as Error).message,
      /Inventory slot slot-walk-0201-1000 has 0 seat\(s\) left; 1 requested/,
    );
    t.is(await remainingSeats(first.system), 0);
    const list = await first.system.bookings.list(first.alice, { limit: '100' }, 'http://x');
    t.is(list.total, 10, 'exactly ten bookings stored');
  });

  test(`${engine.name}: a booking larger than what is left is refused whole, a smaller one still fits`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl(), { capacity: 3 });
    t.teardown(() => system.close());
    await t.throwsAsync(system.bookings.create(alice, createBody(4, 0)), {
      message: /has 3 seat\(s\) left; 4 requested/,
    });
    t.is(await remainingSeats(system), 3);
    await system.bookings.create(alice, createBody(2, 1));
    t.is(await remainingSeats(system), 0);
  });

  test(`${engine.name}: unlimited slots never run out`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl(), { capacity: null });
    t.teardown(() => system.close());
    await Promise.all(Array.from({ length: 20 }, () => system.bookings.create(alice, createBody(2, 0))));
    t.is(await remainingSeats(system), null);
    t.is((await system.bookings.list(alice, {}, 'http://x')).total, 20);
  });
}
