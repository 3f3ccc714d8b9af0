/**
 * The typed client in a browser: a client generated from the test app and a page's program written against it,
 * type-checked with the DOM's types only (no Node types), bundled by esbuild for the browser and run in Chromium
 * against the real server, with the browser's own fetch, FormData and WebSocket. The bundle holds the client and
 * the program and nothing else: no rest.uws, no class-validator, no uWebSockets.js.
 */
import test from 'ava';
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiExclude, GET, Path, Produces } from '../../src/index';
import { runClientCli } from '../../src/features/client/client-cli';
import { listen } from '../support/server';
import { launchChromium } from '../swagger-ui/chromium';
import { clientApp } from './fixtures/client-app';
import { Items } from './fixtures/items-v1';

const FIXTURES = path.resolve(__dirname, '../../../test/client/fixtures');
const PROJECTS = path.resolve(__dirname, '../../client-projects');
const TSC = require.resolve('typescript/bin/tsc');

/** The bundle the page loads, once built. */
let bundle = '';

/**
 * The page and its script, served by the app itself: a page the test answered (Playwright's `route`) has no address,
 * and Chromium's local network access checks then block its WebSocket to 127.0.0.1. Not in the documents, so not
 * in the client.
 */
@Path('/page')
class PageFiles {
  @GET
  @Path('index.html')
  @Produces('text/html')
  @ApiExclude
  index(): string {
    return '<!doctype html><script src="/page/caller.js"></script>';
  }

  @GET
  @Path('caller.js')
  @Produces('text/javascript')
  @ApiExclude
  script(): string {
    return bundle;
  }
}

test('in Chromium, a bundled client calls the routes (typed error statuses too) and the WebSocket endpoint', async (t) => {
  t.timeout(120_000);
  const server = await listen(clientApp(Items).register(PageFiles).build());
  t.teardown(server.close);
  const dir = path.join(PROJECTS, `browser-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  t.is(await runClientCli(['client', '--url', server.url, '--out', path.join(dir, 'api-client.ts')]), 0);
  fs.copyFileSync(path.join(FIXTURES, 'browser-caller.ts.txt'), path.join(dir, 'browser-caller.ts'));

  // What a browser project has: the DOM's types, no Node's.
  const compilerOptions = { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: [] };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['browser-caller.ts'] }));
  const checked = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
  t.is(checked.status, 0, `${checked.stdout}${checked.stderr}`);

  const bundled = await build({
    entryPoints: [path.join(dir, 'browser-caller.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'caller',
    target: 'chrome100',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  t.deepEqual(
    Object.keys(bundled.metafile.inputs)
      .map((input) => path.basename(input))
      .sort(),
    ['api-client.ts', 'browser-caller.ts'],
    'the bundle is the client and the program: no server code was pulled in',
  );
  bundle = bundled.outputFiles[0]!.text;
  t.notRegex(bundle, /rest\.uws|class-validator|uWebSockets|reflect-metadata/);

  // The page comes from the server's origin, as an app's page would.
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  await page.goto(`${server.url}/page/index.html`);
  // Run in the page (a string: this test's own code has no DOM types): the bundle's `caller` global.
  const out = await page.evaluate('caller.main(location.origin)');
  t.deepEqual(out, {
    found: [200, 'Ada', 2],
    missing: [404, false, 'no booking nope'],
    refused: [400, 'RU_ERR_VALIDATION'],
    items: 'number 5 a,b',
    upload: 'notes: doc=blob text/plain 5',
    socket: ['lobby', 'ada joined', 'hi', 1000],
  });
  t.deepEqual(problems, []);
});
