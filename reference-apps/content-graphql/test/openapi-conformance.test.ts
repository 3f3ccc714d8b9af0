import { compileErrors, validate as validateOpenApi } from '@readme/openapi-parser';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { sql } from 'kysely';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { answerChecker, documentedAnswers, openApiValidator } from 'app-support/testing';
import { OPENAPI_PATH } from '../src/app';
import { expandScope } from '../src/domain/access/scope';
import { startContentServer, type RunningContentServer } from '../src/server';
import { DIALECTS } from './helpers/content-fixture';

// The OpenAPI document content-graphql serves at /openapi.json validates as OpenAPI 3.1, and every answer it documents
// is what the server sends for a sample request: status, media type, body against its schema, documented headers.

const KEY = 'admin-key-for-the-conformance-test';
/** The GraphQL limit of the test's server: above what the samples send without a token, reached by one token. */
const LIMIT = 50;

/** One request whose answer must be the documented `status` of `operation`. */
interface Sample {
  operation: string;
  status: number;
  path: string;
  method?: string;
  /** Sent as JSON (an object) or as it is (a string, with its own Content-Type). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent to the server without an admin key and with the GraphQL API disabled. */
  disabled?: boolean;
}

const json = { 'Content-Type': 'application/json' };
const admin = { 'X-Admin-Key': KEY };
const adminJson = { ...admin, ...json };
const query = (text: string) => `/api?query=${encodeURIComponent(text)}`;
const HUGE = JSON.stringify({ query: '{ ping }', filler: 'x'.repeat(300 * 1024) });
const LONG_URL = `/api?query=${encodeURIComponent(`{ ping ${' '.repeat(5000)}}`)}`;

interface Ids {
  element: number;
  schema: number;
  spareSchema: number;
  publicSchema: number;
  token: number;
  spareToken: number;
  publicToken: number;
  asset: string;
}

function samples(ids: Ids): Sample[] {
  const el = `/admin/elements/${ids.element}`;
  return [
    { operation: 'GET /api', status: 200, path: query('{ entries(limit: 2) { title } }') },
    { operation: 'GET /api', status: 400, path: `${query('{ ping }')}&variables=${encodeURIComponent('{not json')}` },
    { operation: 'GET /api', status: 404, path: query('{ ping }'), disabled: true },
    { operation: 'GET /api', status: 405, path: query('mutation { ping }') },
    { operation: 'GET /api', status: 414, path: LONG_URL },
    { operation: 'POST /api', status: 200, path: '/api', method: 'POST', body: { query: '{ globalSet { name } }' } },
    { operation: 'POST /api', status: 400, path: '/api', method: 'POST', body: '{"query": ', headers: json },
    { operation: 'POST /api', status: 404, path: '/api', method: 'POST', body: { query: '{ ping }' }, disabled: true },
    { operation: 'POST /api', status: 413, path: '/api', method: 'POST', body: HUGE, headers: json },
    { operation: 'POST /api', status: 414, path: LONG_URL, method: 'POST', body: { query: '{ ping }' } },
    {
      operation: 'POST /api',
      status: 415,
      path: '/api',
      method: 'POST',
      body: '{ ping }',
      headers: { 'Content-Type': 'text/plain' },
    },
    { operation: 'OPTIONS /api', status: 200, path: '/api', method: 'OPTIONS' },
    { operation: 'GET /assets/{file}', status: 200, path: `/assets/${ids.asset}` },
    { operation: 'GET /assets/{file}', status: 400, path: '/assets/images/%ff.png' },
    { operation: 'GET /assets/{file}', status: 404, path: '/assets/images/news/nothing.jpg' },

    {
      operation: 'PUT /admin/elements/{id}',
      status: 204,
      path: el,
      method: 'PUT',
      body: { title: 'Edited by the conformance test' },
      headers: admin,
    },
    {
      operation: 'PUT /admin/elements/{id}',
      status: 400,
      path: '/admin/elements/abc',
      method: 'PUT',
      body: { title: 'x' },
      headers: admin,
    },
    { operation: 'PUT /admin/elements/{id}', status: 401, path: el, method: 'PUT', body: { title: 'x' } },
    {
      operation: 'PUT /admin/elements/{id}',
      status: 403,
      path: el,
      method: 'PUT',
      body: { title: 'x' },
      headers: { 'X-Admin-Key': 'wrong' },
    },
    {
      operation: 'PUT /admin/elements/{id}',
      status: 404,
      path: '/admin/elements/999999',
      method: 'PUT',
      body: { title: 'x' },
      headers: admin,
    },
    { operation: 'PUT /admin/elements/{id}', status: 413, path: el, method: 'PUT', body: HUGE, headers: adminJson },
    {
      operation: 'PUT /admin/elements/{id}',
      status: 415,
      path: el,
      method: 'PUT',
      body: 'title=x',
      headers: { ...admin, 'Content-Type': 'application/x-www-form-urlencoded' },
    },
    ...(['enable', 'disable'] as const).flatMap((action): Sample[] => [
      {
        operation: `POST /admin/elements/{id}/${action}`,
        status: 204,
        path: `${el}/${action}`,
        method: 'POST',
        headers: admin,
      },
      {
        operation: `POST /admin/elements/{id}/${action}`,
        status: 400,
        path: `/admin/elements/x1/${action}`,
        method: 'POST',
        headers: admin,
      },
      { operation: `POST /admin/elements/{id}/${action}`, status: 401, path: `${el}/${action}`, method: 'POST' },
      {
        operation: `POST /admin/elements/{id}/${action}`,
        status: 403,
        path: `${el}/${action}`,
        method: 'POST',
        headers: { 'X-Admin-Key': 'wrong' },
      },
      {
        operation: `POST /admin/elements/{id}/${action}`,
        status: 404,
        path: `/admin/elements/999999/${action}`,
        method: 'POST',
        headers: admin,
      },
    ]),
    { operation: 'GET /admin/schemas', status: 200, path: '/admin/schemas', headers: admin },
    { operation: 'GET /admin/schemas', status: 401, path: '/admin/schemas' },
    { operation: 'GET /admin/schemas', status: 403, path: '/admin/schemas', headers: { 'X-Admin-Key': 'wrong' } },
    { operation: 'GET /admin/schemas', status: 404, path: '/admin/schemas', headers: admin, disabled: true },
    {
      operation: 'POST /admin/schemas',
      status: 201,
      path: '/admin/schemas',
      method: 'POST',
      body: { name: 'Made by the conformance test', scope: ['sections.news'] },
      headers: admin,
    },
    {
      operation: 'POST /admin/schemas',
      status: 400,
      path: '/admin/schemas',
      method: 'POST',
      body: { scope: [] },
      headers: admin,
    },
    {
      operation: 'POST /admin/schemas',
      status: 401,
      path: '/admin/schemas',
      method: 'POST',
      body: { name: 'x', scope: [] },
    },
    {
      operation: 'POST /admin/schemas',
      status: 403,
      path: '/admin/schemas',
      method: 'POST',
      body: { name: 'x', scope: [] },
      headers: { 'X-Admin-Key': 'wrong' },
    },
    {
      operation: 'POST /admin/schemas',
      status: 404,
      path: '/admin/schemas',
      method: 'POST',
      body: { name: 'x', scope: [] },
      headers: admin,
      disabled: true,
    },
    {
      operation: 'POST /admin/schemas',
      status: 409,
      path: '/admin/schemas',
      method: 'POST',
      body: { name: 'Made by the conformance test', scope: [] },
      headers: admin,
    },
    {
      operation: 'POST /admin/schemas',
      status: 413,
      path: '/admin/schemas',
      method: 'POST',
      body: HUGE,
      headers: adminJson,
    },
    {
      operation: 'POST /admin/schemas',
      status: 415,
      path: '/admin/schemas',
      method: 'POST',
      body: 'name=x',
      headers: { ...admin, 'Content-Type': 'text/plain' },
    },
    {
      operation: 'PUT /admin/schemas/{id}/scope',
      status: 200,
      path: `/admin/schemas/${ids.schema}/scope`,
      method: 'PUT',
      body: { scope: ['entrytypes.news.article'] },
      headers: admin,
    },
    {
      operation: 'PUT /admin/schemas/{id}/scope',
      status: 400,
      path: `/admin/schemas/${ids.schema}/scope`,
      method: 'PUT',
      body: { scope: 'everything' },
      headers: admin,
    },
    {
      operation: 'PUT /admin/schemas/{id}/scope',
      status: 401,
      path: `/admin/schemas/${ids.schema}/scope`,
      method: 'PUT',
      body: { scope: [] },
    },
    {
      operation: 'PUT /admin/schemas/{id}/scope',
      status: 403,
      path: `/admin/schemas/${ids.schema}/scope`,
      method: 'PUT',
      body: { scope: [] },
      headers: { 'X-Admin-Key': 'wrong' },
    },
    {
      operation: 'PUT /admin/schemas/{id}/scope',
      status: 404,
      path: '/admin/schemas/999999/scope',
      method: 'PUT',
      body: { scope: [] },
      headers: admin,
    },
    {
      operation: 'PUT /admin/schemas/{id}/scope',
      status: 413,
      path: `/admin/schemas/${ids.schema}/scope`,
      method: 'PUT',
      body: HUGE,
      headers: adminJson,
    },
    {
      operation: 'PUT /admin/schemas/{id}/scope',
      status: 415,
      path: `/admin/schemas/${ids.schema}/scope`,
      method: 'PUT',
      body: 'x',
      headers: { ...admin, 'Content-Type': 'text/csv' },
    },
    {
      operation: 'DELETE /admin/schemas/{id}',
      status: 204,
      path: `/admin/schemas/${ids.spareSchema}`,
      method: 'DELETE',
      headers: admin,
    },
    {
      operation: 'DELETE /admin/schemas/{id}',
      status: 400,
      path: '/admin/schemas/one',
      method: 'DELETE',
      headers: admin,
    },
    { operation: 'DELETE /admin/schemas/{id}', status: 401, path: `/admin/schemas/${ids.schema}`, method: 'DELETE' },
    {
      operation: 'DELETE /admin/schemas/{id}',
      status: 403,
      path: `/admin/schemas/${ids.schema}`,
      method: 'DELETE',
      headers: { 'X-Admin-Key': 'wrong' },
    },
    {
      operation: 'DELETE /admin/schemas/{id}',
      status: 404,
      path: '/admin/schemas/999999',
      method: 'DELETE',
      headers: admin,
    },
    {
      operation: 'DELETE /admin/schemas/{id}',
      status: 409,
      path: `/admin/schemas/${ids.publicSchema}`,
      method: 'DELETE',
      headers: admin,
    },
    { operation: 'GET /admin/tokens', status: 200, path: '/admin/tokens', headers: admin },
    { operation: 'GET /admin/tokens', status: 401, path: '/admin/tokens' },
    { operation: 'GET /admin/tokens', status: 403, path: '/admin/tokens', headers: { 'X-Admin-Key': 'wrong' } },
    { operation: 'GET /admin/tokens', status: 404, path: '/admin/tokens', headers: admin, disabled: true },
    {
      operation: 'POST /admin/tokens',
      status: 201,
      path: '/admin/tokens',
      method: 'POST',
      body: { name: 'made-by-the-conformance-test', schemaId: ids.schema, expiryDate: '2031-01-01T00:00:00Z' },
      headers: admin,
    },
    {
      operation: 'POST /admin/tokens',
      status: 400,
      path: '/admin/tokens',
      method: 'POST',
      body: { name: 'no schema' },
      headers: admin,
    },
    {
      operation: 'POST /admin/tokens',
      status: 401,
      path: '/admin/tokens',
      method: 'POST',
      body: { name: 'x', schemaId: ids.schema },
    },
    {
      operation: 'POST /admin/tokens',
      status: 403,
      path: '/admin/tokens',
      method: 'POST',
      body: { name: 'x', schemaId: ids.schema },
      headers: { 'X-Admin-Key': 'wrong' },
    },
    {
      operation: 'POST /admin/tokens',
      status: 404,
      path: '/admin/tokens',
      method: 'POST',
      body: { name: 'x', schemaId: 999999 },
      headers: admin,
    },
    {
      operation: 'POST /admin/tokens',
      status: 409,
      path: '/admin/tokens',
      method: 'POST',
      body: { name: 'made-by-the-conformance-test', schemaId: ids.schema },
      headers: admin,
    },
    {
      operation: 'POST /admin/tokens',
      status: 413,
      path: '/admin/tokens',
      method: 'POST',
      body: HUGE,
      headers: adminJson,
    },
    {
      operation: 'POST /admin/tokens',
      status: 415,
      path: '/admin/tokens',
      method: 'POST',
      body: 'x',
      headers: { ...admin, 'Content-Type': 'text/plain' },
    },
    ...(['enable', 'disable'] as const).flatMap((action): Sample[] => [
      {
        operation: `POST /admin/tokens/{id}/${action}`,
        status: 200,
        path: `/admin/tokens/${ids.token}/${action}`,
        method: 'POST',
        headers: admin,
      },
      {
        operation: `POST /admin/tokens/{id}/${action}`,
        status: 400,
        path: `/admin/tokens/-1/${action}`,
        method: 'POST',
        headers: admin,
      },
      {
        operation: `POST /admin/tokens/{id}/${action}`,
        status: 401,
        path: `/admin/tokens/${ids.token}/${action}`,
        method: 'POST',
      },
      {
        operation: `POST /admin/tokens/{id}/${action}`,
        status: 403,
        path: `/admin/tokens/${ids.token}/${action}`,
        method: 'POST',
        headers: { 'X-Admin-Key': 'wrong' },
      },
      {
        operation: `POST /admin/tokens/{id}/${action}`,
        status: 404,
        path: `/admin/tokens/999999/${action}`,
        method: 'POST',
        headers: admin,
      },
    ]),
    {
      operation: 'DELETE /admin/tokens/{id}',
      status: 204,
      path: `/admin/tokens/${ids.spareToken}`,
      method: 'DELETE',
      headers: admin,
    },
    {
      operation: 'DELETE /admin/tokens/{id}',
      status: 400,
      path: '/admin/tokens/1.5',
      method: 'DELETE',
      headers: admin,
    },
    { operation: 'DELETE /admin/tokens/{id}', status: 401, path: `/admin/tokens/${ids.token}`, method: 'DELETE' },
    {
      operation: 'DELETE /admin/tokens/{id}',
      status: 403,
      path: `/admin/tokens/${ids.token}`,
      method: 'DELETE',
      headers: { 'X-Admin-Key': 'wrong' },
    },
    {
      operation: 'DELETE /admin/tokens/{id}',
      status: 404,
      path: '/admin/tokens/999999',
      method: 'DELETE',
      headers: admin,
    },
    {
      operation: 'DELETE /admin/tokens/{id}',
      status: 409,
      path: `/admin/tokens/${ids.publicToken}`,
      method: 'DELETE',
      headers: admin,
    },
  ];
}

let postgres: TestPostgresDatabase;
let dir: string;
test.before(async () => {
  postgres = await postgresForTests('content_conformance');
  dir = await mkdtemp(join(tmpdir(), 'content-conformance-'));
});
test.after.always(async () => {
  await postgres?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function send(server: RunningContentServer, sample: Pick<Sample, 'path' | 'method' | 'body' | 'headers'>) {
  const headers: Record<string, string> = { ...sample.headers };
  let body: string | undefined;
  if (typeof sample.body === 'string') body = sample.body;
  else if (sample.body !== undefined) {
    body = JSON.stringify(sample.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${server.url}${sample.path}`, { method: sample.method ?? 'GET', headers, body });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

for (const dialect of DIALECTS) {
  test(`${dialect}: the document validates as OpenAPI 3.1, and every documented answer is what the server sends for a sample request`, async (t) => {
    const databaseUrl = (label: string) =>
      dialect === 'postgres' ? postgres.freshDatabase(label) : Promise.resolve(join(dir, `${label}.db`));
    const server = await startContentServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: await databaseUrl('conformance'),
      assetsRoot: join(dir, `assets-${dialect}`),
      adminKey: KEY,
      settings: { changePollMs: 0 },
      rateLimit: { limit: LIMIT, windowSeconds: 86_400 },
    });
    t.teardown(() => server.close());
    const disabled = await startContentServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: await databaseUrl('conformance_off'),
      assetsRoot: join(dir, `assets-off-${dialect}`),
      settings: { changePollMs: 0, enableGql: false },
    });
    t.teardown(() => disabled.close());

    const document = await (await fetch(`${server.url}${OPENAPI_PATH}`)).json();
    const validate = openApiValidator();
    t.true(validate(document), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    // And by an established OpenAPI 3.1 parser, besides the project's own validator.
    const established = await validateOpenApi(structuredClone(document) as never);
    t.true(established.valid, established.valid ? '' : compileErrors(established));

    // What the samples point at.
    const { access, store } = server.service;
    const catalog = await store.catalog();
    const schema = await access.createSchema('Conformance news', expandScope(['entrytypes.news.article'], catalog));
    const spareSchema = await access.createSchema('Conformance spare', []);
    const { record: token } = await access.createToken({ name: 'conformance', schemaId: schema.id });
    const { record: spareToken } = await access.createToken({ name: 'conformance-spare', schemaId: schema.id });
    const spender = await access.createToken({ name: 'conformance-spender', schemaId: schema.id });
    const publicSchema = (await access.listSchemas()).find((s) => s.isPublic)!;
    const publicToken = (await access.listTokens()).find((s) => s.isPublic)!;
    const element = await store.db
      .selectFrom('elements')
      .innerJoin('entries', 'entries.id', 'elements.id')
      .select('elements.id')
      .orderBy('elements.id')
      .executeTakeFirstOrThrow();
    const asset = (await (await fetch(`${server.url}${query('{ asset(filename: "boats.png") { url } }')}`)).json()) as {
      data: { asset: { url: string } };
    };
    const ids: Ids = {
      element: Number(element.id),
      schema: schema.id,
      spareSchema: spareSchema.id,
      publicSchema: publicSchema.id,
      token: token.id,
      spareToken: spareToken.id,
      publicToken: publicToken.id,
      asset: new URL(asset.data.asset.url).pathname.replace(/^\/assets\//, ''),
    };
    const table = samples(ids);
    // The GraphQL endpoint over the limit: a token that spent its bucket (a day's worth).
    const bearer = { Authorization: `Bearer ${spender.token}` };
    const overTheLimit: Sample[] = [
      { operation: 'GET /api', status: 429, path: query('{ ping }'), headers: bearer },
      {
        operation: 'POST /api',
        status: 429,
        path: '/api',
        method: 'POST',
        body: { query: '{ ping }' },
        headers: bearer,
      },
    ];
    // On PostgreSQL the limits are counted in the database: with its table gone, the endpoint answers 503.
    const storeFailures: Sample[] = server.sharedRateLimits
      ? [
          { operation: 'GET /api', status: 503, path: query('{ ping }') },
          { operation: 'POST /api', status: 503, path: '/api', method: 'POST', body: { query: '{ ping }' } },
        ]
      : [];

    t.deepEqual(
      [...new Set([...table, ...overTheLimit, ...storeFailures].map((s) => `${s.operation} ${s.status}`))].sort(),
      documentedAnswers(document).sort(),
      'a sample for every documented answer, and no answer left undocumented',
    );
    const check = answerChecker(document);
    const run = async (sample: Sample) => {
      const answer = await send(sample.disabled ? disabled : server, sample);
      t.is(
        answer.status,
        sample.status,
        `${sample.operation} ${sample.path.slice(0, 80)}: ${answer.body.slice(0, 300)}`,
      );
      t.deepEqual(check(sample.operation, answer), [], `${sample.operation} ${sample.status}`);
    };
    for (const sample of table) await run(sample);
    for (let sent = 0; sent < LIMIT; sent += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => send(server, { path: query('{ ping }'), headers: bearer })),
      );
      t.deepEqual([...new Set(answers.map((answer) => answer.status))], [200]);
    }
    for (const sample of overTheLimit) await run(sample);
    if (storeFailures.length > 0) {
      await sql`alter table rest_uws_rate_limits rename to rest_uws_rate_limits_away`.execute(server.database.db);
      try {
        for (const sample of storeFailures) await run(sample);
      } finally {
        await sql`alter table rest_uws_rate_limits_away rename to rest_uws_rate_limits`.execute(server.database.db);
      }
    }
  });
}
