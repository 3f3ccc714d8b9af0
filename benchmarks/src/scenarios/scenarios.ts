/**
 * The six scenarios of issue 8, each with the request wrk sends and the check every server must pass
 * (right status, right body, wrong input refused) before it is measured.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { SAMPLE_ORDER } from '../contract/order';
import {
  BEARER_TOKEN,
  BENCH_USER,
  HELLO_BODY,
  HELLO_PATH,
  MANY_ROUTES_COUNT,
  ME_PATH,
  ORDERS_PATH,
  STATIC_FILE_NAME,
  STATIC_FILE_SIZE,
  STATIC_PREFIX,
  STATS_PATH,
  manyRouteResponse,
  userResponse,
} from '../contract/routes';
import { expectConnectionKept, expectJson, expectStatus, request } from './http-check';
import { type Scenario, ScenarioCheckError, type ScenarioId } from './scenario';

export interface ScenarioFixtures {
  /** The 1 KB order body, as the file wrk posts. */
  orderFile: string;
  /** The 1 MB file servers stream. */
  staticFile: string;
}

async function readProfileViews(baseUrl: string, scenario: string): Promise<number> {
  const response = await request(`${baseUrl}${STATS_PATH}`);
  expectStatus(scenario, 'GET /stats', response, 200);
  const views = (JSON.parse(response.body.toString('utf8')) as { profileViews?: unknown }).profileViews;
  if (typeof views !== 'number') throw new ScenarioCheckError(scenario, 'GET /stats profileViews', 'a number', views);
  return views;
}

/** The event fires after the response, possibly a little later: wait for it briefly. */
async function waitForProfileViews(baseUrl: string, scenario: string, atLeast: number): Promise<number> {
  const deadline = Date.now() + 2000;
  let views = await readProfileViews(baseUrl, scenario);
  while (views < atLeast && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    views = await readProfileViews(baseUrl, scenario);
  }
  return views;
}

export function createScenarios(fixtures: ScenarioFixtures): Scenario[] {
  const orderJson = JSON.stringify(SAMPLE_ORDER);
  const jsonHeaders = { 'Content-Type': 'application/json' };
  const lastRoute = MANY_ROUTES_COUNT - 1;

  return [
    {
      id: 1,
      key: 'hello',
      title: 'GET /hello (small JSON)',
      method: 'GET',
      path: HELLO_PATH,
      headers: {},
      pipelined: true,
      async check(baseUrl) {
        expectJson('hello', 'GET /hello', await request(`${baseUrl}${HELLO_PATH}`), HELLO_BODY);
      },
    },
    {
      id: 2,
      key: 'user',
      title: 'GET /users/{id}?fields=a,b (path + query)',
      method: 'GET',
      path: '/users/42?fields=a,b',
      headers: {},
      pipelined: true,
      async check(baseUrl) {
        const response = await request(`${baseUrl}/users/42?fields=a,b`);
        expectStatus('user', 'GET /users/42?fields=a,b', response, 200);
        expectJson('user', 'GET /users/42?fields=a,b', response, userResponse(42, ['a', 'b']));
        expectStatus('user', 'GET /users/not-a-number', await request(`${baseUrl}/users/not-a-number`), 400);
      },
    },
    {
      id: 3,
      key: 'order',
      title: 'POST /orders (1 KB JSON, validated, 201)',
      method: 'POST',
      path: ORDERS_PATH,
      headers: jsonHeaders,
      bodyFile: fixtures.orderFile,
      pipelined: true,
      async check(baseUrl) {
        const url = `${baseUrl}${ORDERS_PATH}`;
        const created = await request(url, { method: 'POST', headers: jsonHeaders, body: orderJson });
        expectStatus('order', 'POST /orders (valid)', created, 201);
        expectJson('order', 'POST /orders (valid)', created, SAMPLE_ORDER);
        const badQuantity = { ...SAMPLE_ORDER, items: [{ ...SAMPLE_ORDER.items[0], quantity: 0 }] };
        expectStatus(
          'order',
          'POST /orders (quantity 0)',
          await request(url, { method: 'POST', headers: jsonHeaders, body: JSON.stringify(badQuantity) }),
          400,
        );
        const { shippingAddress: _dropped, ...noAddress } = SAMPLE_ORDER;
        expectStatus(
          'order',
          'POST /orders (no shippingAddress)',
          await request(url, { method: 'POST', headers: jsonHeaders, body: JSON.stringify(noAddress) }),
          400,
        );
        expectStatus(
          'order',
          'POST /orders (bad JSON)',
          await request(url, { method: 'POST', headers: jsonHeaders, body: '{"customerId":' }),
          400,
        );
        const refused = { url, method: 'POST', headers: jsonHeaders, body: JSON.stringify(badQuantity) };
        await expectConnectionKept('order', 'POST /orders (quantity 0)', refused, `${baseUrl}${HELLO_PATH}`);
      },
    },
    {
      id: 4,
      key: 'static',
      title: `GET ${STATIC_PREFIX}/${STATIC_FILE_NAME} (streamed file)`,
      method: 'GET',
      path: `${STATIC_PREFIX}/${STATIC_FILE_NAME}`,
      headers: {},
      pipelined: false,
      async check(baseUrl) {
        const response = await request(`${baseUrl}${STATIC_PREFIX}/${STATIC_FILE_NAME}`);
        expectStatus('static', `GET ${STATIC_PREFIX}/${STATIC_FILE_NAME}`, response, 200);
        if (response.body.length !== STATIC_FILE_SIZE)
          throw new ScenarioCheckError('static', 'body length', STATIC_FILE_SIZE, response.body.length);
        const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex');
        const expected = digest(fs.readFileSync(fixtures.staticFile));
        if (digest(response.body) !== expected)
          throw new ScenarioCheckError('static', 'body sha256', expected, digest(response.body));
      },
    },
    {
      id: 5,
      key: 'auth',
      title: 'GET /me (Bearer token, event after response)',
      method: 'GET',
      path: ME_PATH,
      headers: { Authorization: `Bearer ${BEARER_TOKEN}` },
      pipelined: true,
      async check(baseUrl) {
        const url = `${baseUrl}${ME_PATH}`;
        expectStatus('auth', 'GET /me without a token', await request(url), 401);
        expectStatus(
          'auth',
          'GET /me with a wrong token',
          await request(url, { headers: { Authorization: 'Bearer wrong' } }),
          401,
        );
        const before = await readProfileViews(baseUrl, 'auth');
        const response = await request(url, { headers: { Authorization: `Bearer ${BEARER_TOKEN}` } });
        expectStatus('auth', 'GET /me with the token', response, 200);
        expectJson('auth', 'GET /me with the token', response, BENCH_USER);
        const after = await waitForProfileViews(baseUrl, 'auth', before + 1);
        if (after !== before + 1)
          throw new ScenarioCheckError('auth', 'profile.viewed events after one GET /me', before + 1, after);
      },
      stateBeforeLoad: (baseUrl) => readProfileViews(baseUrl, 'auth'),
      async checkAfterLoad(baseUrl, requestsSent, before) {
        const wanted = (before as number) + requestsSent;
        const after = await waitForProfileViews(baseUrl, 'auth', wanted);
        if (after < wanted)
          throw new ScenarioCheckError(
            'auth',
            'profile.viewed events after the load (one per answered request)',
            `>= ${wanted}`,
            after,
          );
      },
    },
    {
      id: 6,
      key: 'routes',
      title: `1,000 routes, GET /r${lastRoute}/items/42 (the last)`,
      method: 'GET',
      path: `/r${lastRoute}/items/42`,
      headers: {},
      pipelined: true,
      async check(baseUrl) {
        expectJson(
          'routes',
          `GET /r${lastRoute}/items/42`,
          await request(`${baseUrl}/r${lastRoute}/items/42`),
          manyRouteResponse(lastRoute, '42'),
        );
        expectJson('routes', 'GET /r0/items/7', await request(`${baseUrl}/r0/items/7`), manyRouteResponse(0, '7'));
        expectStatus(
          'routes',
          `GET /r${MANY_ROUTES_COUNT}/items/1 (not registered)`,
          await request(`${baseUrl}/r${MANY_ROUTES_COUNT}/items/1`),
          404,
        );
      },
    },
  ];
}

export const ALL_SCENARIO_IDS: ScenarioId[] = [1, 2, 3, 4, 5, 6];
