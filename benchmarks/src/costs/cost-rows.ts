/**
 * The rows of the cost table: which server process answers (an "app": the costs server built one way, or raw
 * uWebSockets.js), what wrk sends, which row the marginal cost is taken against, whether the feature does
 * inherent work for that request, and the check that proves the feature is in effect before it is measured.
 */
import { HELLO_BODY } from '../contract/routes';
import { expectJson, expectStatus, request } from '../scenarios/http-check';
import { ScenarioCheckError } from '../scenarios/scenario';
import { COST_VALUES } from './cost-values';

/** How the costs server is built (BENCH_COSTS_APP), or `raw` for raw uWebSockets.js's /hello. */
export type CostApp =
  | 'raw'
  | 'routes'
  | 'cors'
  | 'logging'
  | 'logging-level-off'
  | 'global-handler'
  | 'plugin'
  | 'tracing-off'
  | 'opentelemetry';
export const COST_APPS: CostApp[] = [
  'raw',
  'routes',
  'cors',
  'logging',
  'logging-level-off',
  'global-handler',
  'plugin',
  'tracing-off',
  'opentelemetry',
];

export interface CostRow {
  id: string;
  /** What the feature is, as the table shows it. */
  feature: string;
  /** What the request carries that matters to the feature. */
  request: string;
  app: CostApp;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** POST body (written to a file for wrk). */
  body?: string;
  /** The row whose CPU per request is subtracted (the bare route unless the feature needs another reference). */
  against: string;
  /** Does the feature do work this request needs (read a value, convert, validate, log)? Without it, the goal is <= 0.3 µs. */
  inherentWork: boolean;
  /** Is the row measured in pipelined mode too? */
  pipelined: boolean;
  check(baseUrl: string): Promise<void>;
}

export const RAW_ROW = 'raw';
export const BARE_ROW = 'bare';
/** The marginal-cost goal for features that do no inherent work for the request (issue 21). */
export const NO_WORK_LIMIT_US = 0.3;

const json = { 'Content-Type': 'application/json' };
const personJson = JSON.stringify(COST_VALUES.person);
const orderJson = JSON.stringify(COST_VALUES.order);
/** Scenario 3's order with a wrong currency and a quantity of 0: refused by every validator of the order rows. */
const badOrderJson = JSON.stringify({
  ...COST_VALUES.order,
  currency: 'XXX',
  items: [{ ...COST_VALUES.order.items[0], quantity: 0 }],
});

/** A row posting scenario 3's order to `path`, refused with 400 when invalid unless `validates` is false. */
function orderRow(id: string, feature: string, path: string, against: string, validates: boolean): CostRow {
  return {
    id,
    feature,
    request: 'POST scenario 3 order (1 KB)',
    app: 'routes',
    method: 'POST',
    path,
    headers: json,
    body: orderJson,
    against,
    inherentWork: true,
    pipelined: true,
    async check(baseUrl) {
      await expectHello(id, baseUrl, path, { method: 'POST', headers: json, body: orderJson });
      if (validates) await expectRefused(id, baseUrl, path, 400, { method: 'POST', headers: json, body: badOrderJson });
    },
  };
}

async function expectHello(row: string, baseUrl: string, path: string, init: RequestInit = {}): Promise<void> {
  expectJson(row, `${init.method ?? 'GET'} ${path}`, await request(`${baseUrl}${path}`, init), HELLO_BODY);
}

async function expectRefused(
  row: string,
  baseUrl: string,
  path: string,
  status: number,
  init: RequestInit = {},
): Promise<void> {
  expectStatus(
    row,
    `${init.method ?? 'GET'} ${path} (${status} expected)`,
    await request(`${baseUrl}${path}`, init),
    status,
  );
}

function expectHeader(
  row: string,
  what: string,
  headers: Record<string, string>,
  name: string,
  wanted: string | undefined,
): void {
  if (headers[name] !== wanted)
    throw new ScenarioCheckError(row, `${what}: header ${name}`, wanted ?? '(absent)', headers[name] ?? '(absent)');
}

/** A GET row on the bare route of another app: the app-wide feature is the only difference. */
function appRow(
  id: string,
  feature: string,
  app: CostApp,
  inherentWork: boolean,
  check: CostRow['check'],
  headers: Record<string, string> = {},
  requestText = 'GET, no extra header',
): CostRow {
  return {
    id,
    feature,
    request: requestText,
    app,
    method: 'GET',
    path: '/bare',
    headers,
    against: BARE_ROW,
    inherentWork,
    pipelined: true,
    check,
  };
}

/** A GET route of the routes app. */
function routeRow(
  id: string,
  feature: string,
  path: string,
  inherentWork: boolean,
  options: Partial<CostRow> & { check?: CostRow['check'] } = {},
): CostRow {
  const headers = options.headers ?? {};
  return {
    id,
    feature,
    request: options.request ?? 'GET, no extra header',
    app: 'routes',
    method: 'GET',
    path,
    headers,
    against: BARE_ROW,
    inherentWork,
    pipelined: true,
    ...options,
    check: options.check ?? ((baseUrl) => expectHello(id, baseUrl, path, { headers })),
  };
}

export function costRows(): CostRow[] {
  const query = `?page=${COST_VALUES.page}`;
  return [
    {
      id: RAW_ROW,
      feature: 'raw uWebSockets.js (`GET /hello`, hand-written)',
      request: 'GET',
      app: 'raw',
      method: 'GET',
      path: '/hello',
      headers: {},
      against: RAW_ROW,
      inherentWork: false,
      pipelined: true,
      check: (baseUrl) => expectHello(RAW_ROW, baseUrl, '/hello'),
    },
    routeRow(BARE_ROW, 'bare route (`@GET @Path`, returns an object)', '/bare', false),
    routeRow('produces-one', "`@Produces('application/json')`", '/produces-one', false),
    routeRow('produces-one-accept', "`@Produces('application/json')`, client sends Accept", '/produces-one', true, {
      headers: { Accept: 'application/json' },
      request: 'Accept: application/json',
    }),
    // Inherent work: the answer depends on Accept, so it says `Vary: Accept` for caches.
    routeRow('produces-many', "`@Produces('application/json', 'text/plain')`", '/produces-many', true, {
      async check(baseUrl) {
        await expectHello('produces-many', baseUrl, '/produces-many');
        const text = await request(`${baseUrl}/produces-many`, { headers: { Accept: 'text/plain' } });
        if (!text.contentType.startsWith('text/plain'))
          throw new ScenarioCheckError(
            'produces-many',
            'Accept: text/plain content-type',
            'text/plain',
            text.contentType,
          );
        if (text.headers.vary !== 'Accept')
          throw new ScenarioCheckError('produces-many', 'Vary', 'Accept', text.headers.vary);
      },
    }),
    routeRow('consumes-get', "`@Consumes('application/json')` on a GET", '/consumes', false),
    routeRow('header-param', '`@HeaderParam` (string)', '/header-param', true, {
      headers: { 'X-Request-Id': COST_VALUES.requestId },
      request: 'X-Request-Id header',
      async check(baseUrl) {
        await expectHello('header-param', baseUrl, '/header-param', {
          headers: { 'X-Request-Id': COST_VALUES.requestId },
        });
        await expectRefused('header-param', baseUrl, '/header-param', 400);
      },
    }),
    routeRow('cookie-param', '`@CookieParam` (string)', '/cookie-param', true, {
      headers: { Cookie: `session=${COST_VALUES.session}` },
      request: 'Cookie header',
      async check(baseUrl) {
        await expectHello('cookie-param', baseUrl, '/cookie-param', {
          headers: { Cookie: `session=${COST_VALUES.session}` },
        });
        await expectRefused('cookie-param', baseUrl, '/cookie-param', 400);
      },
    }),
    routeRow('query-param', '`@QueryParam` converted to a number', `/query-param${query}`, true, {
      request: `query \`${query}\``,
      async check(baseUrl) {
        await expectHello('query-param', baseUrl, `/query-param${query}`);
        await expectRefused('query-param', baseUrl, '/query-param?page=x', 400);
      },
    }),
    routeRow('default-value', "`@QueryParam` + `@DefaultValue('20')`, value absent", '/default-value', true),
    routeRow('context-request', '`@Context()` HttpServerRequest', '/context-request', false),
    routeRow('context-response', '`@Context()` HttpServerResponse', '/context-response', false),
    routeRow('context-routing', '`@Context()` RoutingContext', '/context-routing', false),
    routeRow('bean-param', '`@BeanParam` (two `@QueryParam` fields, one defaulted)', `/bean-param${query}`, true, {
      request: `query \`${query}\``,
    }),
    {
      id: 'post-body',
      feature: '`@BodyParam` JSON, no validation (reference for `@Valid`)',
      request: `POST ${personJson}`,
      app: 'routes',
      method: 'POST',
      path: '/post-body',
      headers: json,
      body: personJson,
      against: BARE_ROW,
      inherentWork: true,
      pipelined: true,
      check: (baseUrl) =>
        expectHello('post-body', baseUrl, '/post-body', { method: 'POST', headers: json, body: personJson }),
    },
    {
      id: 'valid',
      feature: '`@Valid` small DTO (2 fields), against the unvalidated body',
      request: `POST ${personJson}`,
      app: 'routes',
      method: 'POST',
      path: '/valid',
      headers: json,
      body: personJson,
      against: 'post-body',
      inherentWork: true,
      pipelined: true,
      async check(baseUrl) {
        await expectHello('valid', baseUrl, '/valid', { method: 'POST', headers: json, body: personJson });
        await expectRefused('valid', baseUrl, '/valid', 400, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: '', age: -1 }),
        });
      },
    },
    orderRow(
      'order-body',
      '`@BodyParam` scenario 3 order, no validation (reference for the order rows)',
      '/order-body',
      BARE_ROW,
      false,
    ),
    orderRow(
      'order-valid',
      '`@Valid` scenario 3 order (compiled class-validator), against the unvalidated order',
      '/order-valid',
      'order-body',
      true,
    ),
    orderRow(
      'order-zod',
      '`@Valid(schema)` scenario 3 order, Zod 4, against `@Valid` (class-validator)',
      '/order-zod',
      'order-valid',
      true,
    ),
    orderRow(
      'order-valibot',
      '`@Valid(schema)` scenario 3 order, Valibot, against `@Valid` (class-validator)',
      '/order-valibot',
      'order-valid',
      true,
    ),
    orderRow(
      'order-arktype',
      '`@Valid(schema)` scenario 3 order, ArkType, against `@Valid` (class-validator)',
      '/order-arktype',
      'order-valid',
      true,
    ),
    routeRow('auth', "`@Authenticate(bearer)` + `@RolesAllowed('reader')`", '/auth', true, {
      headers: { Authorization: `Bearer ${COST_VALUES.token}` },
      request: 'Authorization: Bearer',
      async check(baseUrl) {
        await expectHello('auth', baseUrl, '/auth', { headers: { Authorization: `Bearer ${COST_VALUES.token}` } });
        await expectRefused('auth', baseUrl, '/auth', 401);
      },
    }),
    routeRow('event', '`@Event` (runs after the response)', '/event', true, {
      async check(baseUrl) {
        const count = async () =>
          (JSON.parse((await request(`${baseUrl}/events-count`)).body.toString('utf8')) as { count: number }).count;
        const before = await count();
        await expectHello('event', baseUrl, '/event');
        const deadline = Date.now() + 2000;
        while ((await count()) < before + 1 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 10));
        if ((await count()) !== before + 1)
          throw new ScenarioCheckError('event', 'events after one request', before + 1, await count());
      },
    }),
    routeRow('response-headers', '`Response.ok(entity).header(...)` x2', '/response-headers', true, {
      async check(baseUrl) {
        const response = await request(`${baseUrl}/response-headers`);
        expectJson('response-headers', 'GET /response-headers', response, HELLO_BODY);
        expectHeader('response-headers', 'GET /response-headers', response.headers, 'cache-control', 'no-store');
      },
    }),
    routeRow('async', '`async` handler (resolves at once)', '/async', true),
    appRow('cors-same-origin', 'CORS on (`enableCors`), request without Origin', 'cors', false, async (baseUrl) => {
      const response = await request(`${baseUrl}/bare`);
      expectJson('cors-same-origin', 'GET /bare', response, HELLO_BODY);
      expectHeader(
        'cors-same-origin',
        'GET /bare without Origin',
        response.headers,
        'access-control-allow-origin',
        undefined,
      );
      const cross = await request(`${baseUrl}/bare`, { headers: { Origin: COST_VALUES.origin } });
      expectHeader(
        'cors-same-origin',
        'GET /bare with Origin',
        cross.headers,
        'access-control-allow-origin',
        COST_VALUES.origin,
      );
    }),
    appRow(
      'cors-cross-origin',
      'CORS on, request with an allowed Origin',
      'cors',
      true,
      async (baseUrl) => {
        const cross = await request(`${baseUrl}/bare`, { headers: { Origin: COST_VALUES.origin } });
        expectHeader(
          'cors-cross-origin',
          'GET /bare with Origin',
          cross.headers,
          'access-control-allow-origin',
          COST_VALUES.origin,
        );
      },
      { Origin: COST_VALUES.origin },
      'Origin header',
    ),
    appRow('logging', 'request logging on (`logRequests()`, pino JSON lines to stdout)', 'logging', true, (baseUrl) =>
      expectHello('logging', baseUrl, '/bare'),
    ),
    appRow(
      'logging-level-off',
      "`logRequests({ level: 'debug' })` with the logger at info (level off)",
      'logging-level-off',
      false,
      (baseUrl) => expectHello('logging-level-off', baseUrl, '/bare'),
    ),
    appRow(
      'global-handler',
      'a global exception handler (`errorHandler`), nothing thrown',
      'global-handler',
      false,
      (baseUrl) => expectHello('global-handler', baseUrl, '/bare'),
    ),
    appRow('plugin', 'a plugin (`builder.use`) that no route uses', 'plugin', false, (baseUrl) =>
      expectHello('plugin', baseUrl, '/bare'),
    ),
    appRow(
      'tracing-off',
      'tracing channels, no subscriber (one subscribed and left at start)',
      'tracing-off',
      false,
      (baseUrl) => expectHello('tracing-off', baseUrl, '/bare'),
    ),
    appRow(
      'opentelemetry',
      'OpenTelemetry plugin on (`openTelemetry()`, SDK span and metrics)',
      'opentelemetry',
      true,
      async (baseUrl) => {
        await expectHello('opentelemetry', baseUrl, '/bare');
        // The plugin is in effect: the request just made is counted under its route.
        const metrics = await request(`${baseUrl}/metrics`);
        expectStatus('opentelemetry', 'GET /metrics', metrics, 200);
        const text = metrics.body.toString('utf8');
        if (!/^http_server_request_duration_seconds_count\{[^}]*http_route="\/bare"[^}]*\} [1-9]/m.test(text))
          throw new ScenarioCheckError(
            'opentelemetry',
            'GET /metrics counts GET /bare',
            'a count >= 1',
            text.slice(0, 400),
          );
      },
    ),
  ];
}
