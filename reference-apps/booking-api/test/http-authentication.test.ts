import test from 'ava';
import { API } from './helpers/api-client';
import { assertError } from './helpers/assert-error';
import { useEngines } from './helpers/engines';
import { createBody, HOUR, VARIANT_ID } from './helpers/fixture';
import { startHttpFixture } from './helpers/http-fixture';

const engines = useEngines('http_auth');

/** Every API route, with a request that would succeed (or fail for reasons other than the key). */
const ROUTES: Array<[string, string, unknown?]> = [
  ['GET', `${API}/booking`],
  ['GET', `${API}/booking/1`],
  ['POST', `${API}/booking`, createBody(1, 0)],
  ['PUT', `${API}/booking/1`, { status: 'PENDING', partnerReferenceId: 'R1' }],
  ['POST', `${API}/booking/create`, createBody(1, 0)],
  ['GET', `${API}/product`],
  ['GET', `${API}/product/p-walk`],
  ['GET', `${API}/inventory?variantId=${VARIANT_ID}`],
];

const MISSING = 'Missing API key: send "Authorization: Bearer <api key>" or "Headout-Auth: <api key>"';

for (const engine of engines) {
  test(`${engine.name}: every API route answers 401 without a key, with an unknown key and with a revoked key`, async (t) => {
    const { server, anonymous, alice } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    const revoked = await server.system.partnerKeys.issueKey('Carol Trips');
    t.is(await server.system.partnerKeys.revokeKey(revoked.keyId), 'revoked');
    for (const [method, path, body] of ROUTES) {
      t.log(method, path);
      const missing = await anonymous.request(method, path, body);
      assertError(t, missing, 401, 'E_UNAUTHORIZED', MISSING);
      t.is(missing.headers.get('www-authenticate'), 'Bearer realm="booking-api"');
      for (const headers of <Record<string, string>[]>[
        { Authorization: 'Bearer pk_not-a-real-key' },
        { 'Headout-Auth': 'pk_not-a-real-key' },
        { Authorization: `Bearer ${revoked.key}` },
      ]) {
        const unknown = await anonymous.request(method, path, body, headers);
        assertError(t, unknown, 401, 'E_UNAUTHORIZED', 'Invalid API key: unknown or revoked');
        t.is(unknown.headers.get('www-authenticate'), 'Bearer realm="booking-api", error="invalid_token"');
      }
      assertError(
        t,
        await anonymous.request(method, path, body, {
          Authorization: `Basic ${Buffer.from('alice:secret').toString('base64')}`,
        }),
        401,
        'E_UNAUTHORIZED',
        /must use the Bearer scheme/,
      );
    }
    // Nothing was created by any of those requests.
    t.is((await alice.get(`${API}/booking`)).body.total, 0);
  });

  test(`${engine.name}: the key is checked before anything else about the request`, async (t) => {
    const { server, anonymous } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    assertError(
      t,
      await anonymous.post(`${API}/booking`, '{"broken', { 'Content-Type': 'application/json' }),
      401,
      'E_UNAUTHORIZED',
      MISSING,
    );
    assertError(
      t,
      await anonymous.post(`${API}/booking`, 'x=1', { 'Content-Type': 'text/plain' }),
      401,
      'E_UNAUTHORIZED',
      MISSING,
    );
    assertError(t, await anonymous.get(`${API}/booking?limit=0`), 401, 'E_UNAUTHORIZED', MISSING);
    assertError(t, await anonymous.get(`${API}/inventory`), 401, 'E_UNAUTHORIZED', MISSING);
  });

  test(`${engine.name}: both headers carry the key; customer pages need none`, async (t) => {
    const { server, alice, bob, anonymous, bobKey } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    t.is((await alice.get(`${API}/booking`)).status, 200, 'Authorization: Bearer');
    t.is((await bob.get(`${API}/booking`)).status, 200, 'Headout-Auth');
    t.is(
      (await anonymous.get(`${API}/booking`, { Authorization: `bearer   ${bobKey}` })).status,
      200,
      'scheme is case-insensitive',
    );
    const page = await anonymous.get('/voucher/00000000-0000-4000-8000-000000000000');
    t.is(page.status, 404);
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
    t.true(page.text.includes('Voucher 00000000-0000-4000-8000-000000000000 not found'));
    t.is(page.headers.get('www-authenticate'), null);
  });

  test(`${engine.name}: a partner never reads, lists or changes another partner's bookings, in any state, on any route, with any spelling of the id`, async (t) => {
    const { server, alice, bob, anonymous, aliceKey, bobKey, clock } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    // Alice's bookings in every state: timed out (an hour passes, the next create sweeps it), uncaptured, captured
    // (PENDING: background work is off here), and fulfilled (COMPLETED, one fulfilment round run by hand).
    const timedOut = (await alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
    clock.advance(HOUR + 1000);
    const uncaptured = (await alice.post(`${API}/booking`, createBody(2, 0))).body.bookingId;
    const pending = (await alice.post(`${API}/booking`, createBody(1, 1))).body.bookingId;
    const completed = (await alice.post(`${API}/booking/create`, createBody(1, 0))).body.itineraryId;
    t.is(
      (await alice.put(`${API}/booking/${completed}`, { status: 'PENDING', partnerReferenceId: 'A-DONE' })).status,
      200,
    );
    await server.system.fulfilment.runOnce();
    t.is(
      (await alice.put(`${API}/booking/${pending}`, { status: 'PENDING', partnerReferenceId: 'A-PENDING' })).status,
      200,
    );
    const alicesIds = [timedOut, uncaptured, pending, completed];
    const before = await Promise.all(alicesIds.map(async (id) => (await alice.get(`${API}/booking/${id}`)).body));
    t.deepEqual(
      before.map((booking) => booking.status),
      ['CAPTURE_TIMEOUT', 'UNCAPTURED', 'PENDING', 'COMPLETED'],
    );
    const seatsBefore = (await alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`))
      .body.items[0].remaining;
    const bobsOwn = (await bob.post(`${API}/booking`, createBody(1, 0))).body.bookingId;

    // Bob as himself, and Bob with Alice's key in the header that loses (Authorization wins over Headout-Auth).
    const bobs = [
      ['Bob', bob],
      [
        'Bob (Authorization) with Alice (Headout-Auth)',
        anonymous.withHeaders({ Authorization: `Bearer ${bobKey}`, 'Headout-Auth': aliceKey }),
      ],
    ] as const;
    // Every route that takes a booking id, with the ways an id can be written in a path.
    const spellings = (id: string) => [
      id,
      `0${id}`,
      `00${id}`,
      encodeURIComponent(id).replace(/\d/g, (digit) => `%3${digit}`),
    ];
    const attempts: Array<[string, (id: string) => [string, string, unknown?]]> = [
      ['read', (id) => ['GET', `${API}/booking/${id}`]],
      ['capture', (id) => ['PUT', `${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'STOLEN' }]],
      [
        "capture with the owner's reference",
        (id) => ['PUT', `${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'A-PENDING' }],
      ],
      [
        'other transition',
        (id) => ['PUT', `${API}/booking/${id}`, { status: 'CANCELLED', partnerReferenceId: 'STOLEN' }],
      ],
    ];
    for (const [who, client] of bobs) {
      for (const id of alicesIds) {
        for (const written of spellings(id)) {
          for (const [what, build] of attempts) {
            const [method, path, body] = build(written);
            const answer = await client.request(method, path, body);
            t.log(who, what, method, path, answer.status);
            // The same answer as for an id that does not exist: ids leak nothing, not even the state.
            t.is(answer.status, 404, `${who}: ${what} ${method} ${path}: ${answer.text}`);
            t.is(answer.body.error.code, 'E_NOT_FOUND');
            t.regex(answer.body.error.message, /^Booking \d+ not found$/);
          }
        }
      }
      // Lists: only Bob's booking, whatever the page; the total counts only his.
      for (const query of ['', '?offset=0&limit=100', '?offset=1&limit=1', '?offset=4']) {
        const page = (await client.get(`${API}/booking${query}`)).body;
        t.is(page.total, 1, `${who} ${query}`);
        t.false(
          page.items.some((booking: { bookingId: string }) => alicesIds.includes(booking.bookingId)),
          `${who} ${query}`,
        );
      }
    }
    // A create cannot be made on another partner's account, whatever the body claims.
    const claimed = await bob.post(
      `${API}/booking`,
      createBody(1, 0, { partnerId: 'ptn_alice', partner_id: 'ptn_alice', partner: { id: 'ptn_alice' } }),
    );
    t.is(claimed.status, 201);
    t.is((await alice.get(`${API}/booking/${claimed.body.bookingId}`)).status, 404);
    t.is((await bob.get(`${API}/booking/${claimed.body.bookingId}`)).status, 200);
    // And the owner cannot reach Bob's either.
    assertError(t, await alice.get(`${API}/booking/${bobsOwn}`), 404, 'E_NOT_FOUND', `Booking ${bobsOwn} not found`);
    assertError(
      t,
      await alice.put(`${API}/booking/${bobsOwn}`, { status: 'PENDING', partnerReferenceId: 'STOLEN' }),
      404,
      'E_NOT_FOUND',
      `Booking ${bobsOwn} not found`,
    );

    // Nothing of Alice's changed: states, references, tickets, seats; her list is hers alone.
    const after = await Promise.all(alicesIds.map(async (id) => (await alice.get(`${API}/booking/${id}`)).body));
    t.deepEqual(after, before);
    t.is(
      (await alice.get(`${API}/inventory?variantId=${VARIANT_ID}&startDateTime=2030-02-01T00:00:00`)).body.items[0]
        .remaining,
      seatsBefore - 2,
    );
    const alicesList = (await alice.get(`${API}/booking?limit=100`)).body;
    t.deepEqual(
      alicesList.items.map((booking: { bookingId: string }) => booking.bookingId),
      alicesIds,
    );
    t.is(alicesList.total, 4);
  });
}
