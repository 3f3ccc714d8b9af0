import test from 'ava';
import { BookingError } from '../src/domain/booking-error';
import { useEngines } from './helpers/engines';
import { createBody, openFixture } from './helpers/fixture';

const engines = useEngines('listing');
const BASE = 'https://partner-api.example.test';

for (const engine of engines) {
  test(`${engine.name}: the list pages with offset and limit and absolute links carrying /api/public/v1`, async (t) => {
    const { system, alice, bob } = await openFixture(await engine.freshUrl(), { capacity: null });
    t.teardown(() => system.close());
    const ids: string[] = [];
    for (let index = 0; index < 45; index++)
      ids.push((await system.bookings.create(alice, createBody(1, 0))).bookingId);
    await system.bookings.create(bob, createBody(1, 0));

    const first = await system.bookings.list(alice, {}, BASE);
    t.is(first.items.length, 20, 'limit defaults to 20');
    t.deepEqual(
      first.items.map((item) => item.bookingId),
      ids.slice(0, 20),
      'oldest first',
    );
    t.is(first.total, 45, "only the partner's own bookings");
    t.is(first.nextOffset, 20);
    t.is(first.nextUrl, `${BASE}/api/public/v1/booking?offset=20&limit=20`);
    t.is(first.prevUrl, null);

    const middle = await system.bookings.list(alice, { offset: '20', limit: '20' }, BASE);
    t.deepEqual(
      middle.items.map((item) => item.bookingId),
      ids.slice(20, 40),
    );
    t.is(middle.prevUrl, `${BASE}/api/public/v1/booking?offset=0&limit=20`);
    t.is(middle.nextUrl, `${BASE}/api/public/v1/booking?offset=40&limit=20`);

    const last = await system.bookings.list(alice, { offset: '40', limit: '20' }, BASE);
    t.is(last.items.length, 5);
    t.is(last.nextUrl, null);
    t.is(last.nextOffset, null);

    const capped = await system.bookings.list(alice, { limit: '500' }, BASE);
    t.is(capped.items.length, 45, 'a limit above 100 is capped to 100');
    t.is(capped.nextUrl, null);

    const beyond = await system.bookings.list(alice, { offset: '1000' }, BASE);
    t.deepEqual(beyond.items, []);
    t.is(beyond.total, 45);

    const bobs = await system.bookings.list(bob, {}, BASE);
    t.is(bobs.total, 1);
    t.false(bobs.items.some((item) => ids.includes(item.bookingId)));
  });

  test(`${engine.name}: bad paging parameters are refused naming the parameter`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    for (const [query, message] of [
      [{ offset: '-1' }, /Invalid offset: expected a non-negative integer, got "-1"/],
      [{ offset: 'abc' }, /Invalid offset/],
      [{ limit: '0' }, /Invalid limit: expected at least 1, got 0/],
      [{ limit: '2.5' }, /Invalid limit/],
    ] as const) {
      const error = await t.throwsAsync(system.bookings.list(alice, query, BASE), { instanceOf: BookingError });
      t.is(error!.code, 'E_INVALID_ARGUMENT');
      t.regex(error!.message, message);
    }
  });
}
