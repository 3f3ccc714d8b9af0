import test from 'ava';
import { GET, Path, RestBuilder, RestRouter, staticFolder } from '../../src/index';
import { loadUws } from '../../src/adapter/load-uws';
import { rawRequest } from '../support/raw-http';
import { listen, type RunningServer } from '../support/server';
import { makeStaticFixture, SECRET_TEXT } from './fixtures';

const fixture = makeStaticFixture();

class Api {
  @GET @Path('/static/api-wins') api() {
    return { from: 'api' };
  }
}

let server: RunningServer;
test.before(async () => {
  server = await listen(
    new RestBuilder()
      .register(Api)
      .staticFiles('/static', fixture.root, { cacheControl: 'public, max-age=60' })
      .build(),
  );
});
test.after.always(() => {
  server?.close();
  fixture.cleanup();
});

test('a mounted folder serves its files under the prefix, with the folder options', async (t) => {
  const r = await fetch(`${server.url}/static/sub/page.html`);
  t.is(r.status, 200);
  t.is(r.headers.get('content-type'), 'text/html; charset=utf-8');
  t.is(r.headers.get('cache-control'), 'public, max-age=60');
  t.is(await r.text(), '<p>page</p>');
});

test('the prefix and its folders serve index.html; a folder without its slash is redirected to it', async (t) => {
  t.is(await (await fetch(`${server.url}/static/`)).text(), '<h1>home</h1>');
  t.is(await (await fetch(`${server.url}/static/sub/`)).text(), '<h1>sub</h1>');
  const redirect = await fetch(`${server.url}/static/sub?x=1`, { redirect: 'manual' });
  t.is(redirect.status, 301);
  t.is(redirect.headers.get('location'), '/static/sub/?x=1');
});

test('a REST route on a path under the prefix still wins over the folder', async (t) => {
  t.deepEqual(await (await fetch(`${server.url}/static/api-wins`)).json(), { from: 'api' });
});

test('other methods get 405 with Allow; unknown files 404', async (t) => {
  const post = await fetch(`${server.url}/static/app.js`, { method: 'POST', body: 'x' });
  t.is(post.status, 405);
  t.is(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  t.is((await fetch(`${server.url}/static/nope.js`)).status, 404);
});

test('URL traversal attempts against the mount never leave the folder', async (t) => {
  for (const target of [
    '/static/../secret.txt',
    '/static/%2e%2e/secret.txt',
    '/static/%252e%252e/secret.txt',
    '/static/..%2f..%2fsecret.txt',
    '/static/..%5csecret.txt',
    '/static//etc/passwd',
    '/static/escape.txt',
    '/static/escape-dir/secret.txt',
    '/static/.env',
    '/static/index.html%00',
  ]) {
    const r = await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 500);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(r.text)?.[1]);
    t.true(status === 403 || status === 404, `${target} answered ${status}`);
    t.false(r.text.includes(SECRET_TEXT), `${target} leaked the secret`);
    t.false(r.text.includes('hunter2'), `${target} leaked the dot file`);
  }
});

test('staticFolder() is a REST class: RestRouter.register mounts it on a plain app', async (t) => {
  const app = RestRouter.register(loadUws().App(), staticFolder('/assets', fixture.root));
  const s = await listen(app);
  try {
    t.is(await (await fetch(`${s.url}/assets/app.js`)).text(), 'console.log("app");\n');
    t.throws(() => staticFolder('assets', fixture.root), { message: /must start with "\/"/ });
  } finally {
    s.close();
  }
});
