import type { Clock } from 'app-support';
import { addDays, localDateTimeAt } from '../domain/local-date-time';
import type { CatalogueRepository, NewProduct } from './catalogue-repository';

const primaryContact = [
  { id: 'name', name: 'Full Name', applies_to: 'PRIMARY_CUSTOMER', data_type: 'TEXT', required: 1, position: 0 },
  { id: 'email', name: 'Email', applies_to: 'PRIMARY_CUSTOMER', data_type: 'EMAIL', required: 1, position: 1 },
  { id: 'phone', name: 'Phone Number', applies_to: 'PRIMARY_CUSTOMER', data_type: 'PHONE', required: 1, position: 2 },
] as const;

interface DemoVariant {
  variant: NewProduct['variants'][number];
  times: string[];
  capacity: number | null;
  prices: { person_type: string; name: string; age_from: number | null; age_to: number | null; amount_minor: number }[];
}

const demo: { product: Omit<NewProduct, 'variants'>; variants: DemoVariant[] }[] = [
  {
    product: {
      id: '1001',
      name: 'London Eye: Standard Entry',
      city: 'London',
      description: 'A 30-minute rotation in a glass capsule above the Thames.',
      timezone: 'Europe/London',
    },
    variants: [
      {
        variant: {
          id: '2001',
          name: 'Standard Entry',
          currencyCode: 'GBP',
          durationMinutes: 30,
          inputFields: [
            ...primaryContact,
            { id: 'age', name: 'Age', applies_to: 'EVERY_CUSTOMER', data_type: 'INTEGER', required: 0, position: 3 },
          ],
        },
        times: ['10:00:00', '12:00:00', '14:00:00', '16:00:00'],
        capacity: 40,
        prices: [
          { person_type: 'ADULT', name: 'Adult', age_from: 16, age_to: null, amount_minor: 3250 },
          { person_type: 'CHILD', name: 'Child', age_from: 3, age_to: 15, amount_minor: 2800 },
        ],
      },
      {
        variant: {
          id: '2002',
          name: 'Fast Track Entry',
          currencyCode: 'GBP',
          durationMinutes: 30,
          inputFields: [...primaryContact],
        },
        times: ['11:00:00', '15:00:00'],
        capacity: 10,
        prices: [
          { person_type: 'ADULT', name: 'Adult', age_from: 16, age_to: null, amount_minor: 4500 },
          { person_type: 'CHILD', name: 'Child', age_from: 3, age_to: 15, amount_minor: 4000 },
        ],
      },
    ],
  },
  {
    product: {
      id: '1002',
      name: 'Louvre Museum: Timed Entry Ticket',
      city: 'Paris',
      description: 'Entry to the permanent collections at the time of your choice.',
      timezone: 'Europe/Paris',
    },
    variants: [
      {
        // The default variant of a product has an empty name, as in the partner API.
        variant: { id: '2003', name: '', currencyCode: 'EUR', durationMinutes: null, inputFields: [...primaryContact] },
        times: ['09:00:00', '13:00:00', '17:30:00'],
        capacity: null,
        prices: [
          { person_type: 'ADULT', name: 'Adult', age_from: 18, age_to: null, amount_minor: 2200 },
          { person_type: 'YOUTH', name: 'Youth (under 18)', age_from: 0, age_to: 17, amount_minor: 0 },
        ],
      },
    ],
  },
  {
    product: {
      id: '1003',
      name: 'Tokyo Skytree: Tembo Deck',
      city: 'Tokyo',
      description: 'The observation deck at 350 metres.',
      timezone: 'Asia/Tokyo',
    },
    variants: [
      {
        variant: {
          id: '2004',
          name: 'Tembo Deck with Hotel Pickup',
          currencyCode: 'JPY',
          durationMinutes: 90,
          inputFields: [
            ...primaryContact,
            { id: 'hotel', name: 'Hotel Name', applies_to: 'VARIANT', data_type: 'TEXT', required: 1, position: 3 },
          ],
        },
        times: ['10:00:00', '18:00:00'],
        capacity: 25,
        prices: [
          { person_type: 'ADULT', name: 'Adult', age_from: 18, age_to: null, amount_minor: 2100 },
          { person_type: 'CHILD', name: 'Child', age_from: 6, age_to: 17, amount_minor: 950 },
        ],
      },
    ],
  },
];

export const DEMO_DAYS = 60;

/**
 * Seeds the demo catalogue when the catalogue is empty (first start): three products, four variants,
 * slots for the next 60 days from today in each product's zone. Ids are fixed and inserts ignore existing rows,
 * so instances starting together cannot seed twice. Returns the number of slots written.
 */
export async function seedDemoCatalogue(catalogue: CatalogueRepository, clock: Clock): Promise<number> {
  if ((await catalogue.countProducts()) > 0) return 0;
  let slots = 0;
  for (const { product, variants } of demo) {
    await catalogue.insertProduct({ ...product, variants: variants.map((entry) => entry.variant) });
    const today = localDateTimeAt(clock.now(), product.timezone).slice(0, 10);
    for (const entry of variants) {
      for (let day = 1; day <= DEMO_DAYS; day++) {
        const date = addDays(today, day);
        for (const time of entry.times) {
          const inserted = await catalogue.insertSlot({
            id: `${entry.variant.id}-${date.replaceAll('-', '')}-${time.slice(0, 5).replace(':', '')}`,
            variantId: entry.variant.id,
            startDateTime: `${date}T${time}`,
            endDateTime: entry.variant.durationMinutes ? endOf(`${date}T${time}`, entry.variant.durationMinutes) : null,
            capacity: entry.capacity,
            currencyCode: entry.variant.currencyCode,
            prices: entry.prices.map((price, position) => ({ ...price, position })),
          });
          if (inserted) slots++;
        }
      }
    }
  }
  return slots;
}

function endOf(localStart: string, minutes: number): string {
  const start = new Date(`${localStart}Z`);
  return new Date(start.getTime() + minutes * 60_000).toISOString().slice(0, 19);
}
