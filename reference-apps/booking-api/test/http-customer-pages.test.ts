import test from 'ava';
import { answered } from './helpers/api-client';
import { renderedDom } from './helpers/browser';
import { useEngines } from './helpers/engines';
import { createBody } from './helpers/fixture';
import { eventually, startHttpFixture } from './helpers/http-fixture';

const engines = useEngines('http_pages');

for (const engine of engines) {
  test(`${engine.name}: a browser opens the voucher and ticket links of a fulfilled booking; what customers typed stays text`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl(), {
      background: { fulfilmentIntervalMs: 50 },
    });
    t.teardown(() => server.close());
    // A lead name that would run as script if the page did not escape it.
    const body = createBody(2, 1);
    body.customersDetails.customers[0].inputFields[0] = {
      id: 'name',
      value: '<script>document.title="pwned"</script>Ana <b>Lima</b>',
    };
    const id = answered(t, await alice.api.Bookings.BookingResource_create({ body }), 201).bookingId;
    const capture = { status: 'PENDING', partnerReferenceId: 'PAGE-1' };
    await alice.api.Bookings.BookingResource_capture({ path: { id }, body: capture });
    const completed = await eventually(
      () => alice.api.Bookings.BookingResource_get({ path: { id } }),
      (answer) => answer.status === 200 && answer.data.status === 'COMPLETED',
    );
    const booking = answered(t, completed, 200);
    t.is(booking.tickets.length, 3);

    // The links say localhost:<port>; the browser reaches the same server at 127.0.0.1.
    const local = (link: string) => `${server.url}${new URL(link).pathname}`;
    const voucher = await renderedDom(local(booking.voucherUrl!));
    t.regex(voucher, /<title>Voucher for Old Town Walking Tour<\/title>/, 'the script in the name did not run');
    t.regex(voucher, /<h1>Old Town Walking Tour · Morning tour<\/h1>/);
    t.regex(
      voucher,
      /<dd id="lead">&lt;script&gt;document\.title="pwned"&lt;\/script&gt;Ana &lt;b&gt;Lima&lt;\/b&gt;<\/dd>/,
    );
    t.regex(voucher, /<dd id="start">1 February 2030, 10:00 \(local time\)<\/dd>/);
    t.regex(voucher, /<dd id="price">62\.50 EUR<\/dd>/);
    t.regex(voucher, /<span id="status">COMPLETED<\/span>/);
    const links = [...voucher.matchAll(/<a href="([^"]+)">Ticket (\d)<\/a>/g)];
    t.deepEqual(
      links.map((match) => match[1]),
      booking.tickets.map((ticket: { url: string }) => ticket.url),
    );

    const ticket = await renderedDom(local(booking.tickets[2].url));
    t.regex(ticket, /<title>Ticket 3 of 3 for Old Town Walking Tour<\/title>/);
    t.true(ticket.includes(`<code id="ticket-id" style="font-size:1.4rem">${booking.tickets[2].publicId}</code>`));

    const unknown = await renderedDom(`${server.url}/ticket/00000000-0000-4000-8000-000000000000`);
    t.regex(unknown, /<h1>This link is not valid \(yet\)<\/h1>/);
  });
}

test('a voucher link of a booking that is not fulfilled yet is a 404 page, not the booking', async (t) => {
  const { server, alice, anonymous } = await startHttpFixture('sqlite::memory:');
  t.teardown(() => server.close());
  const created = answered(t, await alice.api.Bookings.BookingResource_create({ body: createBody(1, 0) }), 201);
  // The voucher token exists from creation on, but the page appears only once the booking is COMPLETED.
  const token = (await server.system.repositories.bookings.findById(Number(created.bookingId)))!.voucher_token;
  const page = await anonymous.api.Customer_pages.CustomerPagesResource_voucher({ path: { token } });
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.false(answered(t, page, 404).includes('Maria Silva'));
});
