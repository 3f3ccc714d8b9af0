import test from 'ava';
import { BookingError } from '../src/domain/booking-error';
import { useEngines } from './helpers/engines';
import { createBody, HOUR, openFixture } from './helpers/fixture';

const engines = useEngines('capture');

for (const engine of engines) {
  test(`${engine.name}: capture moves UNCAPTURED to PENDING with the partner's reference, and repeating it is idempotent`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const created = await system.bookings.create(alice, createBody(2, 0));
    const captured = await system.bookings.capture(alice, created.bookingId, {
      status: 'PENDING',
      partnerReferenceId: 'AX67873DDFSR',
    });
    t.is(captured.status, 'PENDING');
    t.is(captured.partnerReferenceId, 'AX67873DDFSR');
    t.deepEqual({ ...captured, status: 'UNCAPTURED', partnerReferenceId: null }, created, 'nothing else changed');

    const again = await system.bookings.capture(alice, created.bookingId, {
      status: 'PENDING',
      partnerReferenceId: 'AX67873DDFSR',
    });
    t.deepEqual(again, captured);
    // Still idempotent after fulfilment completed it.
    await system.fulfilment.runOnce();
    const completed = await system.bookings.capture(alice, created.bookingId, {
      status: 'PENDING',
      partnerReferenceId: 'AX67873DDFSR',
    });
    t.is(completed.status, 'COMPLETED');
  });

  test(`${engine.name}: the capture answers PENDING even when fulfilment completes the booking as soon as it committed`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const created = await system.bookings.create(alice, createBody(1, 0));
    // Another instance's fulfilment round taking the booking in the moment after the capture's commit.
    const repository = system.repositories.bookings;
    const capture = repository.capture.bind(repository);
    repository.capture = async (...args) => {
      const captured = await capture(...args);
      await system.fulfilment.runOnce();
      return captured;
    };
    const captured = await system.bookings.capture(alice, created.bookingId, {
      status: 'PENDING',
      partnerReferenceId: 'RACE-1',
    });
    t.is(captured.status, 'PENDING');
    t.is(captured.partnerReferenceId, 'RACE-1');
    t.deepEqual(captured.tickets, [], 'no tickets before fulfilment');
    t.is((await system.bookings.get(alice, created.bookingId)).status, 'COMPLETED', 'fulfilment did complete it');
  });

  test(`${engine.name}: other transitions and bad modify bodies are refused with a clear error`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const { bookingId } = await system.bookings.create(alice, createBody(1, 0));
    const refuse = async (body: unknown, code: string, status: number, message: RegExp) => {
      const error = await t.throwsAsync(system.bookings.capture(alice, bookingId, body), { instanceOf: BookingError });
      t.is(error!.code as string, code, error!.message);
      t.is(error!.httpStatus, status);
      t.regex(error!.message, message);
    };
    await refuse(
      { status: 'COMPLETED', partnerReferenceId: 'R1' },
      'E_INVALID_STATE_TRANSITION',
      409,
      /cannot be moved to COMPLETED by a partner; only status PENDING/,
    );
    await refuse({ status: 'UNCAPTURED', partnerReferenceId: 'R1' }, 'E_INVALID_STATE_TRANSITION', 409, /UNCAPTURED/);
    await refuse(
      { status: 'SHIPPED', partnerReferenceId: 'R1' },
      'E_INVALID_ARGUMENT',
      400,
      /Invalid status: Invalid status code: SHIPPED/,
    );
    await refuse({ status: 'PENDING' }, 'E_MISSING_PARAMETER', 400, /Missing required parameter: partnerReferenceId/);
    await refuse({ partnerReferenceId: 'R1' }, 'E_MISSING_PARAMETER', 400, /Missing required parameter: status/);
    await refuse(null, 'E_MISSING_PARAMETER', 400, /body/);
    t.is((await system.bookings.get(alice, bookingId)).status, 'UNCAPTURED', 'nothing changed');

    await system.bookings.capture(alice, bookingId, { status: 'PENDING', partnerReferenceId: 'R1' });
    await refuse(
      { status: 'PENDING', partnerReferenceId: 'R2' },
      'E_INVALID_STATE_TRANSITION',
      409,
      /already captured \(status PENDING\) with partnerReferenceId "R1"; it cannot be captured again with "R2"/,
    );
  });

  test(`${engine.name}: a booking not captured within one hour cannot be captured`, async (t) => {
    const { system, alice, clock } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const early = await system.bookings.create(alice, createBody(1, 0));
    const late = await system.bookings.create(alice, createBody(1, 0));
    clock.advance(HOUR - 1);
    t.is(
      (await system.bookings.capture(alice, early.bookingId, { status: 'PENDING', partnerReferenceId: 'IN-TIME' }))
        .status,
      'PENDING',
    );
    clock.advance(1);
    const error = await t.throwsAsync(
      system.bookings.capture(alice, late.bookingId, { status: 'PENDING', partnerReferenceId: 'TOO-LATE' }),
      { instanceOf: BookingError },
    );
    t.is(error!.code, 'E_CAPTURE_TIMEOUT');
    t.is(error!.httpStatus, 409);
    t.regex(
      error!.message,
      new RegExp(
        `Booking ${late.bookingId} was not captured within one hour .* CAPTURE_TIMEOUT; it can no longer be captured`,
      ),
    );
    const read = await system.bookings.get(alice, late.bookingId);
    t.is(read.status, 'CAPTURE_TIMEOUT');
    t.is(read.partnerReferenceId, null);
  });

  test(`${engine.name}: a partner cannot read or capture another partner's booking (404)`, async (t) => {
    const { system, alice, bob } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const { bookingId } = await system.bookings.create(alice, createBody(1, 0));
    for (const attempt of [
      system.bookings.get(bob, bookingId),
      system.bookings.capture(bob, bookingId, { status: 'PENDING', partnerReferenceId: 'X' }),
      system.bookings.get(alice, '999999'),
      system.bookings.get(alice, 'abc'),
    ]) {
      const error = await t.throwsAsync(attempt, { instanceOf: BookingError });
      t.is(error!.code, 'E_NOT_FOUND');
      t.is(error!.httpStatus, 404);
      t.regex(error!.message, /^Booking \S+ not found$/);
    }
    t.is((await system.bookings.list(bob, {}, 'http://x')).total, 0);
    t.is((await system.bookings.get(alice, bookingId)).status, 'UNCAPTURED');
  });
}
