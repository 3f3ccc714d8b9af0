import test from 'ava';
import { API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody, SLOT_ID, START, VARIANT_ID } from './helpers/fixture';
import { eventually, startHttpFixture } from './helpers/http-fixture';
import { rawRequest } from './helpers/raw-http';

const engines = useEngines('http_flow');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

for (const engine of engines) {
  test(`${engine.name}: catalogue, create, read, capture, fulfilment and the customer pages through HTTP`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl(), {
      background: { fulfilmentIntervalMs: 50, sweepIntervalMs: 60_000 },
    });
    t.teardown(() => server.close());

    // The catalogue a partner reads first.
    const products = await alice.get(`${API}/product`);
    t.is(products.status, 200);
    t.is(products.headers.get('content-type'), 'application/json');
    t.is(products.body.total, 1);
    t.is(products.body.items[0].name, 'Old Town Walking Tour');
    t.deepEqual(products.body.items[0].variants.map((variant: { id: string }) => variant.id).sort(), [
      'v-other',
      VARIANT_ID,
    ]);
    const product = await alice.get(`${API}/product/p-walk`);
    t.is(product.status, 200);
    const walk = product.body.variants.find((variant: { id: string }) => variant.id === VARIANT_ID);
    t.is(walk.inputFields.find((field: { id: string }) => field.id === 'language').appliesTo, 'VARIANT');
    const inventory = await alice.get(
      `${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-01-15T00:00:00&endDateTime=2030-03-01T00:00:00`,
    );
    t.is(inventory.status, 200);
    t.deepEqual(
      inventory.body.items.map((slot: { id: string }) => slot.id),
      [SLOT_ID],
    );
    t.like(inventory.body.items[0], {
      startDateTime: '2030-02-01T10:00:00',
      availability: 'LIMITED',
      remaining: 30,
      currencyCode: 'EUR',
    });
    t.deepEqual(
      inventory.body.items[0].pricing.persons.map((person: { type: string; price: number }) => [
        person.type,
        person.price,
      ]),
      [
        ['ADULT', 25],
        ['CHILD', 12.5],
      ],
    );

    // Create: 201, Location, the booking UNCAPTURED with partnerReferenceId null and no tickets.
    const created = await alice.post(`${API}/booking`, createBody(1, 1));
    t.is(created.status, 201, created.text);
    t.is(created.headers.get('location'), `${server.url}${API}/booking/${created.body.bookingId}`);
    t.regex(created.body.bookingId, /^\d+$/);
    t.like(created.body, {
      partnerReferenceId: null,
      variantId: VARIANT_ID,
      startDateTime: '2030-02-01T10:00:00',
      product: { id: 'p-walk', name: 'Old Town Walking Tour', variant: { id: VARIANT_ID, name: 'Morning tour' } },
      price: { amount: 37.5, currencyCode: 'EUR' },
      status: 'UNCAPTURED',
      voucherUrl: null,
      creationTimestamp: START / 1000,
    });
    t.deepEqual(created.body.tickets, []);
    t.deepEqual(created.body.customersDetails.customers[0].inputFields, [
      { id: 'name', name: 'Full Name', value: 'Maria Silva' },
      { id: 'email', name: 'Email', value: 'maria@example.com' },
    ]);
    t.deepEqual(created.body.variantInputFields, [{ id: 'language', name: 'Tour Language', value: 'English' }]);
    const id = created.body.bookingId as string;
    t.is(
      (await alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`)).body.items[0]
        .remaining,
      28,
      'two seats taken',
    );

    const read = await alice.get(`${API}/booking/${id}`);
    t.is(read.status, 200);
    t.deepEqual(read.body, created.body);

    // Capture, then the same capture again (idempotent).
    const captured = await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'AX67873DDFSR' });
    t.is(captured.status, 200, captured.text);
    t.like(captured.body, { bookingId: id, status: 'PENDING', partnerReferenceId: 'AX67873DDFSR' });
    const again = await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'AX67873DDFSR' });
    t.is(again.status, 200);
    t.is(again.body.partnerReferenceId, 'AX67873DDFSR');

    // Fulfilment in the background: two tickets with UUIDs and links, a voucher, COMPLETED.
    const completed = await eventually(
      () => alice.get(`${API}/booking/${id}`),
      (answer) => answer.body.status === 'COMPLETED',
    );
    t.is(completed.body.status, 'COMPLETED');
    t.is(completed.body.tickets.length, 2);
    for (const ticket of completed.body.tickets) {
      t.regex(ticket.publicId, UUID);
      t.is(ticket.url, `${server.publicBaseUrl}/ticket/${ticket.publicId}`);
    }
    t.regex(completed.body.voucherUrl, new RegExp(`^${server.publicBaseUrl}/voucher/[0-9a-f-]{36}$`));
    t.is(
      server.publicBaseUrl,
      `http://localhost:${server.port}`,
      'links default to localhost and the port listened on',
    );

    // The customer pages behind those links, without any key.
    const voucher = await fetch(`${server.url}${new URL(completed.body.voucherUrl).pathname}`);
    t.is(voucher.status, 200);
    t.is(voucher.headers.get('content-type'), 'text/html; charset=utf-8');
    const voucherHtml = await voucher.text();
    t.true(voucherHtml.includes('<h1>Old Town Walking Tour · Morning tour</h1>'), voucherHtml);
    t.true(voucherHtml.includes('1 February 2030, 10:00'));
    t.true(voucherHtml.includes('Maria Silva'));
    t.true(voucherHtml.includes('37.50 EUR'));
    for (const ticket of completed.body.tickets) t.true(voucherHtml.includes(`href="${ticket.url}"`));
    const ticket = await fetch(`${server.url}/ticket/${completed.body.tickets[1].publicId}`);
    t.is(ticket.status, 200);
    const ticketHtml = await ticket.text();
    t.true(ticketHtml.includes('Ticket 2 of 2'));
    t.true(ticketHtml.includes(completed.body.tickets[1].publicId));

    // The list shows it, with absolute links.
    const list = await alice.get(`${API}/booking`);
    t.is(list.status, 200);
    t.deepEqual(list.body, { items: [completed.body], nextUrl: null, prevUrl: null, total: 1, nextOffset: null });
  });

  test(`${engine.name}: the deprecated POST /booking/create answers {itineraryId, price} with Deprecation and a successor Link`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    const legacy = await alice.post(
      `${API}/booking/create`,
      createBody(2, 0, { customersDetails: { ...createBody(2, 0).customersDetails, priceType: 'PER_PERSON' } }),
    );
    t.is(legacy.status, 200, legacy.text);
    t.deepEqual(Object.keys(legacy.body).sort(), ['itineraryId', 'price']);
    t.deepEqual(legacy.body.price, { amount: 50, currencyCode: 'EUR' });
    t.is(legacy.headers.get('deprecation'), '@1735689600');
    t.is(legacy.headers.get('link'), `<${server.url}${API}/booking>; rel="successor-version"`);
    // The itinerary is an ordinary booking.
    const booking = await alice.get(`${API}/booking/${legacy.body.itineraryId}`);
    t.is(booking.status, 200);
    t.is(booking.body.status, 'UNCAPTURED');
    t.is(booking.body.customersDetails.count, 2);
    // The successor route has no such headers.
    const current = await alice.post(`${API}/booking`, createBody(1, 0));
    t.is(current.headers.get('deprecation'), null);
  });

  test(`${engine.name}: pages of bookings carry absolute links with the prefix (Host, or the configured public URL)`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl(), { capacity: null });
    t.teardown(() => server.close());
    for (let index = 0; index < 5; index++) t.is((await alice.post(`${API}/booking`, createBody(1, 0))).status, 201);

    const first = await alice.get(`${API}/booking?limit=2`);
    t.is(first.status, 200);
    t.is(first.body.total, 5);
    t.deepEqual(
      first.body.items.map((booking: { bookingId: string }) => booking.bookingId),
      ['1', '2'],
    );
    t.is(first.body.nextUrl, `${server.url}${API}/booking?offset=2&limit=2`);
    t.is(first.body.prevUrl, null);
    t.is(first.body.nextOffset, 2);

    const next = (await fetch(first.body.nextUrl, { headers: alice.headers }).then((response) => response.json())) as {
      items: { bookingId: string }[];
      prevUrl: string;
    };
    t.deepEqual(
      next.items.map((booking: { bookingId: string }) => booking.bookingId),
      ['3', '4'],
    );
    t.is(next.prevUrl, `${server.url}${API}/booking?offset=0&limit=2`);
    const last = await alice.get(`${API}/booking?offset=4&limit=2`);
    t.like(last.body, {
      nextUrl: null,
      nextOffset: null,
      prevUrl: `${server.url}${API}/booking?offset=2&limit=2`,
      total: 5,
    });
    t.is(last.body.items.length, 1);

    const defaults = await alice.get(`${API}/booking`);
    t.is(defaults.body.items.length, 5, 'limit defaults to 20');
    const capped = await alice.get(`${API}/booking?limit=1000&offset=1`);
    t.is(capped.body.items.length, 4);
    t.is(capped.body.prevUrl, `${server.url}${API}/booking?offset=0&limit=100`, 'limit above 100 is capped to 100');

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
    await alice.post(`${API}/booking`, createBody(1, 0));
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
