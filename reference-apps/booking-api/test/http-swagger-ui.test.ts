import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { API } from './helpers/api-client';
import { launchChromium } from './helpers/browser';
import { startHttpFixture } from './helpers/http-fixture';

test('Swagger UI at /docs: public, offline, lists the partner API, and "Try it out" with a partner key reads the catalogue', async (t) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-docs-'));
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }));
  const { server, aliceKey } = await startHttpFixture(path.join(folder, 'booking.db'));
  t.teardown(() => server.close());
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${server.url}/`)) problems.push(`outside: ${request.url()}`);
  });
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });

  t.is((await page.goto(`${server.url}/docs`))?.status(), 200, 'no partner key needed for the page');
  await page.waitForSelector('.opblock', { timeout: 30_000 });
  const operations = await page.$$eval('.opblock-summary', (nodes) =>
    nodes.map(
      (n) =>
        `${n.querySelector('.opblock-summary-method')?.textContent} ${n.querySelector('[data-path]')?.getAttribute('data-path')}`,
    ),
  );
  t.deepEqual(
    operations.sort(),
    [
      `GET ${API}/booking`,
      `GET ${API}/booking/{id}`,
      `GET ${API}/inventory`,
      `GET ${API}/product`,
      `GET ${API}/product/{id}`,
      'GET /ticket/{publicId}',
      'GET /voucher/{token}',
      `POST ${API}/booking`,
      `POST ${API}/booking/create`,
      `PUT ${API}/booking/{id}`,
    ].sort(),
  );

  await page.click('.btn.authorize');
  await page.fill('.auth-container input', aliceKey);
  await page.click('.auth-btn-wrapper .authorize');
  await page.click('.btn-done');
  const products = page.locator('.opblock-get', { has: page.locator(`[data-path="${API}/product"]`) });
  await products.locator('.opblock-summary').click();
  await products.locator('.try-out__btn').click();
  await products.locator('.execute').click();
  const status = products.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor({ timeout: 20_000 });
  t.is((await status.textContent())?.trim(), '200');
  const body = JSON.parse(
    (await products.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? 'null',
  );
  t.is(body.items[0].name, 'Old Town Walking Tour', 'the server answered the call with the catalogue');
  t.deepEqual(problems, [], 'no failed request, none outside the server, no script error');
});
