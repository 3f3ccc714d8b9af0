import { ManualClock } from 'app-support';
import { openBookingSystem, type BookingSystem, type BookingSystemOptions } from '../../src/booking-system';
import type { Partner } from '../../src/domain/partner';

/** 2030-01-01T00:00:00Z: far enough ahead that fixed slot dates stay in the future. */
export const START = Date.UTC(2030, 0, 1);
export const HOUR = 60 * 60 * 1000;
export const PUBLIC_BASE = 'https://booking.example.test';

export const VARIANT_ID = 'v-walk';
export const SLOT_ID = 'slot-walk-0201-1000';

export interface Fixture {
  system: BookingSystem;
  clock: ManualClock;
  alice: Partner;
  bob: Partner;
  aliceKey: string;
}

/** A system on `url` with a small catalogue: one product, one variant, slots with ADULT 25.00 / CHILD 12.50 EUR. */
export async function openFixture(
  url: string,
  options: {
    clock?: ManualClock;
    capacity?: number | null;
    seed?: boolean;
    background?: BookingSystemOptions['background'];
  } = {},
): Promise<Fixture> {
  const clock = options.clock ?? new ManualClock(START);
  const system = await openBookingSystem({
    databaseUrl: url,
    publicBaseUrl: PUBLIC_BASE,
    clock,
    seedDemoCatalogue: false,
    background: options.background ?? false,
  });
  if (options.seed !== false) await seedWalkingTour(system, options.capacity === undefined ? 30 : options.capacity);
  const aliceIssued = await system.partnerKeys.issueKey('Alice Travel');
  const bobIssued = await system.partnerKeys.issueKey('Bob Tours');
  return { system, clock, alice: aliceIssued.partner, bob: bobIssued.partner, aliceKey: aliceIssued.key };
}

/** One product (Lisbon walking tour), two variants, slots with ADULT 25.00 / CHILD 12.50 EUR; `capacity` seats on SLOT_ID. */
export async function seedWalkingTour(system: BookingSystem, capacity: number | null = 30): Promise<void> {
  await system.repositories.catalogue.insertProduct({
    id: 'p-walk',
    name: 'Old Town Walking Tour',
    city: 'Lisbon',
    description: 'Two hours through Alfama.',
    timezone: 'Europe/Lisbon',
    variants: [
      {
        id: VARIANT_ID,
        name: 'Morning tour',
        currencyCode: 'EUR',
        durationMinutes: 120,
        inputFields: [
          {
            id: 'name',
            name: 'Full Name',
            applies_to: 'PRIMARY_CUSTOMER',
            data_type: 'TEXT',
            required: 1,
            position: 0,
          },
          { id: 'email', name: 'Email', applies_to: 'PRIMARY_CUSTOMER', data_type: 'EMAIL', required: 1, position: 1 },
          { id: 'age', name: 'Age', applies_to: 'EVERY_CUSTOMER', data_type: 'INTEGER', required: 0, position: 2 },
          { id: 'language', name: 'Tour Language', applies_to: 'VARIANT', data_type: 'TEXT', required: 1, position: 3 },
        ],
      },
      { id: 'v-other', name: 'Evening tour', currencyCode: 'EUR', durationMinutes: 120, inputFields: [] },
    ],
  });
  const prices = [
    { person_type: 'ADULT', name: 'Adult', age_from: 18, age_to: null, amount_minor: 2500, position: 0 },
    { person_type: 'CHILD', name: 'Child', age_from: 4, age_to: 17, amount_minor: 1250, position: 1 },
  ];
  await system.repositories.catalogue.insertSlot({
    id: SLOT_ID,
    variantId: VARIANT_ID,
    startDateTime: '2030-02-01T10:00:00',
    endDateTime: '2030-02-01T12:00:00',
    capacity,
    currencyCode: 'EUR',
    prices,
  });
  await system.repositories.catalogue.insertSlot({
    id: 'slot-walk-past',
    variantId: VARIANT_ID,
    startDateTime: '2029-12-31T10:00:00',
    endDateTime: null,
    capacity: 30,
    currencyCode: 'EUR',
    prices,
  });
  await system.repositories.catalogue.insertSlot({
    id: 'slot-other',
    variantId: 'v-other',
    startDateTime: '2030-02-01T18:00:00',
    endDateTime: null,
    capacity: null,
    currencyCode: 'EUR',
    prices,
  });
}

/** A valid create body: `adults` ADULT and `children` CHILD customers, priced right. */
export function createBody(adults = 2, children = 0, overrides: Record<string, unknown> = {}) {
  const customers = [
    ...Array.from({ length: adults }, (_, index) => ({
      personType: 'ADULT',
      isPrimary: index === 0,
      inputFields:
        index === 0
          ? [
              { id: 'name', value: 'Maria Silva' },
              { id: 'email', value: 'maria@example.com' },
            ]
          : [],
    })),
    ...Array.from({ length: children }, () => ({
      personType: 'CHILD',
      isPrimary: false,
      inputFields: [{ id: 'age', value: '9' }],
    })),
  ];
  return {
    variantId: VARIANT_ID,
    inventoryId: SLOT_ID,
    customersDetails: { count: customers.length, customers },
    variantInputFields: [{ id: 'language', value: 'English' }],
    price: { amount: adults * 25 + children * 12.5, currencyCode: 'EUR' },
    ...overrides,
  };
}

export async function remainingSeats(system: BookingSystem, slotId = SLOT_ID): Promise<number | null> {
  const slot = await system.repositories.catalogue.findSlot(slotId);
  return slot ? slot.remaining : null;
}
