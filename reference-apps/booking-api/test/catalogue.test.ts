import test from 'ava';
import { ManualClock } from 'app-support';
import { openBookingSystem } from '../src/booking-system';
import { BookingError } from '../src/domain/booking-error';
import { DEMO_DAYS } from '../src/storage/demo-catalogue';
import { useEngines } from './helpers/engines';
import { createBody, openFixture, SLOT_ID, VARIANT_ID } from './helpers/fixture';

const engines = useEngines('catalogue');
const BASE = 'https://partner-api.example.test';

for (const engine of engines) {
  test(`${engine.name}: the demo catalogue is seeded at first start only, with slots ahead of today`, async (t) => {
    const url = await engine.freshUrl();
    const clock = new ManualClock(Date.UTC(2031, 5, 15, 12));
    const open = () => openBookingSystem({ databaseUrl: url, publicBaseUrl: BASE, clock, background: false });
    const first = await open();
    const products = await first.catalogue.listProducts();
    t.deepEqual(
      products.map((product) => product.id),
      ['1001', '1002', '1003'],
    );
    t.deepEqual(
      products[0].variants.map((variant) => variant.id),
      ['2001', '2002'],
    );
    t.is(products[1].variants[0].name, '', 'a default variant has an empty name');
    t.deepEqual(
      products[2].variants[0].inputFields.map((field) => `${field.appliesTo}:${field.id}${field.required ? '*' : ''}`),
      ['PRIMARY_CUSTOMER:name*', 'PRIMARY_CUSTOMER:email*', 'PRIMARY_CUSTOMER:phone*', 'VARIANT:hotel*'],
    );
    const page = await first.catalogue.listInventory({ variantId: '2001', limit: '5' }, BASE);
    t.is(page.items[0].startDateTime, '2031-06-16T10:00:00', 'tomorrow, local time in London');
    t.deepEqual(
      page.items[0].pricing.persons.map((person) => [person.type, person.price]),
      [
        ['ADULT', 32.5],
        ['CHILD', 28],
      ],
    );
    t.is(page.items[0].availability, 'LIMITED');
    t.is(page.items[0].remaining, 40);
    t.is(page.total, 30 * 4 - 4, 'the default window is 30 days from now (day 1 to 29 fully, 4 slots a day)');
    t.is(
      page.nextUrl,
      `${BASE}/api/public/v1/inventory?variantId=2001&startDateTime=2031-06-15T13%3A00%3A00&endDateTime=2031-07-15T00%3A00%3A00&offset=5&limit=5`,
    );
    await first.close();

    const second = await open();
    t.teardown(() => second.close());
    const slots = await second.database.db
      .selectFrom('inventory_slot')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    t.is(Number(slots.n), DEMO_DAYS * (4 + 2 + 3 + 2), 'seeded once');
  });

  test(`${engine.name}: the demo catalogue is bookable as the docs show (JPY has no minor unit)`, async (t) => {
    const system = await openBookingSystem({
      databaseUrl: await engine.freshUrl(),
      publicBaseUrl: BASE,
      clock: new ManualClock(Date.UTC(2031, 0, 1)),
      background: false,
    });
    t.teardown(() => system.close());
    const { partner } = await system.partnerKeys.issueKey('Demo');
    const [slot] = (await system.catalogue.listInventory({ variantId: '2004', limit: '1' }, BASE)).items;
    const booking = await system.bookings.create(partner, {
      variantId: '2004',
      inventoryId: slot.id,
      customersDetails: {
        count: 2,
        customers: [
          {
            personType: 'ADULT',
            isPrimary: true,
            inputFields: [
              { id: 'name', value: 'Ken Sato' },
              { id: 'email', value: 'ken@example.jp' },
              { id: 'phone', value: '+81 3 1234 5678' },
            ],
          },
          { personType: 'CHILD', isPrimary: false, inputFields: [] },
        ],
      },
      variantInputFields: [{ id: 'hotel', value: 'Hotel Gracery' }],
      price: { amount: 3050, currencyCode: 'JPY' },
    });
    t.deepEqual(booking.price, { amount: 3050, currencyCode: 'JPY' });
    t.is(booking.product.name, 'Tokyo Skytree: Tembo Deck');
  });

  test(`${engine.name}: inventory shows seats as they are taken, and errors name the parameter`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl(), { capacity: 3 });
    t.teardown(() => system.close());
    const range = { variantId: VARIANT_ID, startDateTime: '2030-01-01T00:00:00', endDateTime: '2030-03-01T00:00:00' };
    const before = await system.catalogue.listInventory(range, BASE);
    t.deepEqual(
      before.items.map((slot) => [slot.id, slot.remaining, slot.availability]),
      [[SLOT_ID, 3, 'LIMITED']],
    );
    await system.bookings.create(alice, createBody(3, 0));
    const after = await system.catalogue.listInventory(range, BASE);
    t.deepEqual(
      after.items.map((slot) => [slot.remaining, slot.availability]),
      [[0, 'CLOSED']],
    );

    const unlimited = await system.catalogue.listInventory({ ...range, variantId: 'v-other' }, BASE);
    t.deepEqual(
      unlimited.items.map((slot) => [slot.remaining, slot.availability]),
      [[null, 'UNLIMITED']],
    );

    await t.throwsAsync(system.catalogue.listInventory({}, BASE), {
      instanceOf: BookingError,
      message: 'Missing required parameter: variantId',
    });
    await t.throwsAsync(system.catalogue.listInventory({ variantId: 'nope' }, BASE), {
      message: 'Variant nope not found',
    });
    await t.throwsAsync(
      system.catalogue.listInventory({ variantId: VARIANT_ID, startDateTime: '2030-02-30T00:00:00' }, BASE),
      {
        message: /Invalid startDateTime: expected YYYY-MM-DDTHH:MM:SS, got "2030-02-30T00:00:00"/,
      },
    );
    await t.throwsAsync(system.catalogue.getProduct('404'), { message: 'Product 404 not found' });
    t.is((await system.catalogue.getProduct('p-walk')).variants.length, 2);
  });
}
