/**
 * The documentation site, built as `npm run docs:build` builds it (without a network when the machine allows it:
 * `unshare -n`), served as a static host serves it and read in Debian's Chromium: every page renders without console
 * errors and without a request leaving the site, every internal link and anchor resolves, every page of docs/ is in
 * the sidebar, search finds a decorator by name, a code sample and the benchmark chart are visible, dark mode
 * switches. Screenshots are kept in site/dist/screenshots/.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../src/chromium';
import { docPages, REPOSITORY } from '../src/markdown-pages';
import { fileFor, type StaticSite, serveStatic } from '../src/static-server';

const SITE = path.join(REPOSITORY, 'site', 'dist', 'site');
const SCREENSHOTS = path.join(REPOSITORY, 'site', 'dist', 'screenshots');

let site: StaticSite | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
/** Requests that left the site: none may. */
const offsite: string[] = [];

/** The URL path of a page of docs/: `benchmarks/index.md` -> `/benchmarks/`, `security.md` -> `/security.html`. */
function urlOf(page: string): string {
  const withoutExtension = page.replace(/\.md$/, '');
  if (withoutExtension === 'index') return '/';
  if (withoutExtension.endsWith('/index')) return `/${withoutExtension.slice(0, -'index'.length)}`;
  return `/${withoutExtension}.html`;
}

/** The same page however a link spells it (`/x`, `/x.html`, `/dir/`, `/dir/index.html`). */
function canonical(urlPath: string): string {
  return urlPath.replace(/\.html$/, '').replace(/\/index$/, '/');
}

function canNetworkBeCut(): boolean {
  return spawnSync('unshare', ['-n', 'true']).status === 0;
}

async function openPage(url: string): Promise<{ page: Page; errors: string[] }> {
  if (!context) throw new Error('the site was not built');
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} for ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    if (!offsite.includes(request.url())) errors.push(`request failed: ${request.url()}`);
  });
  const response = await page.goto(url, { waitUntil: 'networkidle' });
  if (!response) errors.push(`no answer for ${url}`);
  return { page, errors };
}

test.after.always(async () => {
  await browser?.close();
  await site?.close();
});

test.serial('npm run docs:build builds the site, with no network', (t) => {
  t.timeout(20 * 60_000);
  // While working on the checks below, DOCS_SITE_BUILT=1 reuses site/dist/site as it is (never in CI).
  if (process.env.DOCS_SITE_BUILT === '1' && fs.existsSync(path.join(SITE, 'index.html'))) {
    t.log('DOCS_SITE_BUILT=1: the site in site/dist/site was not built again');
    return t.pass();
  }
  fs.rmSync(SITE, { recursive: true, force: true });
  const offline = canNetworkBeCut();
  const command = offline ? ['unshare', '-n', 'npm', 'run', 'docs:build'] : ['npm', 'run', 'docs:build'];
  const build = spawnSync(command[0], command.slice(1), {
    cwd: REPOSITORY,
    encoding: 'utf8',
    env: { ...process.env, npm_config_offline: 'true', NO_COLOR: '1' },
  });
  t.is(build.status, 0, `${command.join(' ')} failed:\n${build.stdout}\n${build.stderr}`);
  t.true(fs.existsSync(path.join(SITE, 'index.html')));
  t.true(fs.existsSync(path.join(SITE, 'api', 'index.html')), 'the TypeDoc API reference is part of the site');
  if (!offline) t.log('unshare -n is not allowed here: the build ran with the network it had');
});

/** What the crawl saw on each page: its errors, and the links it holds. */
const crawled = new Map<string, { errors: string[]; hrefs: string[] }>();

test.serial('every page renders without console errors and without a request leaving the site', async (t) => {
  t.timeout(10 * 60_000);
  site = await serveStatic(SITE);
  browser = await launchChromium();
  context = await browser.newContext();
  const origin = site.origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
    offsite.push(url);
    return route.abort();
  });
  for (const page of docPages()) {
    const { page: tab, errors } = await openPage(`${origin}${urlOf(page)}`);
    if (!(await tab.locator('h1').first().isVisible())) errors.push('no visible h1');
    const hrefs = await tab.$$eval('a[href]', (links) => links.map((link) => (link as HTMLAnchorElement).href));
    crawled.set(page, { errors, hrefs });
    await tab.close();
  }
  const api = await openPage(`${origin}/api/index.html`);
  crawled.set('api/index.html', { errors: api.errors, hrefs: [] });
  t.true(await api.page.locator('h1, h2').first().isVisible(), 'the API reference shows its title');
  await api.page.close();
  const failures = [...crawled].filter(([, seen]) => seen.errors.length > 0);
  t.deepEqual(
    failures.map(([page, seen]) => `${page}: ${seen.errors.join('; ')}`),
    [],
  );
  t.deepEqual(offsite, [], 'requests that left the site');
});

test.serial('every internal link and anchor of every page resolves', (t) => {
  if (!site || crawled.size === 0) return t.fail('the site was not crawled');
  const origin = site.origin;
  const idsOf = new Map<string, Set<string>>();
  const ids = (file: string): Set<string> => {
    let known = idsOf.get(file);
    if (!known) {
      const html = fs.readFileSync(file, 'utf8');
      known = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
      idsOf.set(file, known);
    }
    return known;
  };
  const broken: string[] = [];
  let checked = 0;
  for (const [page, { hrefs }] of crawled) {
    for (const href of new Set(hrefs)) {
      if (!href.startsWith(`${origin}/`)) continue;
      const url = new URL(href);
      checked++;
      const file = fileFor(SITE, url.pathname);
      if (!file) {
        broken.push(`${page}: ${url.pathname} does not exist`);
        continue;
      }
      const anchor = decodeURIComponent(url.hash.slice(1));
      if (anchor && file.endsWith('.html') && !ids(file).has(anchor)) {
        broken.push(`${page}: ${url.pathname}#${anchor} has no such anchor`);
      }
    }
  }
  t.deepEqual(broken, []);
  t.true(checked > 500, `only ${checked} internal links found`);
});

test.serial('every page of docs/ is in the sidebar', async (t) => {
  if (!site) return t.fail('the site was not served');
  const { page } = await openPage(`${site.origin}/getting-started.html`);
  const inSidebar = new Set(
    (
      await page.$$eval('.VPSidebar a[href]', (links) =>
        links.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
      )
    ).map(canonical),
  );
  await page.close();
  const missing = docPages().filter((doc) => !inSidebar.has(canonical(urlOf(doc))));
  t.deepEqual(missing, [], 'pages no reader can reach from the navigation');
});

test.serial('search finds @BeanParam, and its result opens the arguments reference', async (t) => {
  if (!site) return t.fail('the site was not served');
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const { page, errors } = await openPage(`${site.origin}/getting-started.html`);
  await page.locator('.VPNavBarSearch button').click();
  const input = page.locator('#localsearch-input');
  await input.waitFor({ state: 'visible' });
  await input.fill('@BeanParam');
  const results = page.locator('#localsearch-list a.result');
  await results.first().waitFor({ state: 'visible' });
  const targets = await results.evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'search-beanparam.png') });
  t.true(
    targets.some((href) => new URL(href).pathname.startsWith('/reference/arguments')),
    `results: ${targets.join(', ')}`,
  );
  await page.locator('#localsearch-list a.result[href^="/reference/arguments"]').first().click();
  await page.waitForURL(/\/reference\/arguments/);
  await page.locator('.vp-doc h1', { hasText: 'Argument decorators' }).waitFor({ state: 'visible' });
  t.true(await page.locator('.vp-doc h2, .vp-doc h3').filter({ hasText: '@BeanParam' }).first().isVisible());
  t.deepEqual(errors, []);
  await page.close();
});

test.serial('a code sample and the benchmark chart are visible; dark mode switches', async (t) => {
  if (!site) return t.fail('the site was not served');
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const code = await openPage(`${site.origin}/getting-started.html`);
  const sample = code.page.locator('div[class*="language-ts"] pre').first();
  await sample.scrollIntoViewIfNeeded();
  t.true(await sample.isVisible());
  t.regex((await sample.textContent()) ?? '', /import .* from 'class-validator'/);
  await sample.screenshot({ path: path.join(SCREENSHOTS, 'code-sample.png') });
  await code.page.close();

  const bench = await openPage(`${site.origin}/benchmarks/`);
  const chart = bench.page.locator('.vp-doc img[src*="plain"]').first();
  await chart.scrollIntoViewIfNeeded();
  t.true(await chart.isVisible());
  const size = await chart.evaluate((img) => [
    (img as HTMLImageElement).naturalWidth,
    (img as HTMLImageElement).naturalHeight,
  ]);
  t.true(size[0] > 100 && size[1] > 100, `the chart was not drawn: ${size.join('x')}`);
  await chart.screenshot({ path: path.join(SCREENSHOTS, 'benchmark-chart.png') });
  await bench.page.screenshot({ path: path.join(SCREENSHOTS, 'benchmarks-light.png') });

  const dark = async () => bench.page.evaluate(() => document.documentElement.classList.contains('dark'));
  const before = await dark();
  await bench.page.locator('.VPNavBarAppearance .VPSwitchAppearance').click();
  await bench.page.waitForFunction((was) => document.documentElement.classList.contains('dark') !== was, before);
  t.not(await dark(), before);
  await bench.page.screenshot({ path: path.join(SCREENSHOTS, 'benchmarks-dark.png') });
  t.deepEqual([...code.errors, ...bench.errors], []);
  await bench.page.close();
});
