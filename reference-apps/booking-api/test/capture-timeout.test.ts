import test from 'ava';
import { openBookingSystem } from '../src/booking-system';
import { useEngines } from './helpers/engines';
import { createBody, HOUR, openFixture, remainingSeats } from './helpers/fixture';

const engines = useEngines('capture_timeout');

async function storedStatus(system: import('../src/booking-system').BookingSystem, bookingId: string) {
  return (await system.repositories.bookings.findById(Number(bookingId)))?.status;
}

for (const engine of engines) {
  test(`${engine.name}: one hour after creation an uncaptured booking reads CAPTURE_TIMEOUT at once and its seats return`, async (t) => {
    const { system, alice, clock } = await openFixture(await engine.freshUrl(), { capacity: 5 });
    t.teardown(() => system.close());
    const booking = await system.bookings.create(alice, createBody(3, 0));
    t.is(await remainingSeats(system), 2);

    clock.advance(HOUR - 1000);
    t.is((await system.bookings.get(alice, booking.bookingId)).status, 'UNCAPTURED');
    clock.advance(1000);
    t.is(
      (await system.bookings.get(alice, booking.bookingId)).status,
      'CAPTURE_TIMEOUT',
      'seen on the very first read',
    );
    t.is(await storedStatus(system, booking.bookingId), 'CAPTURE_TIMEOUT', 'and written');
    t.is(await remainingSeats(system), 5, 'seats back in the slot');
    // Seats are given back once only, however often it is read or swept.
    await system.bookings.get(alice, booking.bookingId);
    await system.sweeper.runOnce();
    t.is(await remainingSeats(system), 5);
  });

  test(`${engine.name}: lists and creates see timed-out bookings as such without waiting for the sweep`, async (t) => {
    const { system, alice, clock } = await openFixture(await engine.freshUrl(), { capacity: 4 });
    t.teardown(() => system.close());
    const old = await system.bookings.create(alice, createBody(4, 0));
    clock.advance(HOUR);
    // The slot looked full, but the old booking's seats come back before seats are counted.
    const fresh = await system.bookings.create(alice, createBody(4, 0));
    const list = await system.bookings.list(alice, {}, 'http://x');
    t.deepEqual(
      list.items.map((item) => [item.bookingId, item.status]),
      [
        [old.bookingId, 'CAPTURE_TIMEOUT'],
        [fresh.bookingId, 'UNCAPTURED'],
      ],
    );
    t.is(await remainingSeats(system), 0);
  });

  test(`${engine.name}: the background sweep writes CAPTURE_TIMEOUT, also for bookings left by a previous run`, async (t) => {
    const url = await engine.freshUrl();
    const before = await openFixture(url, { capacity: 10 });
    const stale = await before.system.bookings.create(before.alice, createBody(2, 0));
    const captured = await before.system.bookings.create(before.alice, createBody(1, 0));
    await before.system.bookings.capture(before.alice, captured.bookingId, {
      status: 'PENDING',
      partnerReferenceId: 'KEEP',
    });
    await before.system.close();

    // Restart two hours later with background work on: the sweep runs at start, no read needed.
    before.clock.advance(2 * HOUR);
    const after = await openBookingSystem({
      databaseUrl: url,
      publicBaseUrl: 'https://x',
      clock: before.clock,
      seedDemoCatalogue: false,
      background: { sweepIntervalMs: 50, fulfilmentIntervalMs: 50 },
    });
    t.teardown(() => after.close());
    await waitFor(async () => (await storedStatus(after, stale.bookingId)) === 'CAPTURE_TIMEOUT');
    t.is(await remainingSeats(after), 9, 'the stale booking gave its 2 seats back; the captured one keeps its seat');
    t.not(await storedStatus(after, captured.bookingId), 'CAPTURE_TIMEOUT', 'captured bookings never time out');
  });

  test(`${engine.name}: two sweeps at once time a booking out once and return its seats once`, async (t) => {
    const url = await engine.freshUrl();
    const first = await openFixture(url, { capacity: 50 });
    const second = engine.name === 'PostgreSQL' ? await openFixture(url, { seed: false, clock: first.clock }) : first;
    t.teardown(async () => {
      await first.system.close();
      await second.system.close();
    });
    const created = await Promise.all(
      Array.from({ length: 30 }, () => first.system.bookings.create(first.alice, createBody(1, 0))),
    );
    t.is(await remainingSeats(first.system), 20);
    first.clock.advance(HOUR);
    const [a, b] = await Promise.all([first.system.sweeper.runOnce(), second.system.sweeper.runOnce()]);
    t.is(a.length + b.length, 30, 'each booking timed out by exactly one sweep');
    t.is(new Set([...a, ...b]).size, 30);
    t.deepEqual(
      [...a, ...b].sort((x, y) => x - y),
      created.map((booking) => Number(booking.bookingId)).sort((x, y) => x - y),
    );
    t.is(await remainingSeats(first.system), 50);
  });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
