import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startContentServer, type RunningContentServer } from '../src/server';
import { expandScope } from '../src/domain/access/scope';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let server: RunningContentServer;
let dir: string;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'content-graphiql-'));
  server = await startContentServer({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: join(dir, 'content.db'),
    assetsRoot: join(dir, 'assets'),
    settings: { changePollMs: 0 },
  });
});
test.after.always(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

test('the GraphiQL page loads from local files and runs a query with the token from its token field', async (t) => {
  const catalog = await server.service.store.catalog();
  const schema = await server.service.access.createSchema('Browser', expandScope(['usergroups.everyone'], catalog));
  const { token } = await server.service.access.createToken({ name: 'browser', schemaId: schema.id });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) outside.push(request.url());
    });
    await page.goto(`${server.url}/graphiql?query=${encodeURIComponent('{ users { username } }')}`);
    await page.fill('#token', token);
    await page.dispatchEvent('#token', 'change');
    await page.waitForSelector('.graphiql-execute-button');
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(
      "(document.querySelector('.result-window')?.textContent ?? '').includes('username')",
      undefined,
      { timeout: 20_000 },
    );
    await page.screenshot({ path: join(dir, 'graphiql.png') });
    const result = await page.textContent('.result-window');
    t.regex(result ?? '', /"ada"/);
    t.regex(result ?? '', /"grace"/);
    t.deepEqual(outside, [], 'no request leaves the server (no CDN)');
  } finally {
    await browser.close();
  }
});

test('GraphiQL assets are a fixed list', async (t) => {
  t.is((await fetch(`${server.url}/graphiql/assets/graphiql.min.css`)).status, 200);
  t.is((await fetch(`${server.url}/graphiql/assets/package.json`)).status, 404);
  t.is((await fetch(`${server.url}/graphiql/assets/..%2F..%2Fpackage.json`)).status, 404);
});
