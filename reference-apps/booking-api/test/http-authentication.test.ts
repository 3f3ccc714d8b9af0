import test from 'ava';
import { API } from './helpers/api-client';
import { assertError } from './helpers/assert-error';
import { useEngines } from './helpers/engines';
import { createBody, VARIANT_ID } from './helpers/fixture';
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
      for (const headers of <Record<string, string>[]>[{ Authorization: 'Bearer pk_not-a-real-key' }, { 'Headout-Auth': 'pk_not-a-real-key' }, { Authorization: `Bearer ${revoked.key}` }]) {
        const unknown = await anonymous.request(method, path, body, headers);
        assertError(t, unknown, 401, 'E_UNAUTHORIZED', 'Invalid API key: unknown or revoked');
        t.is(unknown.headers.get('www-authenticate'), 'Bearer realm="booking-api", error="invalid_token"');
      }
      assertError(t, await anonymous.request(method, path, body, { Authorization: `Basic ${Buffer.from('alice:secret').toString('base64')}` }), 401, 'E_UNAUTHORIZED', /must use the Bearer scheme/);
    }
    // Nothing was created by any of those requests.
    t.is((await alice.get(`${API}/booking`)).body.total, 0);
  });

  test(`${engine.name}: the key is checked before anything else about the request`, async (t) => {
    const { server, anonymous } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    assertError(t, await anonymous.post(`${API}/booking`, '{"broken', { 'Content-Type': 'application/json' }), 401, 'E_UNAUTHORIZED', MISSING);
    assertError(t, await anonymous.post(`${API}/booking`, 'x=1', { 'Content-Type': 'text/plain' }), 401, 'E_UNAUTHORIZED', MISSING);
    assertError(t, await anonymous.get(`${API}/booking?limit=0`), 401, 'E_UNAUTHORIZED', MISSING);
    assertError(t, await anonymous.get(`${API}/inventory`), 401, 'E_UNAUTHORIZED', MISSING);
  });

  test(`${engine.name}: both headers carry the key; customer pages need none`, async (t) => {
    const { server, alice, bob, anonymous, bobKey } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    t.is((await alice.get(`${API}/booking`)).status, 200, 'Authorization: Bearer');
    t.is((await bob.get(`${API}/booking`)).status, 200, 'Headout-Auth');
    t.is((await anonymous.get(`${API}/booking`, { Authorization: `bearer   ${bobKey}` })).status, 200, 'scheme is case-insensitive');
    const page = await anonymous.get('/voucher/00000000-0000-4000-8000-000000000000');
    t.is(page.status, 404);
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
    t.true(page.text.includes('Voucher 00000000-0000-4000-8000-000000000000 not found'));
    t.is(page.headers.get('www-authenticate'), null);
  });

  test(`${engine.name}: a partner never sees another partner's bookings: their ids are 404 on every route`, async (t) => {
    const { server, alice, bob } = await startHttpFixture(await engine.freshUrl());
    t.teardown(() => server.close());
    const alices = (await alice.post(`${API}/booking`, createBody(1, 0))).body.bookingId;
    const bobs = (await bob.post(`${API}/booking`, createBody(2, 0))).body.bookingId;
    t.not(alices, bobs);

    assertError(t, await bob.get(`${API}/booking/${alices}`), 404, 'E_NOT_FOUND', `Booking ${alices} not found`);
    assertError(t, await bob.put(`${API}/booking/${alices}`, { status: 'PENDING', partnerReferenceId: 'STOLEN' }), 404, 'E_NOT_FOUND', `Booking ${alices} not found`);
    assertError(t, await alice.get(`${API}/booking/${bobs}`), 404, 'E_NOT_FOUND', `Booking ${bobs} not found`);
    assertError(t, await alice.put(`${API}/booking/${bobs}`, { status: 'PENDING', partnerReferenceId: 'STOLEN' }), 404, 'E_NOT_FOUND', `Booking ${bobs} not found`);
    // The same answer as for an id that does not exist: ids leak nothing.
    const unknown = await bob.get(`${API}/booking/424242`);
    t.is(unknown.status, 404);

    const alicesList = (await alice.get(`${API}/booking`)).body;
    t.deepEqual(alicesList.items.map((booking: { bookingId: string }) => booking.bookingId), [alices]);
    t.is(alicesList.total, 1);
    t.deepEqual((await bob.get(`${API}/booking`)).body.items.map((booking: { bookingId: string }) => booking.bookingId), [bobs]);
    // Bob's capture attempt changed nothing.
    const mine = (await alice.get(`${API}/booking/${alices}`)).body;
    t.is(mine.status, 'UNCAPTURED');
    t.is(mine.partnerReferenceId, null);
  });
}
