import test from 'ava';
import { openDatabase } from 'app-support';
import type { BookingSchema } from '../src/storage/schema';
import { API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody } from './helpers/fixture';
import { eventually } from './helpers/http-fixture';
import { clientOf, listAll, prepareDatabase, remainingOnSlot, seatsHeld, startInstance } from './helpers/instances';

const engines = useEngines('http_crash');

const CAPACITY = 5000;
const CLIENTS = 8;

/** What a client was told about a booking: created (201), and maybe captured (200) with its reference. */
interface Acknowledged {
  seats: number;
  capturedAs?: string;
}

// Background jobs on: the kill may also cut a fulfilment or a sweep. Off: the killed process leaves every capture to
// fulfil, so the restart's resumption is certain to be exercised.
const variants = [
  { jobs: 'on', label: 'background jobs running' },
  { jobs: 'off', label: 'fulfilment left to the restart' },
] as const;

// One test at a time: each runs an app process under the load of eight clients.
for (const engine of engines)
  for (const variant of variants) {
    test.serial(
      `${engine.name}, ${variant.label}: the app process killed (SIGKILL) amid creates and captures: after a restart every acknowledged booking is as the client was told, seats add up, fulfilment resumes`,
      async (t) => {
        const prepared = await prepareDatabase(await engine.freshUrl(), CAPACITY);
        const first = await startInstance(prepared.url, ['--background-jobs', variant.jobs]);
        t.teardown(() => first.stop('SIGKILL'));
        const alice = clientOf(first, prepared.aliceKey);

        const acknowledged = new Map<string, Acknowledged>();
        const unexpected: string[] = [];
        let capturesAcknowledged = 0;
        let cutOff = 0;
        // Each client creates bookings of 1 to 3 seats and captures three in four of them, until the process is gone.
        const client = async (index: number) => {
          for (let round = 0; ; round++) {
            const seats = 1 + ((index + round) % 3);
            let created;
            try {
              created = await alice.post(`${API}/booking`, createBody(seats, 0));
            } catch {
              cutOff++;
              return;
            }
            if (created.status !== 201) {
              unexpected.push(`create: ${created.status} ${created.text}`);
              return;
            }
            const id: string = created.body.bookingId;
            acknowledged.set(id, { seats });
            if (round % 4 === 3) continue;
            const reference = `CRASH-${id}`;
            let captured;
            try {
              captured = await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: reference });
            } catch {
              cutOff++;
              return;
            }
            if (captured.status !== 200) {
              unexpected.push(`capture: ${captured.status} ${captured.text}`);
              return;
            }
            acknowledged.get(id)!.capturedAs = reference;
            capturesAcknowledged++;
          }
        };
        const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));

        // Kill while every client still has a request on the wire (the clients never stop by themselves).
        await eventually(
          async () => capturesAcknowledged,
          (count) => count >= 150 || unexpected.length > 0,
          30_000,
        );
        t.deepEqual(unexpected, [], 'nothing but 201 and 200 under load');
        t.is(await first.stop('SIGKILL'), null, 'killed, no exit code');
        await Promise.all(clients);
        t.is(cutOff, CLIENTS, 'every client was cut off mid-request');
        // What the killed process left: captured bookings it had not fulfilled yet (the restart must finish them).
        const left = await openDatabase<BookingSchema>(prepared.url);
        const pendingAtKill = (
          await left.db.selectFrom('booking').select('id').where('status', '=', 'PENDING').execute()
        ).length;
        await left.destroy();
        t.log(
          `${acknowledged.size} creates and ${capturesAcknowledged} captures acknowledged before the kill; ${pendingAtKill} captured bookings not fulfilled yet`,
        );
        if (variant.jobs === 'off') t.true(pendingAtKill >= capturesAcknowledged, 'every capture is left to fulfil');

        const second = await startInstance(prepared.url);
        t.teardown(() => second.stop('SIGTERM'));
        const after = clientOf(second, prepared.aliceKey);

        // Every acknowledged booking exists, in the state the client was told (or further along: fulfilled).
        for (const [id, told] of acknowledged) {
          const read = await after.get(`${API}/booking/${id}`);
          t.is(read.status, 200, `booking ${id} was acknowledged`);
          t.is(read.body.customersDetails.count, told.seats);
          if (told.capturedAs !== undefined) {
            t.true(
              ['PENDING', 'COMPLETED'].includes(read.body.status),
              `booking ${id} was captured, now ${read.body.status}`,
            );
            t.is(read.body.partnerReferenceId, told.capturedAs);
          } else if (read.body.status !== 'UNCAPTURED') {
            // Its capture was on the wire at the kill and committed before it: captured with that reference.
            t.true(['PENDING', 'COMPLETED'].includes(read.body.status), `booking ${id}: ${read.body.status}`);
            t.is(read.body.partnerReferenceId, `CRASH-${id}`);
          }
        }

        // Fulfilment resumes: nothing captured stays unfulfilled, each with one ticket per seat.
        const settled = await eventually(
          () => listAll(after),
          (bookings) => bookings.every((booking) => booking.status !== 'PENDING'),
          20_000,
        );
        t.deepEqual(
          settled.filter((booking) => booking.status === 'PENDING').map((booking) => booking.bookingId),
          [],
        );
        for (const booking of settled.filter((candidate) => candidate.status === 'COMPLETED')) {
          t.is(booking.tickets.length, booking.seats, `tickets of booking ${booking.bookingId}`);
          t.truthy(booking.voucherUrl);
        }
        for (const [id, told] of acknowledged) {
          if (told.capturedAs !== undefined)
            t.is(settled.find((booking) => booking.bookingId === id)?.status, 'COMPLETED', `captured booking ${id}`);
        }

        // Only creates that were on the wire at the kill may exist without an acknowledgement.
        const unacknowledged = settled.filter((booking) => !acknowledged.has(booking.bookingId));
        t.true(unacknowledged.length <= CLIENTS, `${unacknowledged.length} bookings nobody was told about`);
        // Seats add up: what is left plus what bookings hold is the capacity.
        t.is((await remainingOnSlot(after)) + seatsHeld(settled), CAPACITY);
      },
    );
  }
