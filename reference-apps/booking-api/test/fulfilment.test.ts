import test from 'ava';
import { openBookingSystem } from '../src/booking-system';
import { useEngines } from './helpers/engines';
import { createBody, openFixture, PUBLIC_BASE } from './helpers/fixture';

const engines = useEngines('fulfilment');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const engine of engines) {
  test(`${engine.name}: fulfilment issues one ticket per customer and a voucher, then COMPLETED`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const { bookingId } = await system.bookings.create(alice, createBody(2, 1));
    t.deepEqual(await system.fulfilment.runOnce(), [], 'nothing to do before capture');
    const uncapturedToken = (await system.repositories.bookings.findById(Number(bookingId)))!.voucher_token;
    await t.throwsAsync(
      system.bookings.getByVoucherToken(uncapturedToken),
      { message: /^Voucher .* not found$/ },
      'no voucher before fulfilment',
    );
    await system.bookings.capture(alice, bookingId, { status: 'PENDING', partnerReferenceId: 'REF-1' });
    t.deepEqual(await system.fulfilment.runOnce(), [Number(bookingId)]);

    const booking = await system.bookings.get(alice, bookingId);
    t.is(booking.status, 'COMPLETED');
    t.is(booking.partnerReferenceId, 'REF-1');
    t.is(booking.tickets.length, 3);
    for (const ticket of booking.tickets) {
      t.regex(ticket.publicId, UUID);
      t.is(ticket.url, `${PUBLIC_BASE}/ticket/${ticket.publicId}`);
    }
    t.is(new Set(booking.tickets.map((ticket) => ticket.publicId)).size, 3);
    t.regex(booking.voucherUrl ?? '', new RegExp(`^${PUBLIC_BASE}/voucher/[0-9a-f-]{36}$`));
    t.deepEqual(await system.fulfilment.runOnce(), [], 'fulfilled once');

    // The links resolve to this booking, without an API key.
    const token = booking.voucherUrl!.split('/').pop()!;
    t.deepEqual(await system.bookings.getByVoucherToken(token), booking);
    const second = booking.tickets[1];
    t.deepEqual(await system.bookings.getByTicket(second.publicId), { ticket: second, booking });
    await t.throwsAsync(system.bookings.getByTicket('00000000-0000-4000-8000-000000000000'), {
      message: /^Ticket .* not found$/,
    });
    await t.throwsAsync(system.bookings.getByVoucherToken('../../etc/passwd'), { message: /^Voucher .* not found$/ });
    t.deepEqual((await system.bookings.get(alice, bookingId)).tickets, booking.tickets);
  });

  test(`${engine.name}: with background work on, a capture is fulfilled by itself`, async (t) => {
    const url = await engine.freshUrl();
    const fixture = await openFixture(url);
    await fixture.system.close();
    const system = await openBookingSystem({
      databaseUrl: url,
      publicBaseUrl: PUBLIC_BASE,
      clock: fixture.clock,
      seedDemoCatalogue: false,
      background: { fulfilmentIntervalMs: 60_000, sweepIntervalMs: 60_000 },
    });
    t.teardown(() => system.close());
    const { bookingId } = await system.bookings.create(fixture.alice, createBody(1, 0));
    const captured = await system.bookings.capture(fixture.alice, bookingId, {
      status: 'PENDING',
      partnerReferenceId: 'R',
    });
    t.is(captured.status, 'PENDING', 'the capture answers PENDING');
    // The interval is a minute: only the capture's own trigger can complete it this fast.
    await waitFor(async () => (await system.bookings.get(fixture.alice, bookingId)).status === 'COMPLETED', 5000);
    t.pass();
  });

  test(`${engine.name}: nothing is lost on restart, and captured work left behind is fulfilled at start`, async (t) => {
    const url = await engine.freshUrl();
    const first = await openFixture(url);
    const uncaptured = await first.system.bookings.create(first.alice, createBody(1, 0));
    const captured = await first.system.bookings.create(first.alice, createBody(2, 0));
    const capturedView = await first.system.bookings.capture(first.alice, captured.bookingId, {
      status: 'PENDING',
      partnerReferenceId: 'R-9',
    });
    await first.system.close(); // "crash" before fulfilment ran

    const restarted = await openBookingSystem({
      databaseUrl: url,
      publicBaseUrl: PUBLIC_BASE,
      clock: first.clock,
      seedDemoCatalogue: false,
      background: { fulfilmentIntervalMs: 50, sweepIntervalMs: 50 },
    });
    t.teardown(() => restarted.close());
    t.deepEqual(
      await restarted.bookings.get(first.alice, uncaptured.bookingId),
      uncaptured,
      'uncaptured booking unchanged',
    );
    await waitFor(async () => (await restarted.bookings.get(first.alice, captured.bookingId)).status === 'COMPLETED');
    const completed = await restarted.bookings.get(first.alice, captured.bookingId);
    t.deepEqual(
      { ...completed, status: 'PENDING', tickets: [], voucherUrl: null },
      capturedView,
      'same booking, now fulfilled',
    );
    t.is(completed.tickets.length, 2);
    // The key issued before the restart still works.
    t.deepEqual(await restarted.partnerKeys.authenticate(first.aliceKey), first.alice);
  });

  test(`${engine.name}: two workers at once fulfil each booking exactly once`, async (t) => {
    const url = await engine.freshUrl();
    const first = await openFixture(url, { capacity: 100 });
    const second = engine.name === 'PostgreSQL' ? await openFixture(url, { seed: false, clock: first.clock }) : first;
    t.teardown(async () => {
      await first.system.close();
      await second.system.close();
    });
    const ids: string[] = [];
    for (let index = 0; index < 45; index++) {
      const { bookingId } = await first.system.bookings.create(first.alice, createBody(1, 0));
      await first.system.bookings.capture(first.alice, bookingId, {
        status: 'PENDING',
        partnerReferenceId: `R${index}`,
      });
      ids.push(bookingId);
    }
    const [a, b] = await Promise.all([first.system.fulfilment.runOnce(), second.system.fulfilment.runOnce()]);
    t.is(a.length + b.length, 45);
    t.is(new Set([...a, ...b]).size, 45);
    const list = await first.system.bookings.list(first.alice, { limit: '100' }, 'http://x');
    t.true(list.items.every((item) => item.status === 'COMPLETED' && item.tickets.length === 1));
  });
}
