import test from 'ava';
import { BookingError } from '../src/domain/booking-error';
import { useEngines } from './helpers/engines';
import { createBody, openFixture, remainingSeats, START, VARIANT_ID } from './helpers/fixture';

const engines = useEngines('create_booking');

/** Asserts a refused create: error code and a message naming the field. */
async function refused(
  t: import('ava').ExecutionContext,
  promise: Promise<unknown>,
  code: string,
  message: RegExp,
  status = 400,
) {
  const error = await t.throwsAsync(promise, { instanceOf: BookingError });
  t.is(error!.code as string, code, error!.message);
  t.is(error!.httpStatus, status);
  t.regex(error!.message, message);
}

for (const engine of engines) {
  test(`${engine.name}: a valid create returns the booking UNCAPTURED with every field of the spec`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const booking = await system.bookings.create(alice, createBody(1, 1));
    t.regex(booking.bookingId, /^\d+$/);
    t.deepEqual(booking, {
      bookingId: booking.bookingId,
      partnerReferenceId: null,
      variantId: VARIANT_ID,
      startDateTime: '2030-02-01T10:00:00',
      product: { id: 'p-walk', name: 'Old Town Walking Tour', variant: { id: VARIANT_ID, name: 'Morning tour' } },
      customersDetails: {
        count: 2,
        customers: [
          {
            personType: 'ADULT',
            isPrimary: true,
            inputFields: [
              { id: 'name', name: 'Full Name', value: 'Maria Silva' },
              { id: 'email', name: 'Email', value: 'maria@example.com' },
            ],
          },
          { personType: 'CHILD', isPrimary: false, inputFields: [{ id: 'age', name: 'Age', value: '9' }] },
        ],
      },
      variantInputFields: [{ id: 'language', name: 'Tour Language', value: 'English' }],
      price: { amount: 37.5, currencyCode: 'EUR' },
      status: 'UNCAPTURED',
      voucherUrl: null,
      tickets: [],
      creationTimestamp: START / 1000,
    });
    t.is(await remainingSeats(system), 28, 'two seats taken');
    t.deepEqual(await system.bookings.get(alice, booking.bookingId), booking, 'reads back the same');
  });

  test(`${engine.name}: the deprecated create answers {itineraryId, price} and books the same way`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const body = createBody(2, 0);
    const legacy = await system.bookings.createLegacy(alice, {
      ...body,
      customersDetails: { ...body.customersDetails, priceType: 'PER_PERSON' },
    });
    t.deepEqual(legacy, { itineraryId: legacy.itineraryId, price: { amount: 50, currencyCode: 'EUR' } });
    t.is((await system.bookings.get(alice, legacy.itineraryId)).status, 'UNCAPTURED');
    await refused(
      t,
      system.bookings.createLegacy(alice, {
        ...body,
        customersDetails: { ...body.customersDetails, priceType: 'PER_GROUP' },
      }),
      'E_INVALID_ARGUMENT',
      /customersDetails\.priceType: "PER_GROUP" is not offered/,
    );
  });

  test(`${engine.name}: shape errors name the field`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const body = createBody(2, 0);
    const { variantId: _v, ...withoutVariant } = body;
    await refused(
      t,
      system.bookings.create(alice, undefined),
      'E_MISSING_PARAMETER',
      /Missing required parameter: body/,
    );
    await refused(t, system.bookings.create(alice, [1, 2]), 'E_INVALID_ARGUMENT', /body: expected a JSON object/);
    await refused(
      t,
      system.bookings.create(alice, withoutVariant),
      'E_MISSING_PARAMETER',
      /^Missing required parameter: variantId$/,
    );
    await refused(t, system.bookings.create(alice, { ...body, inventoryId: '' }), 'E_MISSING_PARAMETER', /inventoryId/);
    await refused(
      t,
      system.bookings.create(alice, { ...body, price: { amount: '50', currencyCode: 'EUR' } }),
      'E_INVALID_ARGUMENT',
      /price\.amount: expected a number, got "50"/,
    );
    await refused(
      t,
      system.bookings.create(alice, { ...body, price: { amount: 50 } }),
      'E_MISSING_PARAMETER',
      /price\.currencyCode/,
    );
    const customers = body.customersDetails.customers;
    await refused(
      t,
      system.bookings.create(alice, {
        ...body,
        customersDetails: { count: 2, customers: [customers[0], { ...customers[1], personType: 7 }] },
      }),
      'E_INVALID_ARGUMENT',
      /customersDetails\.customers\[1\]\.personType: expected a string, got number 7/,
    );
  });

  test(`${engine.name}: count must equal the customers and exactly one is primary`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const body = createBody(2, 0);
    const [first, second] = body.customersDetails.customers;
    await refused(
      t,
      system.bookings.create(alice, { ...body, customersDetails: { count: 3, customers: [first, second] } }),
      'E_INVALID_ARGUMENT',
      /customersDetails\.count: count is 3 but 2 customer\(s\) were given/,
    );
    await refused(
      t,
      system.bookings.create(alice, {
        ...body,
        customersDetails: { count: 2, customers: [first, { ...second, isPrimary: true }] },
      }),
      'E_INVALID_ARGUMENT',
      /exactly one customer must have isPrimary true, found 2/,
    );
    await refused(
      t,
      system.bookings.create(alice, { ...body, customersDetails: { count: 1, customers: [{ ...second }] } }),
      'E_INVALID_ARGUMENT',
      /found 0/,
    );
    await refused(
      t,
      system.bookings.create(alice, { ...body, customersDetails: { count: 0, customers: [] } }),
      'E_INVALID_ARGUMENT',
      /customersDetails\.count: expected an integer from 1 to 50, got 0/,
    );
    t.is(await remainingSeats(system), 30, 'no seat taken by a refused request');
  });

  test(`${engine.name}: the price must be the slot's price for those customers, in the slot's currency`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    await refused(
      t,
      system.bookings.create(alice, createBody(2, 1, { price: { amount: 60, currencyCode: 'EUR' } })),
      'E_PRICE_MISMATCH',
      /price\.amount: 60 EUR does not match the price of inventory slot-walk-0201-1000 for 2 ADULT \+ 1 CHILD, which is 62\.50 EUR/,
    );
    await refused(
      t,
      system.bookings.create(alice, createBody(2, 0, { price: { amount: 50, currencyCode: 'GBP' } })),
      'E_INVALID_ARGUMENT',
      /price\.currencyCode: GBP is not the currency of inventory .* \(EUR\)/,
    );
    await refused(
      t,
      system.bookings.create(alice, createBody(2, 0, { price: { amount: 50, currencyCode: 'XXY' } })),
      'E_INVALID_ARGUMENT',
      /Invalid currency code: XXY/,
    );
    await refused(
      t,
      system.bookings.create(alice, createBody(2, 0, { price: { amount: 50.001, currencyCode: 'EUR' } })),
      'E_PRICE_MISMATCH',
      /50\.001 EUR/,
    );
    const booking = await system.bookings.create(
      alice,
      createBody(2, 1, { price: { amount: 62.5, currencyCode: 'EUR' } }),
    );
    t.deepEqual(booking.price, { amount: 62.5, currencyCode: 'EUR' });
  });

  test(`${engine.name}: variant, inventory and person types must exist in the catalogue`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    await refused(
      t,
      system.bookings.create(alice, createBody(1, 0, { variantId: 'nope' })),
      'E_INVALID_ARGUMENT',
      /variantId: variant "nope" does not exist/,
    );
    await refused(
      t,
      system.bookings.create(alice, createBody(1, 0, { inventoryId: 'slot-other' })),
      'E_INVALID_ARGUMENT',
      /inventoryId: inventory slot "slot-other" does not exist for variant v-walk/,
    );
    await refused(
      t,
      system.bookings.create(alice, createBody(1, 0, { inventoryId: 'slot-walk-past' })),
      'E_INVALID_ARGUMENT',
      /started at 2029-12-31T10:00:00 \(Europe\/Lisbon\)/,
    );
    const body = createBody(1, 0);
    body.customersDetails.customers[0].personType = 'SENIOR';
    await refused(
      t,
      system.bookings.create(alice, body),
      'E_INVALID_ARGUMENT',
      /customersDetails\.customers\[0\]\.personType: "SENIOR" is not sold .* \(available: ADULT, CHILD\)/,
    );
  });

  test(`${engine.name}: input fields are checked against the variant's definitions`, async (t) => {
    const { system, alice } = await openFixture(await engine.freshUrl());
    t.teardown(() => system.close());
    const withPrimaryFields = (fields: { id: string; value: string }[]) => {
      const body = createBody(1, 0);
      body.customersDetails.customers[0].inputFields = fields;
      return body;
    };
    await refused(
      t,
      system.bookings.create(alice, withPrimaryFields([{ id: 'name', value: 'Maria' }])),
      'E_MISSING_PARAMETER',
      /customersDetails\.customers\[0\]\.inputFields field "email" \(Email\)/,
    );
    await refused(
      t,
      system.bookings.create(
        alice,
        withPrimaryFields([
          { id: 'name', value: 'Maria' },
          { id: 'email', value: 'not-an-email' },
        ]),
      ),
      'E_INVALID_ARGUMENT',
      /customersDetails\.customers\[0\]\.inputFields\[1\]\.value: "not-an-email" is not an email address/,
    );
    await refused(
      t,
      system.bookings.create(
        alice,
        withPrimaryFields([
          { id: 'name', value: 'Maria' },
          { id: 'email', value: 'm@x.org' },
          { id: 'shoe', value: '42' },
        ]),
      ),
      'E_INVALID_ARGUMENT',
      /inputFields\[2\]\.id: unknown input field "shoe" \(accepted here: name, email, age\)/,
    );
    await refused(
      t,
      system.bookings.create(alice, createBody(1, 0, { variantInputFields: [] })),
      'E_MISSING_PARAMETER',
      /variantInputFields field "language"/,
    );
    const child = createBody(1, 1);
    child.customersDetails.customers[1].inputFields = [{ id: 'email', value: 'kid@x.org' }];
    await refused(
      t,
      system.bookings.create(alice, child),
      'E_INVALID_ARGUMENT',
      /customers\[1\]\.inputFields\[0\]\.id: unknown input field "email" \(accepted here: age\)/,
    );
  });
}
