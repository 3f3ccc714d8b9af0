// Who may read /metrics (openTelemetry's metricsAccess), checked by trying to read it without the right credentials.
import test from 'ava';
import { CODE } from '../../src/plugin';
import {
  type AuthorizationProvider,
  BearerAuthenticationProvider,
  GET,
  openTelemetry,
  type OpenTelemetryOptions,
  Path,
  RestBuilder,
  startServer,
  User,
} from '../../src/index';
import { parsePrometheusText } from './prometheus-text';

@Path('/items')
class Items {
  @GET
  list() {
    return [];
  }
}

const SCRAPE_TOKEN = 'scrape-0123456789abcdef';
const ALICE_TOKEN = 'alice-0123456789abcdef';
const BOB_TOKEN = 'bob-0123456789abcdef';

/** The app's own authorization: admins only, so a request it was asked about and refused answers 403. */
const adminsOnly: AuthorizationProvider = { getId: () => 'admins', getAuthorizations: (user) => user.hasRole('admin') };

/** An app with its own bearer authentication (alice is an admin, bob a customer) and the plugin as `options` says. */
async function appWith(options: OpenTelemetryOptions, authorize = false) {
  let builder = new RestBuilder().authenticateWith(
    BearerAuthenticationProvider.fromTokens({
      [ALICE_TOKEN]: new User('alice', ['admin', 'ops']),
      [BOB_TOKEN]: new User('bob', ['customer']),
    }),
  );
  if (authorize) builder = builder.authorizeWith(adminsOnly);
  const server = await startServer(builder.use(openTelemetry(options)).register(Items), {
    port: 0,
    host: '127.0.0.1',
  });
  const base = `http://127.0.0.1:${server.port}`;
  return {
    server,
    get: (path: string, authorization?: string) =>
      fetch(`${base}${path}`, { headers: authorization === undefined ? {} : { authorization } }),
  };
}

/** Whether an answer gave the metrics away. */
const revealsMetrics = (text: string) => text.includes('http_server_request_duration_seconds');

test('token: only the scraper token reads the metrics; the app credentials and guesses get 401', async (t) => {
  const app = await appWith({ metricsPath: '/metrics', metricsAccess: { token: SCRAPE_TOKEN } }, true);
  t.teardown(() => app.server.shutdown());
  await app.get('/items', `Bearer ${ALICE_TOKEN}`);

  const none = await app.get('/metrics');
  t.is(none.status, 401);
  t.is(none.headers.get('www-authenticate'), 'Bearer realm="metrics"');
  t.false(revealsMetrics(await none.text()));
  for (const authorization of [
    `Bearer ${SCRAPE_TOKEN.slice(0, -1)}x`, // one character off
    `Bearer ${SCRAPE_TOKEN}x`, // the token and more
    `Bearer ${SCRAPE_TOKEN.slice(0, 16)}`, // a prefix
    `Bearer ${ALICE_TOKEN}`, // the app's own credentials: not the scraper's
    `Basic ${Buffer.from(`x:${SCRAPE_TOKEN}`).toString('base64')}`,
    SCRAPE_TOKEN, // no scheme
  ]) {
    const res = await app.get('/metrics', authorization);
    t.is(res.status, 401, authorization);
    t.false(revealsMetrics(await res.text()), authorization);
  }
  t.is(
    (await app.get('/metrics', `Bearer ${ALICE_TOKEN}`)).headers.get('www-authenticate'),
    'Bearer realm="metrics", error="invalid_token"',
  );

  // The scheme is case-insensitive (RFC 9110); the app's authorizer, which knows no scraper, is not asked.
  const scraped = await app.get('/metrics', `bearer ${SCRAPE_TOKEN}`);
  t.is(scraped.status, 200);
  const text = await scraped.text();
  t.true(parsePrometheusText(text).has('http_server_request_duration_seconds'), text);
  t.true(text.includes('http_route="/items"'));

  // The scraper token opens nothing else of the app.
  t.is((await app.get('/items', `Bearer ${SCRAPE_TOKEN}`)).status, 401);
  t.is((await app.get('/items', `Bearer ${ALICE_TOKEN}`)).status, 200);
});

test('roles: users of the app authentication with one of the roles; others 403, no user 401', async (t) => {
  const app = await appWith({ metricsPath: '/ops/metrics', metricsAccess: { roles: ['ops'] } });
  t.teardown(() => app.server.shutdown());
  t.is((await app.get('/ops/metrics')).status, 401);
  t.is((await app.get('/ops/metrics', 'Bearer not-a-known-token-at-all')).status, 401);
  const customer = await app.get('/ops/metrics', `Bearer ${BOB_TOKEN}`);
  t.is(customer.status, 403);
  t.false(revealsMetrics(await customer.text()));
  const ops = await app.get('/ops/metrics', `Bearer ${ALICE_TOKEN}`);
  t.is(ops.status, 200);
  t.true(revealsMetrics(await ops.text()));
});

test("public: anyone reads the metrics, whatever the app's authentication", async (t) => {
  const app = await appWith({ metricsPath: '/metrics', metricsAccess: 'public' });
  t.teardown(() => app.server.shutdown());
  const res = await app.get('/metrics');
  t.is(res.status, 200);
  t.true(revealsMetrics(await res.text()));
  t.is((await app.get('/items')).status, 401);
});

test('the access choice is checked when the plugin is made', (t) => {
  const refused = (options: object, message: RegExp) =>
    t.throws(
      () => openTelemetry(options as OpenTelemetryOptions),
      { code: CODE.RU_ERR_PLUGIN, message },
      message.source,
    );
  refused({ metricsPath: '/metrics' }, /metricsPath needs metricsAccess/);
  refused({ metricsAccess: 'public' }, /metricsAccess is given without metricsPath/);
  refused({ metricsPath: '/metrics', metricsAccess: 'open' }, /must be \{ token \}, \{ roles \} or 'public'/);
  refused({ metricsPath: '/metrics', metricsAccess: { token: 'short' } }, /at least 16 characters/);
  refused({ metricsPath: '/metrics', metricsAccess: { token: `${SCRAPE_TOKEN} x` } }, /bearer token syntax/);
  refused({ metricsPath: '/metrics', metricsAccess: { roles: [] } }, /non-empty array/);
  refused({ metricsPath: '/metrics', metricsAccess: { token: SCRAPE_TOKEN, roles: ['ops'] } }, /one key/);
});
