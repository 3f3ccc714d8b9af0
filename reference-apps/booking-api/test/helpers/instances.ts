import { openBookingSystem } from '../../src/booking-system';
import { ApiClient, API } from './api-client';
import { seedWalkingTour, SLOT_ID } from './fixture';
import { startMain, type RunningMain } from './main-process';

export interface PreparedDatabase {
  url: string;
  aliceKey: string;
  bobKey: string;
}

/**
 * Readies a database for app processes the test starts (`main.js`): schema, the walking-tour catalogue with
 * `capacity` seats on SLOT_ID (so the processes seed nothing of their own), and two partners' keys.
 */
export async function prepareDatabase(url: string, capacity: number | null): Promise<PreparedDatabase> {
  const system = await openBookingSystem({
    databaseUrl: url,
    publicBaseUrl: 'http://localhost',
    seedDemoCatalogue: false,
    background: false,
  });
  try {
    await seedWalkingTour(system, capacity);
    const aliceKey = (await system.partnerKeys.issueKey('Alice Travel')).key;
    const bobKey = (await system.partnerKeys.issueKey('Bob Tours')).key;
    return { url, aliceKey, bobKey };
  } finally {
    await system.close();
  }
}

/** One app process (`node dist/src/main.js`) on a free port of 127.0.0.1, with fast background rounds. */
export function startInstance(databaseUrl: string, extraArgs: string[] = []): Promise<RunningMain> {
  return startMain([
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--database',
    databaseUrl,
    '--fulfilment-interval-ms',
    '25',
    '--sweep-interval-ms',
    '25',
    ...extraArgs,
  ]);
}

export function clientOf(instance: RunningMain, key: string): ApiClient {
  return new ApiClient(instance.url, { Authorization: `Bearer ${key}` });
}

export interface BookingSummary {
  bookingId: string;
  status: string;
  partnerReferenceId: string | null;
  seats: number;
  tickets: Array<{ publicId: string; url: string }>;
  voucherUrl: string | null;
}

/** Every booking of the client's partner, through the paged list (what the partner can see). */
export async function listAll(client: ApiClient): Promise<BookingSummary[]> {
  const all: BookingSummary[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.get(`${API}/booking?offset=${offset}&limit=100`);
    if (page.status !== 200) throw new Error(`list failed: ${page.status} ${page.text}`);
    for (const item of page.body.items) {
      all.push({
        bookingId: item.bookingId,
        status: item.status,
        partnerReferenceId: item.partnerReferenceId,
        seats: item.customersDetails.count,
        tickets: item.tickets,
        voucherUrl: item.voucherUrl,
      });
    }
    if (page.body.nextOffset === null) return all;
  }
}

/** Seats left on the test slot, read through the API. */
export async function remainingOnSlot(client: ApiClient): Promise<number> {
  const answer = await client.get(`${API}/inventory?variantId=v-walk&startDateTime=2030-02-01T00:00:00`);
  const slot = answer.body.items.find((item: { id: string }) => item.id === SLOT_ID);
  return slot.remaining;
}

/** Seats held by bookings that keep them (all but CAPTURE_TIMEOUT). */
export function seatsHeld(bookings: BookingSummary[]): number {
  return bookings
    .filter((booking) => booking.status !== 'CAPTURE_TIMEOUT')
    .reduce((sum, booking) => sum + booking.seats, 0);
}
