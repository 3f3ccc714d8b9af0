/**
 * What a run needs before wrk starts: a database (a fresh SQLite file, a throwaway PostgreSQL cluster, or a URL),
 * a partner key made by the app's keys CLI, a bookable slot of the demo catalogue (the Louvre's, unlimited seats, so
 * no create is refused for seats), the create body priced from that slot, and bookings to read in every state.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startThrowawayPostgres, type ThrowawayPostgres } from 'app-support';
import { createPartnerKey } from './app-process';

const API = '/api/public/v1';
/** Louvre timed entry (demo catalogue): unlimited seats, ADULT 22.00 EUR, primary contact fields. */
const VARIANT_ID = '2003';
/** Slots at least this far ahead, so none starts during the run. */
const MIN_DAYS_AHEAD = 2;

export interface BenchDatabase {
  url: string;
  engine: 'SQLite' | 'PostgreSQL';
  folder: string;
  key: string;
  close(): Promise<void>;
}

export async function prepareDatabase(option: string | undefined): Promise<BenchDatabase> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-booking-'));
  let cluster: ThrowawayPostgres | undefined;
  let url: string;
  if (option === 'postgres') {
    cluster = await startThrowawayPostgres();
    url = await cluster.createDatabase('bench_booking');
  } else {
    url = option ?? path.join(folder, 'booking.db');
  }
  const key = await createPartnerKey(url, 'Bench Partner');
  return {
    url,
    engine: /^postgres(ql)?:/.test(url) ? 'PostgreSQL' : 'SQLite',
    folder,
    key,
    close: async () => {
      await cluster?.stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function call(method: string, url: string, key: string, body?: unknown): Promise<any> {
  const response = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The create body of one adult on the first Louvre slot at least two days ahead, priced from the slot. */
export async function createBody(baseUrl: string, key: string): Promise<string> {
  const from = new Date(Date.now() + MIN_DAYS_AHEAD * 86_400_000).toISOString().slice(0, 19);
  const inventory = await call(
    'GET',
    `${baseUrl}${API}/inventory?variantId=${VARIANT_ID}&startDateTime=${from}&limit=1`,
    key,
  );
  const slot = inventory.items[0];
  if (!slot) throw new Error(`no slot of variant ${VARIANT_ID} from ${from}`);
  const adult = slot.pricing.persons.find((person: { type: string }) => person.type === 'ADULT');
  return JSON.stringify({
    variantId: VARIANT_ID,
    inventoryId: slot.id,
    customersDetails: {
      count: 1,
      customers: [
        {
          personType: 'ADULT',
          isPrimary: true,
          inputFields: [
            { id: 'name', value: 'Maria Silva' },
            { id: 'email', value: 'maria@example.com' },
            { id: 'phone', value: '+44 20 7946 0958' },
          ],
        },
      ],
    },
    variantInputFields: [],
    price: { amount: adult.price, currencyCode: slot.currencyCode },
  });
}

/**
 * `count` bookings to read: a third left UNCAPTURED, the rest captured and fulfilled (COMPLETED with a ticket), so
 * reads see both shapes. Returns their ids.
 */
export async function seedBookings(baseUrl: string, key: string, body: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const parallel = 8;
  for (let start = 0; start < count; start += parallel) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(parallel, count - start) }, async (_, offset) => {
        const booking = await call('POST', `${baseUrl}${API}/booking`, key, JSON.parse(body));
        if ((start + offset) % 3 !== 0)
          await call('PUT', `${baseUrl}${API}/booking/${booking.bookingId}`, key, {
            status: 'PENDING',
            partnerReferenceId: `SEED-${booking.bookingId}`,
          });
        return booking.bookingId as string;
      }),
    );
    ids.push(...batch);
  }
  // Wait for fulfilment (background, about a second per round) so the captured ones read as COMPLETED.
  const lastCaptured = ids.filter((_, index) => index % 3 !== 0).pop();
  for (let waited = 0; lastCaptured && waited < 30_000; waited += 200) {
    if ((await call('GET', `${baseUrl}${API}/booking/${lastCaptured}`, key)).status === 'COMPLETED') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return ids;
}
