import test from 'ava';
import { answered, API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody, SLOT_ID, START, VARIANT_ID } from './helpers/fixture';
import { eventually, startHttpFixture } from './helpers/http-fixture';
import { rawRequest } from './helpers/raw-http';

const engines = useEngines('http_flow');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

for (const engine of engines) {
  test(`${engine.name}: catalogue, create, read, capture, fulfilment and the customer pages through HTTP`, async (t) => {
    const { server, alice, anonymous } = await startHttpFixture(await engine.freshUrl(), {
      background: { fulfilmentIntervalMs: 50, sweepIntervalMs: 60_000 },
    });
    t.teardown(() => server.close());

    // The catalogue a partner reads first.
    const productsAnswer = await alice.api.Catalogue.ProductResource_list();
    t.is(productsAnswer.headers.get('content-type'), 'application/json');
    const products = answered(t, productsAnswer, 200);
    t.is(products.total, 1);
    t.is(products.items[0]!.name, 'Old Town Walking Tour');
    t.deepEqual(products.items[0]!.variants.map((variant) => variant.id).sort(), ['v-other', VARIANT_ID]);
    const product = answered(t, await alice.api.Catalogue.ProductResource_get({ path: { id: 'p-walk' } }), 200);
    const walk = product.variants.find((variant) => variant.id === VARIANT_ID);
    t.is(walk?.inputFields.find((field) => field.id === 'language')?.appliesTo, 'VARIANT');
    const inventory = answered(
      t,
      await alice.api.Catalogue.InventoryResource_list({
        query: { variantId: VARIANT_ID, startDateTime: '2030-01-15T00:00:00', endDateTime: '2030-03-01T00:00:00' },
      }),
      200,
    );
    t.deepEqual(
      inventory.items.map((slot) => slot.id),
      [SLOT_ID],
    );
    t.like(inventory.items[0], {
      startDateTime: '2030-02-01T10:00:00',
      availability: 'LIMITED',
      remaining: 30,
      currencyCode: 'EUR',
    });
    t.deepEqual(
      inventory.items[0]!.pricing.persons.map((person) => [person.type, person.price]),
      [
        ['ADULT', 25],
        ['CHILD', 12.5],
      ],
    );

    // Create: 201, Location, the booking UNCAPTURED with partnerReferenceId null and no tickets.
    const createdAnswer = await alice.api.Bookings.BookingResource_create({ body: createBody(1, 1) });
    const created = answered(t, createdAnswer, 201);
    t.is(createdAnswer.headers.get('location'), `${server.url}${API}/booking/${created.bookingId}`);
    t.regex(created.bookingId, /^\d+$/);
    t.like(created, {
      partnerReferenceId: null,
      variantId: VARIANT_ID,
      startDateTime: '2030-02-01T10:00:00',
      product: { id: 'p-walk', name: 'Old Town Walking Tour', variant: { id: VARIANT_ID, name: 'Morning tour' } },
      price: { amount: 37.5, currencyCode: 'EUR' },
      status: 'UNCAPTURED',
      voucherUrl: null,
      creationTimestamp: START / 1000,
    });
    t.deepEqual(created.tickets, []);
    t.deepEqual(created.customersDetails.customers[0]!.inputFields, [
      { id: 'name', name: 'Full Name', value: 'Maria Silva' },
      { id: 'email', name: 'Email', value: 'maria@example.com' },
    ]);
    t.deepEqual(created.variantInputFields, [{ id: 'language', name: 'Tour Language', value: 'English' }]);
    const id = created.bookingId;
    const left = await alice.api.Catalogue.InventoryResource_list({
      query: { variantId: VARIANT_ID, startDateTime: '2030-02-01T00:00:00' },
    });
    t.is(answered(t, left, 200).items[0]?.remaining, 28, 'two seats taken');

    t.deepEqual(answered(t, await alice.api.Bookings.BookingResource_get({ path: { id } }), 200), created);

    // Capture, then the same capture again (idempotent).
    const capture = { path: { id }, body: { status: 'PENDING', partnerReferenceId: 'AX67873DDFSR' } };
    const captured = answered(t, await alice.api.Bookings.BookingResource_capture(capture), 200);
    t.like(captured, { bookingId: id, status: 'PENDING', partnerReferenceId: 'AX67873DDFSR' });
    const again = answered(t, await alice.api.Bookings.BookingResource_capture(capture), 200);
    t.is(again.partnerReferenceId, 'AX67873DDFSR');

    // Fulfilment in the background: two tickets with UUIDs and links, a voucher, COMPLETED.
    const completedAnswer = await eventually(
      () => alice.api.Bookings.BookingResource_get({ path: { id } }),
      (answer) => answer.status === 200 && answer.data.status === 'COMPLETED',
    );
    const completed = answered(t, completedAnswer, 200);
    t.is(completed.status, 'COMPLETED');
    t.is(completed.tickets.length, 2);
    for (const ticket of completed.tickets) {
      t.regex(ticket.publicId, UUID);
      t.is(ticket.url, `${server.publicBaseUrl}/ticket/${ticket.publicId}`);
    }
    t.regex(completed.voucherUrl ?? '', new RegExp(`^${server.publicBaseUrl}/voucher/[0-9a-f-]{36}$`));
    t.is(
      server.publicBaseUrl,
      `http://localhost:${server.port}`,
      'links default to localhost and the port listened on',
    );

    // The customer pages behind those links, without any key.
    const token = new URL(completed.voucherUrl!).pathname.split('/').pop()!;
    const voucher = await anonymous.api.Customer_pages.CustomerPagesResource_voucher({ path: { token } });
    t.is(voucher.headers.get('content-type'), 'text/html; charset=utf-8');
    const voucherHtml = answered(t, voucher, 200);
    t.true(voucherHtml.includes('<h1>Old Town Walking Tour · Morning tour</h1>'), voucherHtml);
    t.true(voucherHtml.includes('1 February 2030, 10:00'));
    t.true(voucherHtml.includes('Maria Silva'));
    t.true(voucherHtml.includes('37.50 EUR'));
    for (const ticket of completed.tickets) t.true(voucherHtml.includes(`href="${ticket.url}"`));
    const { publicId } = completed.tickets[1]!;
    const ticketHtml = answered(
      t,
      await anonymous.api.Customer_pages.CustomerPagesResource_ticket({ path: { publicId } }),
      200,
    );
    t.true(ticketHtml.includes('Ticket 2 of 2'));
    t.true(ticketHtml.includes(publicId));

    // The list shows it, with absolute links.
    const list = answered(t, await alice.api.Bookings.BookingResource_list(), 200);
    t.deepEqual(list, { items: [completed], nextUrl: null, prevUrl: null, total: 1, nextOffset: null });
  });

  test(`${engine.name}: the deprecated POST /booking/create answers {itineraryId, price} with Deprecation and a successor Link`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    const legacy = await alice.api.Bookings.BookingResource_createLegacy({
      body: createBody(2, 0, { customersDetails: { ...createBody(2, 0).customersDetails, priceType: 'PER_PERSON' } }),
    });
    const itinerary = answered(t, legacy, 200);
    t.deepEqual(Object.keys(itinerary).sort(), ['itineraryId', 'price']);
    t.deepEqual(itinerary.price, { amount: 50, currencyCode: 'EUR' });
    t.is(legacy.headers.get('deprecation'), '@1735689600');
    t.is(legacy.headers.get('link'), `<${server.url}${API}/booking>; rel="successor-version"`);
    // The itinerary is an ordinary booking.
    const booking = answered(
      t,
      await alice.api.Bookings.BookingResource_get({ path: { id: itinerary.itineraryId } }),
      200,
    );
    t.is(booking.status, 'UNCAPTURED');
    t.is(booking.customersDetails.count, 2);
    // The successor route has no such headers.
    const current = await alice.api.Bookings.BookingResource_create({ body: createBody(1, 0) });
    t.is(current.headers.get('deprecation'), null);
  });

  test(`${engine.name}: pages of bookings carry absolute links with the prefix (Host, or the configured public URL)`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl(), { capacity: null });
    t.teardown(() => server.close());
    for (let index = 0; index < 5; index++)
      t.is((await alice.api.Bookings.BookingResource_create({ body: createBody(1, 0) })).status, 201);
    const list = async (query: { offset?: string; limit?: string }) =>
      answered(t, await alice.api.Bookings.BookingResource_list({ query }), 200);

    const first = await list({ limit: '2' });
    t.is(first.total, 5);
    t.deepEqual(
      first.items.map((booking) => booking.bookingId),
      ['1', '2'],
    );
    t.is(first.nextUrl, `${server.url}${API}/booking?offset=2&limit=2`);
    t.is(first.prevUrl, null);
    t.is(first.nextOffset, 2);

    // The link as it is (a partner follows it rather than building the query).
    const next = (await fetch(first.nextUrl!, { headers: alice.headers }).then((response) => response.json())) as {
      items: { bookingId: string }[];
      prevUrl: string;
    };
    t.deepEqual(
      next.items.map((booking: { bookingId: string }) => booking.bookingId),
      ['3', '4'],
    );
    t.is(next.prevUrl, `${server.url}${API}/booking?offset=0&limit=2`);
    const last = await list({ offset: '4', limit: '2' });
    t.like(last, {
      nextUrl: null,
      nextOffset: null,
      prevUrl: `${server.url}${API}/booking?offset=2&limit=2`,
      total: 5,
    });
    t.is(last.items.length, 1);

    const defaults = await list({});
    t.is(defaults.items.length, 5, 'limit defaults to 20');
    const capped = await list({ limit: '1000', offset: '1' });
    t.is(capped.items.length, 4);
    t.is(capped.prevUrl, `${server.url}${API}/booking?offset=0&limit=100`, 'limit above 100 is capped to 100');

    // The Host header names the host; X-Forwarded-Proto from a client the app does not trust (trust proxy is off by
    // default) changes nothing: a trusted proxy's https is tested in http-operations.
    const proxied = await rawRequest(server.url, {
      path: `${API}/booking?limit=2`,
      headers: {
        ...alice.headers,
        Host: 'partners.example.com',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'evil.example',
      },
    });
    t.is(JSON.parse(proxied.text).nextUrl, `http://partners.example.com${API}/booking?offset=2&limit=2`);
    // A Host that is not a plain host name cannot shape the links.
    const forged = await rawRequest(server.url, {
      path: `${API}/booking?limit=2`,
      headers: { ...alice.headers, Host: 'x"><script>' },
    });
    t.is(JSON.parse(forged.text).nextUrl, `http://localhost:${server.port}${API}/booking?offset=2&limit=2`);
  });

  test(`${engine.name}: a configured public URL is the base of every link, whatever the Host header says`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl(), {
      publicBaseUrl: 'https://booking.example.test',
    });
    t.teardown(() => server.close());
    await alice.api.Bookings.BookingResource_create({ body: createBody(1, 0) });
    // node:http: fetch does not let a caller set Host.
    const created = await rawRequest(server.url, {
      method: 'POST',
      path: `${API}/booking`,
      headers: { ...alice.headers, Host: 'evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify(createBody(1, 0)),
    });
    t.is(created.status, 201);
    t.is(created.headers.location, `https://booking.example.test${API}/booking/2`);
    const page = await rawRequest(server.url, {
      path: `${API}/booking?limit=1`,
      headers: { ...alice.headers, Host: 'evil.example' },
    });
    t.is(JSON.parse(page.text).nextUrl, `https://booking.example.test${API}/booking?offset=1&limit=1`);
  });
}
