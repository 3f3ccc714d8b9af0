import test from 'ava';
import { API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody, HOUR, VARIANT_ID } from './helpers/fixture';
import { eventually, startHttpFixture } from './helpers/http-fixture';

const engines = useEngines('http_restart');

for (const engine of engines) {
  test(`${engine.name}: create, capture, stop the server and database, start again: everything reads back`, async (t) => {
    const url = await engine.freshUrl();
    const before = await startHttpFixture(url, { background: { fulfilmentIntervalMs: 50 } });
    const kept = (await before.alice.post(`${API}/booking`, createBody(2, 1))).body;
    const captured = (await before.alice.post(`${API}/booking`, createBody(1, 0))).body;
    await before.alice.put(`${API}/booking/${captured.bookingId}`, { status: 'PENDING', partnerReferenceId: 'REF-1' });
    const completed = await eventually(
      () => before.alice.get(`${API}/booking/${captured.bookingId}`),
      (answer) => answer.body.status === 'COMPLETED',
    );
    t.is(completed.body.status, 'COMPLETED');
    const listBefore = (await before.alice.get(`${API}/booking`)).body;
    await before.server.close();
    t.is(
      (await fetch(`${before.server.url}${API}/booking`, { headers: before.alice.headers }).catch(
        (error: Error) => error,
      )) instanceof Error,
      true,
      'the old server is gone',
    );

    // A new process would do exactly this: open the same database, migrate (nothing to do), serve.
    const after = await startHttpFixture(url, { seed: false, keys: before, clock: before.clock });
    t.teardown(() => after.server.close());
    t.deepEqual((await after.alice.get(`${API}/booking/${kept.bookingId}`)).body, kept);
    const reread = (await after.alice.get(`${API}/booking/${captured.bookingId}`)).body;
    t.deepEqual(
      { ...reread, tickets: reread.tickets.map((ticket: { publicId: string }) => ticket.publicId) },
      { ...completed.body, tickets: completed.body.tickets.map((ticket: { publicId: string }) => ticket.publicId) },
    );
    const listAfter = (await after.alice.get(`${API}/booking`)).body;
    t.deepEqual(
      listAfter.items.map((booking: { bookingId: string; status: string }) => [booking.bookingId, booking.status]),
      listBefore.items.map((booking: { bookingId: string; status: string }) => [booking.bookingId, booking.status]),
    );
    t.is(
      (await after.alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`)).body
        .items[0].remaining,
      26,
    );
    // The keys survive too; the old capture is still idempotent; a new booking gets the next id.
    t.is((await after.bob.get(`${API}/booking`)).status, 200);
    t.is(
      (
        await after.alice.put(`${API}/booking/${captured.bookingId}`, {
          status: 'PENDING',
          partnerReferenceId: 'REF-1',
        })
      ).status,
      200,
    );
    t.is(
      (await after.alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId,
      String(Number(captured.bookingId) + 1),
    );
  });

  test(`${engine.name}: work left by a stopped server is done after the restart (fulfilment, capture timeout)`, async (t) => {
    const url = await engine.freshUrl();
    // Background work off: the first server stops with a captured, unfulfilled booking and an uncaptured one.
    const before = await startHttpFixture(url, { background: false });
    const captured = (await before.alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
    const forgotten = (await before.alice.post(`${API}/booking`, createBody(3, 0))).body.bookingId;
    t.is(
      (await before.alice.put(`${API}/booking/${captured}`, { status: 'PENDING', partnerReferenceId: 'REF-2' })).body
        .status,
      'PENDING',
    );
    await before.server.close();

    before.clock.advance(2 * HOUR);
    const after = await startHttpFixture(url, {
      seed: false,
      keys: before,
      clock: before.clock,
      background: { fulfilmentIntervalMs: 50, sweepIntervalMs: 50 },
    });
    t.teardown(() => after.server.close());
    const fulfilled = await eventually(
      () => after.alice.get(`${API}/booking/${captured}`),
      (answer) => answer.body.status === 'COMPLETED',
    );
    t.is(fulfilled.body.status, 'COMPLETED', 'nothing captured is left unfulfilled');
    t.is(fulfilled.body.tickets.length, 1);
    // The sweep at start times out the booking nobody captured and gives its seats back, before anyone reads it.
    const seats = await eventually(
      async () =>
        (await after.alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`)).body
          .items[0].remaining,
      (remaining) => remaining === 29,
    );
    t.is(seats, 29);
    t.is((await after.alice.get(`${API}/booking/${forgotten}`)).body.status, 'CAPTURE_TIMEOUT');
  });
}
