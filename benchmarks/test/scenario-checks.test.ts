/**
 * A server is measured only after it answered every scenario right: these tests point the checks at
 * a server that answers wrongly, and at raw uWebSockets.js, which answers right.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareFixtures } from '../src/runner/fixtures';
import { startServer } from '../src/runner/server-process';
import { createScenarios } from '../src/scenarios/scenarios';
import { findServer } from '../src/servers/registry';

const fixturesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fixtures-'));
const fixtures = prepareFixtures(fixturesDir);
test.after.always(() => fs.rmSync(fixturesDir, { recursive: true, force: true }));
const scenarios = createScenarios(fixtures);
const scenario = (key: string) => scenarios.find((candidate) => candidate.key === key)!;

async function withServer(handler: http.RequestListener, body: (baseUrl: string) => Promise<void>): Promise<void> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('a wrong hello body is refused, naming what was expected and what came', async (t) => {
  await withServer(
    (_req, res) => res.setHeader('Content-Type', 'application/json').end('{"message":"hi"}'),
    async (baseUrl) => {
      const error = await t.throwsAsync(scenario('hello').check(baseUrl));
      t.is(error?.message, 'hello: GET /hello body: expected {"message":"Hello, World!"}, got {"message":"hi"}');
    },
  );
});

test('a server that accepts every order is refused: invalid orders must get 400', async (t) => {
  await withServer(
    (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => res.writeHead(201, { 'Content-Type': 'application/json' }).end(body));
    },
    async (baseUrl) => {
      const error = await t.throwsAsync(scenario('order').check(baseUrl));
      t.regex(error?.message ?? '', /^order: POST \/orders \(quantity 0\) status: expected 400, got "201 /);
    },
  );
});

test('an event that never fires fails the authenticated scenario', async (t) => {
  await withServer(
    (req, res) => {
      if (req.url === '/stats') return res.setHeader('Content-Type', 'application/json').end('{"profileViews":0}');
      if (req.headers.authorization !== 'Bearer bench-token-5f3a9c1e') return res.writeHead(401).end();
      res.setHeader('Content-Type', 'application/json').end('{"id":"u-1","name":"Ada Bench","roles":["reader"]}');
    },
    async (baseUrl) => {
      const error = await t.throwsAsync(scenario('auth').check(baseUrl));
      t.is(error?.message, 'auth: profile.viewed events after one GET /me: expected 1, got 0');
    },
  );
});

test('raw uWebSockets.js passes every scenario check', async (t) => {
  t.timeout(60_000);
  const server = await startServer(findServer('raw-uws'), {
    cpu: undefined,
    env: { BENCH_STATIC_DIR: fixtures.staticDir },
    timeoutMs: 45_000,
  });
  t.teardown(() => server.stop());
  t.true(server.bootMs >= 0 && server.startupMs > 0);
  for (const candidate of scenarios) await t.notThrowsAsync(candidate.check(server.baseUrl), candidate.key);
  await server.stop();
  t.false(server.alive());
});

test('the idiomatic rest.uws server (written from the getting-started guide) passes every scenario check', async (t) => {
  t.timeout(60_000);
  const server = await startServer(findServer('rest-uws-idiomatic'), {
    cpu: undefined,
    env: { BENCH_STATIC_DIR: fixtures.staticDir },
    timeoutMs: 45_000,
  });
  t.teardown(() => server.stop());
  for (const candidate of scenarios) await t.notThrowsAsync(candidate.check(server.baseUrl), candidate.key);
});

test('Hono on @hono/node-server passes every scenario check', async (t) => {
  t.timeout(60_000);
  const server = await startServer(findServer('hono'), {
    cpu: undefined,
    env: { BENCH_STATIC_DIR: fixtures.staticDir },
    timeoutMs: 45_000,
  });
  t.teardown(() => server.stop());
  for (const candidate of scenarios) await t.notThrowsAsync(candidate.check(server.baseUrl), candidate.key);
});

test('Elysia on @elysiajs/node passes every scenario check', async (t) => {
  t.timeout(60_000);
  const server = await startServer(findServer('elysia'), {
    cpu: undefined,
    env: { BENCH_STATIC_DIR: fixtures.staticDir },
    timeoutMs: 45_000,
  });
  t.teardown(() => server.stop());
  for (const candidate of scenarios) await t.notThrowsAsync(candidate.check(server.baseUrl), candidate.key);
});
