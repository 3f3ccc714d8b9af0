import { compileErrors, validate as validateOpenApi } from '@readme/openapi-parser';
import test from 'ava';
import { sql } from 'kysely';
import { answerChecker, documentedAnswers, openApiValidator } from 'app-support/testing';
import { API } from './helpers/api-client';
import { useEngines } from './helpers/engines';
import { createBody, VARIANT_ID } from './helpers/fixture';
import { eventually, startHttpFixture } from './helpers/http-fixture';

const engines = useEngines('http_openapi_conformance');

/** One request whose answer must be the documented `status` of `operation`. */
interface Sample {
  operation: string;
  status: number;
  path: string;
  method?: string;
  /** Sent as JSON (an object) or as it is (a string, with its own Content-Type). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Without the partner's key. */
  anonymous?: boolean;
  /** Sent by the partner whose requests are over the rate limit. */
  limited?: boolean;
}

const BOOKING = `${API}/booking`;
const json = { 'Content-Type': 'application/json' };
/** A body over the 256 KiB limit (MAX_BODY_BYTES). */
const HUGE_BODY = JSON.stringify({ filler: 'x'.repeat(300 * 1024) });

/** The table: one sample per documented answer of every operation (ids filled in as the flow creates them). */
function samples(ids: { booking: string; voucher: string; ticket: string }): Sample[] {
  return [
    { operation: `GET ${API}/product`, status: 200, path: `${API}/product` },
    { operation: `GET ${API}/product`, status: 400, path: `${API}/product?limit=lots` },
    { operation: `GET ${API}/product`, status: 401, path: `${API}/product`, anonymous: true },
    { operation: `GET ${API}/product`, status: 406, path: `${API}/product`, headers: { Accept: 'text/csv' } },
    { operation: `GET ${API}/product/{id}`, status: 200, path: `${API}/product/p-walk` },
    { operation: `GET ${API}/product/{id}`, status: 400, path: `${API}/product/%ff` },
    { operation: `GET ${API}/product/{id}`, status: 401, path: `${API}/product/p-walk`, anonymous: true },
    { operation: `GET ${API}/product/{id}`, status: 404, path: `${API}/product/p-nothing` },
    {
      operation: `GET ${API}/product/{id}`,
      status: 406,
      path: `${API}/product/p-walk`,
      headers: { Accept: 'text/csv' },
    },
    { operation: `GET ${API}/inventory`, status: 200, path: `${API}/inventory?variantId=${VARIANT_ID}` },
    { operation: `GET ${API}/inventory`, status: 400, path: `${API}/inventory` },
    {
      operation: `GET ${API}/inventory`,
      status: 401,
      path: `${API}/inventory?variantId=${VARIANT_ID}`,
      anonymous: true,
    },
    { operation: `GET ${API}/inventory`, status: 404, path: `${API}/inventory?variantId=v-nothing` },
    {
      operation: `GET ${API}/inventory`,
      status: 406,
      path: `${API}/inventory?variantId=${VARIANT_ID}`,
      headers: { Accept: 'text/csv' },
    },
    { operation: `POST ${BOOKING}`, status: 201, path: BOOKING, method: 'POST', body: createBody(1, 0) },
    {
      operation: `POST ${BOOKING}`,
      status: 400,
      path: BOOKING,
      method: 'POST',
      body: createBody(1, 0, { variantId: '' }),
    },
    {
      operation: `POST ${BOOKING}`,
      status: 401,
      path: BOOKING,
      method: 'POST',
      body: createBody(1, 0),
      anonymous: true,
    },
    {
      operation: `POST ${BOOKING}`,
      status: 406,
      path: BOOKING,
      method: 'POST',
      body: createBody(1, 0),
      headers: { Accept: 'text/csv' },
    },
    { operation: `POST ${BOOKING}`, status: 409, path: BOOKING, method: 'POST', body: createBody(40, 0) },
    { operation: `POST ${BOOKING}`, status: 413, path: BOOKING, method: 'POST', body: HUGE_BODY, headers: json },
    {
      operation: `POST ${BOOKING}`,
      status: 415,
      path: BOOKING,
      method: 'POST',
      body: 'variantId=v-walk',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    },
    {
      operation: `POST ${BOOKING}/create`,
      status: 200,
      path: `${BOOKING}/create`,
      method: 'POST',
      body: createBody(1, 0),
    },
    {
      operation: `POST ${BOOKING}/create`,
      status: 400,
      path: `${BOOKING}/create`,
      method: 'POST',
      body: createBody(1, 0, { price: 'free' }),
    },
    {
      operation: `POST ${BOOKING}/create`,
      status: 401,
      path: `${BOOKING}/create`,
      method: 'POST',
      body: createBody(1, 0),
      anonymous: true,
    },
    {
      operation: `POST ${BOOKING}/create`,
      status: 406,
      path: `${BOOKING}/create`,
      method: 'POST',
      body: createBody(1, 0),
      headers: { Accept: 'text/csv' },
    },
    {
      operation: `POST ${BOOKING}/create`,
      status: 409,
      path: `${BOOKING}/create`,
      method: 'POST',
      body: createBody(40, 0),
    },
    {
      operation: `POST ${BOOKING}/create`,
      status: 413,
      path: `${BOOKING}/create`,
      method: 'POST',
      body: HUGE_BODY,
      headers: json,
    },
    {
      operation: `POST ${BOOKING}/create`,
      status: 415,
      path: `${BOOKING}/create`,
      method: 'POST',
      body: 'x',
      headers: { 'Content-Type': 'text/csv' },
    },
    { operation: `GET ${BOOKING}`, status: 200, path: BOOKING },
    { operation: `GET ${BOOKING}`, status: 400, path: `${BOOKING}?offset=-1` },
    { operation: `GET ${BOOKING}`, status: 401, path: BOOKING, anonymous: true },
    { operation: `GET ${BOOKING}`, status: 406, path: BOOKING, headers: { Accept: 'text/csv' } },
    { operation: `GET ${BOOKING}/{id}`, status: 200, path: `${BOOKING}/${ids.booking}` },
    { operation: `GET ${BOOKING}/{id}`, status: 400, path: `${BOOKING}/%ff` },
    { operation: `GET ${BOOKING}/{id}`, status: 401, path: `${BOOKING}/${ids.booking}`, anonymous: true },
    { operation: `GET ${BOOKING}/{id}`, status: 404, path: `${BOOKING}/999999` },
    {
      operation: `GET ${BOOKING}/{id}`,
      status: 406,
      path: `${BOOKING}/${ids.booking}`,
      headers: { Accept: 'text/csv' },
    },
    {
      operation: `PUT ${BOOKING}/{id}`,
      status: 200,
      path: `${BOOKING}/${ids.booking}`,
      method: 'PUT',
      body: { status: 'PENDING', partnerReferenceId: 'CONF-1' },
    },
    {
      operation: `PUT ${BOOKING}/{id}`,
      status: 400,
      path: `${BOOKING}/${ids.booking}`,
      method: 'PUT',
      body: { status: 'SHIPPED' },
    },
    {
      operation: `PUT ${BOOKING}/{id}`,
      status: 401,
      path: `${BOOKING}/${ids.booking}`,
      method: 'PUT',
      body: { status: 'PENDING', partnerReferenceId: 'CONF-1' },
      anonymous: true,
    },
    {
      operation: `PUT ${BOOKING}/{id}`,
      status: 404,
      path: `${BOOKING}/999999`,
      method: 'PUT',
      body: { status: 'PENDING', partnerReferenceId: 'CONF-1' },
    },
    {
      operation: `PUT ${BOOKING}/{id}`,
      status: 406,
      path: `${BOOKING}/${ids.booking}`,
      method: 'PUT',
      body: { status: 'PENDING', partnerReferenceId: 'CONF-1' },
      headers: { Accept: 'text/csv' },
    },
    {
      operation: `PUT ${BOOKING}/{id}`,
      status: 409,
      path: `${BOOKING}/${ids.booking}`,
      method: 'PUT',
      body: { status: 'PENDING', partnerReferenceId: 'OTHER-2' },
    },
    {
      operation: `PUT ${BOOKING}/{id}`,
      status: 413,
      path: `${BOOKING}/${ids.booking}`,
      method: 'PUT',
      body: HUGE_BODY,
      headers: json,
    },
    {
      operation: `PUT ${BOOKING}/{id}`,
      status: 415,
      path: `${BOOKING}/${ids.booking}`,
      method: 'PUT',
      body: 'x',
      headers: { 'Content-Type': 'text/csv' },
    },
    { operation: 'GET /voucher/{token}', status: 200, path: `/voucher/${ids.voucher}`, anonymous: true },
    { operation: 'GET /voucher/{token}', status: 400, path: '/voucher/%ff', anonymous: true },
    { operation: 'GET /voucher/{token}', status: 404, path: '/voucher/nothing-here', anonymous: true },
    {
      operation: 'GET /voucher/{token}',
      status: 406,
      path: `/voucher/${ids.voucher}`,
      anonymous: true,
      headers: { Accept: 'application/json' },
    },
    { operation: 'GET /ticket/{publicId}', status: 200, path: `/ticket/${ids.ticket}`, anonymous: true },
    { operation: 'GET /ticket/{publicId}', status: 400, path: '/ticket/%ff', anonymous: true },
    { operation: 'GET /ticket/{publicId}', status: 404, path: '/ticket/nothing-here', anonymous: true },
    {
      operation: 'GET /ticket/{publicId}',
      status: 406,
      path: `/ticket/${ids.ticket}`,
      anonymous: true,
      headers: { Accept: 'application/json' },
    },
  ];
}

/** One request per operation of the partner API (every one is rate limited): the 429 and store-failure samples. */
function partnerRequests(ids: { booking: string }): Array<Omit<Sample, 'status'>> {
  return [
    { operation: `GET ${API}/product`, path: `${API}/product` },
    { operation: `GET ${API}/product/{id}`, path: `${API}/product/p-walk` },
    { operation: `GET ${API}/inventory`, path: `${API}/inventory?variantId=${VARIANT_ID}` },
    { operation: `POST ${BOOKING}`, path: BOOKING, method: 'POST', body: createBody(1, 0) },
    { operation: `POST ${BOOKING}/create`, path: `${BOOKING}/create`, method: 'POST', body: createBody(1, 0) },
    { operation: `GET ${BOOKING}`, path: BOOKING },
    { operation: `GET ${BOOKING}/{id}`, path: `${BOOKING}/${ids.booking}` },
    {
      operation: `PUT ${BOOKING}/{id}`,
      path: `${BOOKING}/${ids.booking}`,
      method: 'PUT',
      body: { status: 'PENDING', partnerReferenceId: 'CONF-1' },
    },
  ];
}

/** The limit of the test's server: far above what the samples send with Alice's key, reached by Carol's. */
const LIMIT = 400;

for (const engine of engines) {
  test(`${engine.name}: every documented answer of every operation is what the API sends for a sample request`, async (t) => {
    const { server, alice, anonymous } = await startHttpFixture(await engine.freshUrl(), {
      background: { fulfilmentIntervalMs: 50 },
      rateLimit: { limit: LIMIT, windowSeconds: 86_400 },
    });
    t.teardown(() => server.close());
    const carol = alice.withHeaders({
      Authorization: `Bearer ${await server.createPartnerKey('Carol Over-the-limit')}`,
    });
    const document = (await anonymous.get(`${API}/openapi.json`)).body;
    const validate = openApiValidator();
    t.true(validate(document), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    // And by an established OpenAPI 3.1 parser, besides the project's own validator.
    const established = await validateOpenApi(structuredClone(document) as never);
    t.true(established.valid, established.valid ? '' : compileErrors(established));

    // A completed booking, for its voucher and ticket pages.
    const done = await alice.post(BOOKING, createBody(1, 0));
    await alice.put(`${BOOKING}/${done.body.bookingId}`, { status: 'PENDING', partnerReferenceId: 'DONE-1' });
    const completed = await eventually(
      () => alice.get(`${BOOKING}/${done.body.bookingId}`),
      (answer) => answer.body.status === 'COMPLETED',
    );
    const voucher = new URL(completed.body.voucherUrl).pathname.split('/').pop()!;
    const ticket = new URL(completed.body.tickets[0].url).pathname.split('/').pop()!;
    const booking = (await alice.post(BOOKING, createBody(1, 0))).body.bookingId;
    const table = samples({ booking, voucher, ticket });
    const overTheLimit = partnerRequests({ booking }).map((s) => ({ ...s, status: 429, limited: true }));
    // On PostgreSQL the limits are counted in the database: with its table gone, every partner operation answers 503.
    const storeFailures = server.sharedRateLimits
      ? partnerRequests({ booking }).map((s) => ({ ...s, status: 503 }))
      : [];

    t.deepEqual(
      [...new Set([...table, ...overTheLimit, ...storeFailures].map((s) => `${s.operation} ${s.status}`))].sort(),
      documentedAnswers(document).sort(),
      'a sample for every documented answer, and no answer left undocumented',
    );
    const check = answerChecker(document);
    const send = async (sample: Sample) => {
      const client = sample.anonymous ? anonymous : sample.limited ? carol : alice;
      const answer = await client.request(sample.method ?? 'GET', sample.path, sample.body, sample.headers);
      t.is(answer.status, sample.status, `${sample.operation} ${sample.path}: ${answer.text.slice(0, 300)}`);
      t.deepEqual(
        check(sample.operation, { status: answer.status, headers: answer.headers, body: answer.text }),
        [],
        `${sample.operation} ${sample.status}`,
      );
    };
    for (const sample of table) await send(sample);
    // Carol spends her whole bucket (a day's worth): each of her requests is then refused with 429.
    for (let sent = 0; sent < LIMIT; sent += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => carol.get(`${API}/product/p-walk`)));
      t.deepEqual([...new Set(answers.map((answer) => answer.status))], [200]);
    }
    for (const sample of overTheLimit) await send(sample);
    if (storeFailures.length > 0) {
      await sql`alter table rest_uws_rate_limits rename to rest_uws_rate_limits_away`.execute(
        server.system.database.db,
      );
      try {
        for (const sample of storeFailures) await send(sample);
      } finally {
        await sql`alter table rest_uws_rate_limits_away rename to rest_uws_rate_limits`.execute(
          server.system.database.db,
        );
      }
    }
  });
}
