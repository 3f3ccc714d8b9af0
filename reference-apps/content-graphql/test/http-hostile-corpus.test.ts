import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import {
  baseParts,
  buildCorpus,
  corpusSeed,
  extraRoute,
  formatCorpusReport,
  headerOf,
  routesFromOpenApi,
  runCorpus,
  sortFailures,
  snapshotDatabase,
  toRequest,
  type CorpusCase,
  type RawAnswer,
  type RouteSample,
} from 'app-support/testing';
import { DEFAULT_MAX_REQUEST_BYTES, OPENAPI_PATH } from '../src/app';
import { expandScope } from '../src/domain/access/scope';
import { startContentServer } from '../src/server';

// The hostile-input corpus (docs/reliability/hostile-input.md) against every route of content-graphql, read from the OpenAPI
// document rest.uws makes of the app: the GraphQL endpoint (GET, POST, OPTIONS), asset files, GraphiQL, the admin API.
// Each answer must be a 4xx (or GraphQL's 200 with errors and no data) saying what was wrong, or a 2xx for valid
// input; never a 5xx, a hang or a crash; a refused request leaves every table as it was.

const ADMIN_KEY = 'admin-key-for-the-corpus-0123456789';

/** GraphQL's own refusal: a 200 whose body has errors and no data (the CMS's answers to application/json). */
function graphqlRefusal(answer: RawAnswer): boolean {
  if (!/json/.test(headerOf(answer, 'content-type') ?? '')) return false;
  try {
    const body = JSON.parse(answer.body.toString('utf8')) as { data?: unknown; errors?: unknown[] };
    return Array.isArray(body.errors) && body.errors.length > 0 && (body.data === undefined || body.data === null);
  } catch {
    return false;
  }
}

test('content-graphql: every route holds against the hostile-input corpus (SQLite)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'content-corpus-'));
  // The GraphQL rate limit as shipped, but far above the corpus's thousands of requests from one address (its own
  // tests are in http-operations).
  const server = await startContentServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'content.db'),
    assetsRoot: join(dir, 'assets'),
    adminKey: ADMIN_KEY,
    settings: { changePollMs: 0 },
    rateLimit: { limit: 1_000_000 },
  });
  t.teardown(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  // What the samples and the token cases point at.
  const { access, store } = server.service;
  const catalog = await store.catalog();
  const schema = await access.createSchema('Corpus news', expandScope(['entrytypes.news.article'], catalog));
  const { record: token } = await access.createToken({ name: 'corpus', schemaId: schema.id });
  const spareSchema = await access.createSchema('Corpus spare', expandScope(['entrytypes.blog.post'], catalog));
  const { record: spareToken } = await access.createToken({ name: 'corpus-spare', schemaId: schema.id });
  const expired = await access.createToken({
    name: 'corpus-expired',
    schemaId: schema.id,
    expiryDate: '2020-01-01T00:00:00Z',
  });
  const disabled = await access.createToken({ name: 'corpus-disabled', schemaId: schema.id, enabled: false });
  const deleted = await access.createToken({ name: 'corpus-deleted', schemaId: schema.id });
  await access.deleteToken(deleted.record.id);
  const asset = (await (
    await fetch(`${server.url}/api?query=${encodeURIComponent('{ asset(filename: "boats.png") { url } }')}`)
  ).json()) as { data: { asset: { url: string } } };
  const assetPath = new URL(asset.data.asset.url).pathname.replace(/^\/assets\//, '');
  const element = await store.db
    .selectFrom('elements')
    .innerJoin('entries', 'entries.id', 'elements.id')
    .select('elements.id')
    .orderBy('elements.id')
    .executeTakeFirstOrThrow();

  // The routes, from the document the app serves; GraphiQL and the document itself are not operations of the API
  // (left out of it), attacked all the same.
  const document = await (await fetch(`${server.url}${OPENAPI_PATH}`)).json();
  const routes = routesFromOpenApi(document, [
    extraRoute('GET', '/graphiql'),
    extraRoute('GET', '/graphiql/assets/{name}'),
    extraRoute('GET', OPENAPI_PATH),
  ]);
  const query = 'query One($slug: [String]) { entry(slug: $slug) { title } } query Two { ping }';
  const samples: Record<string, RouteSample> = {
    'GET /api': {
      query: { query: '{ entries(limit: 2) { title } }' },
      extraQueryParams: ['query', 'variables', 'operationName'],
    },
    'POST /api': {
      body: { query, variables: { slug: 'about-us' }, operationName: 'One' },
      bodyTypes: ['application/json', 'application/graphql'],
      extraQueryParams: ['query', 'operationName'],
    },
    'GET /assets/{file}': { path: { file: assetPath } },
    'GET /graphiql/assets/{name}': { path: { name: 'graphiql.min.css' } },
    'PUT /admin/elements/{id}': { path: { id: String(element.id) }, body: { title: 'Edited by the corpus' } },
    'POST /admin/elements/{id}/enable': { path: { id: String(element.id) } },
    'POST /admin/elements/{id}/disable': { path: { id: String(element.id) } },
    'POST /admin/schemas': { body: { name: 'Made by the corpus', scope: ['sections.news'] } },
    'PUT /admin/schemas/{id}/scope': { path: { id: String(schema.id) }, body: { scope: ['entrytypes.news.article'] } },
    'DELETE /admin/schemas/{id}': { path: { id: String(spareSchema.id) } },
    'POST /admin/tokens': {
      body: { name: 'made-by-the-corpus', schemaId: schema.id, expiryDate: '2031-01-01T00:00:00Z' },
    },
    'POST /admin/tokens/{id}/enable': { path: { id: String(token.id) } },
    'POST /admin/tokens/{id}/disable': { path: { id: String(token.id) } },
    'DELETE /admin/tokens/{id}': { path: { id: String(spareToken.id) } },
  };
  const plan = {
    routes,
    document,
    sample: (route: { key: string }) => samples[route.key],
    auth: {
      appliesTo: (route: { template: string }) => route.template.startsWith('/admin'),
      valid: [['X-Admin-Key', ADMIN_KEY] as const],
    },
    bodyLimit: DEFAULT_MAX_REQUEST_BYTES,
    seed: corpusSeed(),
  };
  // GraphQL tokens used once and no longer valid: expired, disabled, deleted; and tokens in forms the endpoint refuses.
  const tokenCases: CorpusCase[] = routes
    .filter((route) => route.template === '/api' && route.method !== 'OPTIONS')
    .flatMap((route) =>
      [
        ['an expired token', `Bearer ${expired.token}`],
        ['a disabled token', `Bearer ${disabled.token}`],
        ['a deleted token', `Bearer ${deleted.token}`],
        ['an unknown token', 'Bearer 0123456789abcdef0123456789abcdef'],
        ['a token with unicode', 'Bearer t\u00f6ken\u{1F511}'],
      ].map(([name, authorization]): CorpusCase => {
        const parts = baseParts(plan, route);
        parts.auth = [['Authorization', authorization]];
        return { kind: 'tokens', route: route.key, name, expect: 'refused', request: toRequest(route, parts) };
      }),
    );
  const cases = [...buildCorpus(plan), ...tokenCases];

  const report = await runCorpus({
    app: 'content-graphql',
    host: '127.0.0.1',
    port: server.port,
    cases,
    seed: plan.seed,
    snapshot: () => snapshotDatabase(store.db, { dialect: 'sqlite' }),
    refusedWithSuccess: graphqlRefusal,
    health: { method: 'GET', target: `/api?query=${encodeURIComponent('{ping}')}`, headers: [] },
  });
  t.log(formatCorpusReport(report));
  const { unexpected, fixed, setAside } = sortFailures(report, []);
  t.log(`${setAside} failure(s) set aside as pending framework holes`);
  t.deepEqual(unexpected.slice(0, 40), [], `${unexpected.length} failure(s)`);
  t.deepEqual(fixed, [], 'pending holes no longer found: remove them from the list, so the corpus guards the fix');
  t.true(routes.length >= 17, routes.map((route) => route.key).join(', '));
  t.true(report.cases > 1000, `only ${report.cases} cases`);
});
