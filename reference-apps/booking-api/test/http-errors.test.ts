import test from 'ava';
import { API } from './helpers/api-client';
import { assertError } from './helpers/assert-error';
import { useEngines } from './helpers/engines';
import { createBody, HOUR, SLOT_ID, VARIANT_ID } from './helpers/fixture';
import { startHttpFixture } from './helpers/http-fixture';
import { rawRequest } from './helpers/raw-http';

const engines = useEngines('http_errors');

function withCustomer(index: number, change: Record<string, unknown>) {
  const body = createBody(2, 0);
  body.customersDetails.customers[index] = {
    ...body.customersDetails.customers[index],
    ...change,
  } as (typeof body.customersDetails.customers)[number];
  return body;
}

for (const engine of engines) {
  test(`${engine.name}: 400 for invalid create bodies, with the partner API's codes and the field named`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    const { variantId: _variantId, ...withoutVariant } = createBody(1, 0);
    const cases: Array<[string, unknown, string, RegExp | string]> = [
      ['missing variantId', withoutVariant, 'E_MISSING_PARAMETER', 'Missing required parameter: variantId'],
      [
        'missing price.currencyCode',
        createBody(1, 0, { price: { amount: 25 } }),
        'E_MISSING_PARAMETER',
        'Missing required parameter: price.currencyCode',
      ],
      [
        'missing personType',
        withCustomer(1, { personType: undefined }),
        'E_MISSING_PARAMETER',
        'Missing required parameter: customersDetails.customers[1].personType',
      ],
      [
        'missing required input field',
        withCustomer(0, { inputFields: [{ id: 'name', value: 'Maria' }] }),
        'E_MISSING_PARAMETER',
        /customersDetails\.customers\[0\]\.inputFields.*email/,
      ],
      [
        'count mismatch',
        createBody(2, 0, { customersDetails: { ...createBody(2, 0).customersDetails, count: 3 } }),
        'E_INVALID_ARGUMENT',
        'Invalid customersDetails.count: count is 3 but 2 customer(s) were given',
      ],
      [
        'two primaries',
        withCustomer(1, { isPrimary: true }),
        'E_INVALID_ARGUMENT',
        /^Invalid customersDetails\.customers: exactly one customer must have isPrimary true, found 2$/,
      ],
      [
        'unknown person type',
        withCustomer(1, { personType: 'SENIOR' }),
        'E_INVALID_ARGUMENT',
        /customersDetails\.customers\[1\]\.personType: "SENIOR" is not sold .*available: ADULT, CHILD/,
      ],
      [
        'wrong type',
        createBody(1, 0, { price: { amount: '25', currencyCode: 'EUR' } }),
        'E_INVALID_ARGUMENT',
        'Invalid price.amount: expected a number',
      ],
      [
        'unknown currency',
        createBody(1, 0, { price: { amount: 25, currencyCode: 'XYZ' } }),
        'E_INVALID_ARGUMENT',
        /price\.currencyCode: Invalid currency code: XYZ/,
      ],
      [
        'other currency',
        createBody(1, 0, { price: { amount: 25, currencyCode: 'GBP' } }),
        'E_INVALID_ARGUMENT',
        /GBP is not the currency of inventory/,
      ],
      [
        'unknown variant',
        createBody(1, 0, { variantId: 'nope' }),
        'E_INVALID_ARGUMENT',
        'Invalid variantId: variant "nope" does not exist',
      ],
      [
        'slot of another variant',
        createBody(1, 0, { inventoryId: 'slot-other' }),
        'E_INVALID_ARGUMENT',
        /inventoryId: inventory slot "slot-other" does not exist for variant v-walk/,
      ],
      [
        'slot already started',
        createBody(1, 0, { inventoryId: 'slot-walk-past' }),
        'E_INVALID_ARGUMENT',
        /started at 2029-12-31T10:00:00/,
      ],
      [
        'wrong price',
        createBody(2, 0, { price: { amount: 49.99, currencyCode: 'EUR' } }),
        'E_PRICE_MISMATCH',
        /49\.99 EUR does not match .* for 2 ADULT, which is 50\.00 EUR/,
      ],
      ['array body', [createBody(1, 0)], 'E_INVALID_ARGUMENT', 'Invalid body: expected a JSON object'],
    ];
    for (const [what, body, code, message] of cases) {
      const response = await alice.post(`${API}/booking`, body);
      t.log(what);
      assertError(t, response, 400, code, message);
    }
    t.is((await alice.get(`${API}/booking`)).body.total, 0, 'nothing was created');
    t.is(
      (await alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`)).body.items[0]
        .remaining,
      30,
      'no seat was taken',
    );
  });

  test(`${engine.name}: texts of white space only count as missing, in create and capture bodies`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    const details = createBody(2, 0).customersDetails;
    const cases: Array<[string, unknown, string]> = [
      ['variantId', createBody(1, 0, { variantId: '  ' }), 'variantId'],
      ['inventoryId', createBody(1, 0, { inventoryId: '\t' }), 'inventoryId'],
      ['personType', withCustomer(1, { personType: ' ' }), 'customersDetails.customers[1].personType'],
      [
        'input field value',
        withCustomer(0, {
          inputFields: [
            { id: 'name', value: ' ' },
            { id: 'email', value: 'm@x.org' },
          ],
        }),
        'customersDetails.customers[0].inputFields[0].value',
      ],
      [
        'input field id',
        createBody(1, 0, { variantInputFields: [{ id: '\u00a0', value: 'English' }] }),
        'variantInputFields[0].id',
      ],
      [
        'priceType',
        createBody(2, 0, { customersDetails: { ...details, priceType: '  ' } }),
        'customersDetails.priceType',
      ],
      ['currencyCode', createBody(1, 0, { price: { amount: 25, currencyCode: ' ' } }), 'price.currencyCode'],
    ];
    for (const [what, body, field] of cases) {
      t.log(what);
      assertError(
        t,
        await alice.post(`${API}/booking`, body),
        400,
        'E_MISSING_PARAMETER',
        `Missing required parameter: ${field}`,
      );
    }
    const id = (await alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
    assertError(
      t,
      await alice.put(`${API}/booking/${id}`, { status: ' ', partnerReferenceId: 'R1' }),
      400,
      'E_MISSING_PARAMETER',
      'Missing required parameter: status',
    );
    assertError(
      t,
      await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: '  ' }),
      400,
      'E_MISSING_PARAMETER',
      'Missing required parameter: partnerReferenceId',
    );
    t.is((await alice.get(`${API}/booking`)).body.total, 1, 'only the valid booking was created');
    t.is((await alice.get(`${API}/booking/${id}`)).body.status, 'UNCAPTURED');
  });

  test(`${engine.name}: 400 for bodies rest.uws cannot read, 415 for other media types, 413 for oversized bodies`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    assertError(
      t,
      await alice.post(`${API}/booking`, '{"variantId": ', { 'Content-Type': 'application/json' }),
      400,
      'E_INVALID_ARGUMENT',
      /^Malformed JSON body: /,
    );
    assertError(
      t,
      await alice.post(`${API}/booking`, '', { 'Content-Type': 'application/json' }),
      400,
      'E_MISSING_PARAMETER',
      /^Missing required parameter: body/,
    );
    const id = (await alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
    assertError(
      t,
      await alice.put(`${API}/booking/${id}`, 'null', { 'Content-Type': 'application/json' }),
      400,
      'E_INVALID_ARGUMENT',
      'Invalid body: expected a JSON object',
    );
    assertError(
      t,
      await alice.put(`${API}/booking/${id}`, '"PENDING"', { 'Content-Type': 'application/json' }),
      400,
      'E_INVALID_ARGUMENT',
      'Invalid body: expected a JSON object',
    );
    assertError(
      t,
      await alice.post(`${API}/booking`, 'variantId=v-walk', { 'Content-Type': 'application/x-www-form-urlencoded' }),
      415,
      'E_UNSUPPORTED_MEDIA_TYPE',
      /Unsupported Content-Type application\/x-www-form-urlencoded .*expected application\/json/,
    );
    assertError(
      t,
      await alice.post(`${API}/booking/create`, JSON.stringify(createBody(1, 0)), { 'Content-Type': 'text/plain' }),
      415,
      'E_UNSUPPORTED_MEDIA_TYPE',
      /text\/plain/,
    );
    const untyped = await rawRequest(server.url, {
      method: 'POST',
      path: `${API}/booking`,
      headers: alice.headers,
      body: JSON.stringify(createBody(1, 0)),
    });
    t.is(untyped.status, 415);
    t.is(JSON.parse(untyped.text).error.code, 'E_UNSUPPORTED_MEDIA_TYPE');
    // A body that says it is larger than the limit is refused before it is read.
    const huge = JSON.stringify(createBody(1, 0, { padding: 'x'.repeat(300 * 1024) }));
    assertError(
      t,
      await alice.post(`${API}/booking`, huge, { 'Content-Type': 'application/json' }),
      413,
      'E_PAYLOAD_TOO_LARGE',
      /exceeds the limit of 262144 bytes/,
    );
    // The server is still fine afterwards.
    t.is((await alice.post(`${API}/booking`, createBody(1, 0))).status, 201);
  });

  test(`${engine.name}: deeply nested JSON (5,000 levels) in create and capture bodies is a 400 naming the limit, never a 500`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    const deepArray = '['.repeat(5000) + ']'.repeat(5000);
    const deepObject = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const json = { 'Content-Type': 'application/json' };
    const create = JSON.stringify(createBody(1, 0));
    const id = (await alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
    const bodies: Array<[string, string, string]> = [
      ['create, whole body', `${API}/booking`, deepObject],
      ['create, a field', `${API}/booking`, create.replace(/}$/, `,"notes":${deepArray}}`)],
      ['create, the customers', `${API}/booking`, create.replace(/"customers":\[/, `"customers":[${deepArray},`)],
      ['capture, whole body', `${API}/booking/${id}`, deepArray],
      ['capture, a field', `${API}/booking/${id}`, `{"status":"PENDING","partnerReferenceId":${deepObject}}`],
    ];
    for (const [what, path, body] of bodies) {
      t.log(what);
      const method = path.endsWith('/booking') ? 'POST' : 'PUT';
      assertError(
        t,
        await alice.request(method, path, body, json),
        400,
        'E_INVALID_ARGUMENT',
        /nested deeper than 256 levels/,
      );
    }
    t.is((await alice.get(`${API}/booking`)).body.total, 1, 'no booking was created by a refused body');
    t.is((await alice.get(`${API}/booking/${id}`)).body.status, 'UNCAPTURED', 'no capture happened');
  });

  test(`${engine.name}: 400 for bad paging and inventory queries`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    assertError(
      t,
      await alice.get(`${API}/booking?limit=0`),
      400,
      'E_INVALID_ARGUMENT',
      'Invalid limit: expected at least 1, got 0',
    );
    assertError(
      t,
      await alice.get(`${API}/booking?limit=ten`),
      400,
      'E_INVALID_ARGUMENT',
      'Invalid limit: expected a non-negative integer, got "ten"',
    );
    assertError(
      t,
      await alice.get(`${API}/booking?offset=-1`),
      400,
      'E_INVALID_ARGUMENT',
      'Invalid offset: expected a non-negative integer, got "-1"',
    );
    assertError(t, await alice.get(`${API}/product?limit=2.5`), 400, 'E_INVALID_ARGUMENT', /Invalid limit/);
    assertError(
      t,
      await alice.get(`${API}/inventory`),
      400,
      'E_MISSING_PARAMETER',
      'Missing required parameter: variantId',
    );
    assertError(
      t,
      await alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=tomorrow`),
      400,
      'E_INVALID_ARGUMENT',
      'Invalid startDateTime: expected YYYY-MM-DDTHH:MM:SS, got "tomorrow"',
    );
  });

  test(`${engine.name}: 404 for unknown bookings, products, variants and routes; 405 with Allow; 406 for other media types`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    assertError(t, await alice.get(`${API}/booking/999`), 404, 'E_NOT_FOUND', 'Booking 999 not found');
    assertError(t, await alice.get(`${API}/booking/abc`), 404, 'E_NOT_FOUND', 'Booking abc not found');
    assertError(
      t,
      await alice.put(`${API}/booking/999`, { status: 'PENDING', partnerReferenceId: 'R1' }),
      404,
      'E_NOT_FOUND',
      'Booking 999 not found',
    );
    assertError(t, await alice.get(`${API}/product/nope`), 404, 'E_NOT_FOUND', 'Product nope not found');
    assertError(t, await alice.get(`${API}/inventory?variantId=nope`), 404, 'E_NOT_FOUND', 'Variant nope not found');
    assertError(t, await alice.get(`${API}/bookings`), 404, 'E_NOT_FOUND', `No route for GET ${API}/bookings`);
    const deleted = await alice.request('DELETE', `${API}/booking/1`);
    assertError(t, deleted, 405, 'E_METHOD_NOT_ALLOWED', /Method DELETE is not allowed/);
    t.is(deleted.headers.get('allow'), 'GET, HEAD, OPTIONS, PUT');
    assertError(
      t,
      await alice.request('PATCH', `${API}/booking`),
      405,
      'E_METHOD_NOT_ALLOWED',
      /allowed: GET, HEAD, OPTIONS, POST/,
    );
    assertError(
      t,
      await alice.get(`${API}/booking`, { Accept: 'text/html' }),
      406,
      'E_NOT_ACCEPTABLE',
      /produces application\/json/,
    );
  });

  test(`${engine.name}: 409 for sold-out slots, refused transitions, other references and captures after the timeout`, async (t) => {
    const { server, alice, clock } = await startHttpFixture(await engine.freshUrl(), { capacity: 3 });
    t.teardown(() => server.close());
    assertError(
      t,
      await alice.post(`${API}/booking`, createBody(4, 0)),
      409,
      'E_SOLD_OUT',
      `Inventory slot ${SLOT_ID} has 3 seat(s) left; 4 requested`,
    );

    const id = (await alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
    assertError(
      t,
      await alice.put(`${API}/booking/${id}`, { status: 'COMPLETED', partnerReferenceId: 'R1' }),
      409,
      'E_INVALID_STATE_TRANSITION',
      /cannot be moved to COMPLETED by a partner; only status PENDING/,
    );
    assertError(
      t,
      await alice.put(`${API}/booking/${id}`, { status: 'DONE', partnerReferenceId: 'R1' }),
      400,
      'E_INVALID_ARGUMENT',
      /Invalid status: Invalid status code: DONE/,
    );
    assertError(
      t,
      await alice.put(`${API}/booking/${id}`, { status: 'PENDING' }),
      400,
      'E_MISSING_PARAMETER',
      'Missing required parameter: partnerReferenceId',
    );
    t.is((await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'R1' })).status, 200);
    assertError(
      t,
      await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'R2' }),
      409,
      'E_INVALID_STATE_TRANSITION',
      /already captured \(status PENDING\) with partnerReferenceId "R1"/,
    );

    // One hour later an uncaptured booking reads CAPTURE_TIMEOUT at once, its seats are back, and it cannot be captured.
    const late = (await alice.post(`${API}/booking`, createBody(2, 0))).body.bookingId;
    const slotRemaining = async () =>
      (await alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`)).body.items[0]
        .remaining;
    t.is(await slotRemaining(), 0);
    clock.advance(HOUR);
    t.is((await alice.get(`${API}/booking/${late}`)).body.status, 'CAPTURE_TIMEOUT');
    assertError(
      t,
      await alice.put(`${API}/booking/${late}`, { status: 'PENDING', partnerReferenceId: 'R3' }),
      409,
      'E_CAPTURE_TIMEOUT',
      /was not captured within one hour of creation and is CAPTURE_TIMEOUT/,
    );
    t.is(await slotRemaining(), 2, 'the two seats are back; the captured booking keeps its seat');
    t.is((await alice.get(`${API}/booking/${id}`)).body.status, 'PENDING', 'a captured booking never times out');
  });

  test(`${engine.name}: a capture an hour after creation is refused even when nothing read the booking before`, async (t) => {
    const { server, alice, clock } = await startHttpFixture(await engine.freshUrl(), { capacity: 3 });
    t.teardown(() => server.close());
    const early = (await alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
    const late = (await alice.post(`${API}/booking`, createBody(2, 0))).body.bookingId;
    clock.advance(HOUR - 1);
    // A millisecond before the hour ends, the capture goes through: the PUT is the first request after the creates.
    const captured = await alice.put(`${API}/booking/${early}`, { status: 'PENDING', partnerReferenceId: 'IN-TIME' });
    t.is(captured.status, 200);
    t.is(captured.body.status, 'PENDING');
    clock.advance(1);
    // The hour is over: the PUT comes first again (no GET, list or create has timed the booking out yet).
    assertError(
      t,
      await alice.put(`${API}/booking/${late}`, { status: 'PENDING', partnerReferenceId: 'TOO-LATE' }),
      409,
      'E_CAPTURE_TIMEOUT',
      /was not captured within one hour of creation and is CAPTURE_TIMEOUT/,
    );
    const after = (await alice.get(`${API}/booking/${late}`)).body;
    t.is(after.status, 'CAPTURE_TIMEOUT');
    t.is(after.partnerReferenceId, null, 'the refused capture stored nothing');
    t.is((await alice.get(`${API}/booking/${early}`)).body.status, 'PENDING');
  });

  test(`${engine.name}: an unexpected failure is a 500 with a fixed message, and the server keeps serving`, async (t) => {
    const errors: unknown[] = [];
    const logger = {
      error: (entry: unknown) => errors.push(entry),
      warn: () => undefined,
      info: () => undefined,
      debug: () => undefined,
    };
    // Without the rate limit: on PostgreSQL it counts in the same pool, and would answer the destroyed pool with its
    // own 503 first (tested in http-operations).
    const { server, alice } = await startHttpFixture(await engine.freshUrl(), { logger, rateLimit: false });
    t.teardown(() => server.close());
    // Refusals are answers, not failures: nothing is logged for them.
    assertError(t, await alice.get(`${API}/booking/999`), 404, 'E_NOT_FOUND', 'Booking 999 not found');
    t.is(errors.length, 0);
    // Pull the database away under the running server.
    await server.system.database.destroy();
    assertError(
      t,
      await alice.get(`${API}/booking`),
      500,
      'E_INTERNAL',
      'Internal error; the request was not completed',
    );
    assertError(
      t,
      await alice.post(`${API}/booking`, createBody(1, 0)),
      500,
      'E_INTERNAL',
      'Internal error; the request was not completed',
    );
    t.is(errors.length, 2, 'the cause goes to the log');
    t.regex((errors[0] as { err: Error }).err.message, /driver has already been destroyed/);
    // Routing errors need no database and still work.
    assertError(t, await alice.get(`${API}/nothing`), 404, 'E_NOT_FOUND', `No route for GET ${API}/nothing`);
  });
}
