/**
 * booking-api: the partner API as it ships (`node reference-apps/booking-api/dist/src/main.js`) on a fresh
 * SQLite file, with partner keys made by its own CLI (`keys create <partner>`), loaded by wrk threads that
 * each play one partner (lua/soak/booking-api.lua): catalogue reads, creates on the Louvre's unlimited slots
 * (so no create is refused for seats), captures, reads, lists and voucher pages. The background fulfilment
 * and timeout sweep run as in production.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPOSITORY_ROOT } from '../../paths';
import { listeningPort, startAppProcess } from '../process/app-process';
import { runNodeCli, valueAfter } from '../process/cli-command';
import type { SoakTarget } from '../soak-target';

const APP_DIR = path.join(REPOSITORY_ROOT, 'reference-apps', 'booking-api');
const MAIN = path.join(APP_DIR, 'dist', 'src', 'main.js');
const KEYS_CLI = path.join(APP_DIR, 'dist', 'src', 'cli', 'keys-cli.js');
const API = '/api/public/v1';
/** Louvre timed entry (demo catalogue): unlimited seats, ADULT 22.00 EUR, YOUTH free. */
const VARIANT_ID = '2003';
const PRODUCT_IDS = ['1001', '1002', '1003'];
const INVENTORY_VARIANTS = ['2001', '2002', '2003', '2004'];
const PARTNERS = ['Acme Travel', 'Globetrotter', 'City Breaks', 'Museum Pass Co'];
/** Slots at least this far ahead, so none starts during the run. */
const MIN_DAYS_AHEAD = 2;

interface InventorySlot {
  id: string;
  startDateTime: string;
}

export function createBookingBody(slotId: string): string {
  return JSON.stringify({
    variantId: VARIANT_ID,
    inventoryId: slotId,
    customersDetails: {
      count: 2,
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
        { personType: 'YOUTH', isPrimary: false, inputFields: [] },
      ],
    },
    variantInputFields: [],
    price: { amount: 22, currencyCode: 'EUR' },
  });
}

async function getJson(url: string, key: string): Promise<any> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export const bookingApi: SoakTarget = {
  id: 'booking-api',
  label: 'partner mix on SQLite',
  defaultLoad: { threads: 8, connections: 8, pipeline: 1, requestsPerSecLimit: undefined },
  pinServerByDefault: true,
  unavailableReason: () =>
    fs.existsSync(MAIN) && fs.existsSync(KEYS_CLI)
      ? undefined
      : `${MAIN} is not built: npx tsc -b reference-apps/booking-api`,

  async prepare(context) {
    const database = path.join(context.workDir, 'booking.db');
    const keys: string[] = [];
    for (const partner of PARTNERS.slice(0, Math.min(PARTNERS.length, context.load.connections))) {
      const { stdout } = await runNodeCli(KEYS_CLI, ['create', partner, '--database', database]);
      keys.push(valueAfter(stdout, 'API key:'));
    }
    const server = await startAppProcess({
      name: 'booking-api',
      // The rate limit stays on (its memory is part of what a soak watches), far above the load's requests per key;
      // the access log off (a line per request would measure the pipe).
      args: [
        MAIN,
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--database',
        database,
        '--rate-limit',
        '10000000',
        '--log-level',
        'warn',
      ],
      nodeFlags: context.nodeFlags,
      cwd: context.serverCwd,
      cpu: context.serverCpu,
      portFromLine: listeningPort,
      timeoutMs: 60_000,
    });
    try {
      const base = server.baseUrl;
      // Slots of the unlimited variant far enough ahead; the create bodies spread over them.
      const inventory = await getJson(`${base}${API}/inventory?variantId=${VARIANT_ID}&limit=100`, keys[0]);
      const earliest = new Date(Date.now() + MIN_DAYS_AHEAD * 86_400_000).toISOString().slice(0, 10);
      const slots = (inventory.items as InventorySlot[])
        .filter((slot) => slot.startDateTime.slice(0, 10) >= earliest)
        .slice(0, 24);
      if (slots.length === 0)
        throw new Error(
          `no inventory of variant ${VARIANT_ID} from ${earliest} on: ${JSON.stringify(inventory).slice(0, 300)}`,
        );
      const bodiesFile = path.join(context.workDir, 'create-bodies.txt');
      fs.writeFileSync(bodiesFile, `${slots.map((slot) => createBookingBody(slot.id)).join('\n')}\n`);

      // One create through fetch before the load: a wrong body or key fails here with the server's message.
      const created = await fetch(`${base}${API}/booking`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys[0]}`, 'content-type': 'application/json' },
        body: createBookingBody(slots[0].id),
      });
      if (created.status !== 201)
        throw new Error(`the check create answered ${created.status}: ${(await created.text()).slice(0, 400)}`);

      const today = new Date().toISOString().slice(0, 10);
      const inWeeks = (weeks: number) => new Date(Date.now() + weeks * 7 * 86_400_000).toISOString().slice(0, 10);
      const inventoryPaths = INVENTORY_VARIANTS.flatMap((variant) => [
        `${API}/inventory?variantId=${variant}`,
        `${API}/inventory?variantId=${variant}&startDateTime=${inWeeks(1)}T00:00:00&endDateTime=${inWeeks(2)}T00:00:00&limit=50`,
        `${API}/inventory?variantId=${variant}&startDateTime=${today}T00:00:00&offset=20&limit=20`,
      ]);
      return {
        server,
        description:
          `${keys.length} partners (keys from \`keys create\`), one per wrk connection: reads 25%, inventory 12%, lists 14%, ` +
          'creates 12% (+3% on the deprecated route), captures 10%, product 8%, products 7%, voucher pages 6%; ' +
          'ids and voucher links taken from the answers',
        plan: {
          script: 'booking-api.lua',
          url: base,
          // One thread per connection: the script pairs each answer with its request (see lua/soak/soak.lua).
          threads: context.load.connections,
          connections: context.load.connections,
          pipeline: 1,
          requestsPerSecLimit: context.load.requestsPerSecLimit,
          scriptArgs: [
            ...keys.map((key) => `key=${key}`),
            `bodies=${bodiesFile}`,
            ...PRODUCT_IDS.map((id) => `product=${id}`),
            ...inventoryPaths.map((inventoryPath) => `inventory=${inventoryPath}`),
          ],
          stateFile: path.join(context.workDir, 'wrk-state.txt'),
        },
      };
    } catch (error) {
      await server.stop();
      throw error;
    }
  },
};
