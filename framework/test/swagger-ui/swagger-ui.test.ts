import test from 'ava';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BearerAuthenticationProvider, GET, openApi, Path, RestBuilder, swaggerUi, User } from '../../src/index';
import { rawRequest } from '../support/raw-http';
import { listen } from '../support/server';

const DIST = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;

@Path('/things')
class ThingResource {
  @GET
  list(): string[] {
    return ['a'];
  }
}

async function start(t: import('ava').ExecutionContext, plugin = swaggerUi()) {
  const app = new RestBuilder()
    .authenticateWith(BearerAuthenticationProvider.fromTokens({ secret: new User('ada', []) }))
    .register(ThingResource)
    .use(openApi({ title: 'Things', version: '1.0.0' }))
    .use(plugin)
    .build();
  const server = await listen(app);
  t.teardown(server.close);
  return server;
}

test('the page, its start script and the OAuth2 redirect page: public, typed, revalidated, no inline script', async (t) => {
  const server = await start(t);
  const page = await fetch(`${server.url}/docs`);
  t.is(page.status, 200);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.is(page.headers.get('cache-control'), 'no-cache');
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self';/);
  const html = await page.text();
  t.true(html.includes(`<script src="/docs/assets/${VERSION}/swagger-ui-bundle.js"`));
  t.false(/<script>/.test(html), 'no inline script: a strict CSP holds');
  t.false(/https?:\/\//.test(html), 'nothing from elsewhere');

  const initializer = await fetch(`${server.url}/docs/swagger-initializer.js`);
  t.is(initializer.status, 200);
  t.is(initializer.headers.get('content-type'), 'text/javascript; charset=utf-8');
  const script = await initializer.text();
  t.true(script.includes('"url":"/openapi.json"'), 'the document of openApi() by default');
  t.true(script.includes('"validatorUrl":null'), 'never sends the document to the public validator');

  const redirect = await fetch(`${server.url}/docs/oauth2-redirect.html`);
  t.is(redirect.status, 200);
  t.true((await redirect.text()).includes(`/docs/assets/${VERSION}/oauth2-redirect.js`));
});

test('assets: the files of swagger-ui-dist with their types, cached for good, 304 on a matching If-None-Match', async (t) => {
  const server = await start(t);
  const cases: Array<[string, string]> = [
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['favicon-32x32.png', 'image/png'],
    ['oauth2-redirect.js', 'text/javascript; charset=utf-8'],
  ];
  for (const [name, type] of cases) {
    const res = await fetch(`${server.url}/docs/assets/${VERSION}/${name}`);
    t.is(res.status, 200, name);
    t.is(res.headers.get('content-type'), type, name);
    t.is(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', name);
    const body = Buffer.from(await res.arrayBuffer());
    t.true(body.equals(readFileSync(path.join(DIST, name))), `${name}: the package's bytes`);
    const etag = res.headers.get('etag')!;
    t.is(etag, `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`);
    const again = await fetch(`${server.url}/docs/assets/${VERSION}/${name}`, {
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    t.is(again.status, 304, `${name}: revalidated`);
    t.is((await again.arrayBuffer()).byteLength, 0);
  }
  const page = await fetch(`${server.url}/docs`);
  const revalidated = await fetch(`${server.url}/docs`, { headers: { 'if-none-match': page.headers.get('etag')! } });
  t.is(revalidated.status, 304);
});

test('only the listed files of the installed version are served: no other file, no path out of the package', async (t) => {
  const server = await start(t);
  const refused = [
    `/docs/assets/${VERSION}/package.json`,
    `/docs/assets/${VERSION}/index.html`,
    `/docs/assets/${VERSION}/..%2Fpackage.json`,
    `/docs/assets/${VERSION}/..%2F..%2F..%2Fpackage.json`,
    `/docs/assets/${VERSION}/%2e%2e%2fpackage.json`,
    `/docs/assets/0.0.1/swagger-ui.css`,
    `/docs/assets/..%2F..%2F/swagger-ui.css`,
    `/docs/assets/${VERSION}/constructor`,
    `/docs/assets/${VERSION}/__proto__`,
  ];
  for (const url of refused) {
    // Raw bytes: fetch would resolve the dot segments before sending.
    const { text } = await rawRequest(
      server.port,
      `GET ${url} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
      10_000,
    );
    t.regex(text, /^HTTP\/1\.1 404 /, url);
    t.notRegex(text, /swagger-ui-dist/, url);
  }
});

test('the routes are public, out of the document, and at the path given; the document is still served', async (t) => {
  const server = await start(
    t,
    swaggerUi({ path: '/api/docs', url: '/openapi.json', title: 'Things <API>', config: { docExpansion: 'none' } }),
  );
  t.is((await fetch(`${server.url}/docs`)).status, 404, 'nothing at the default path');
  const page = await fetch(`${server.url}/api/docs`);
  t.is(page.status, 200);
  const html = await page.text();
  t.true(html.includes('<title>Things &#60;API&#62;</title>'), 'the title is escaped');
  t.true(html.includes(`/api/docs/assets/${VERSION}/swagger-ui.css`));
  t.true(
    (await (await fetch(`${server.url}/api/docs/swagger-initializer.js`)).text()).includes('"docExpansion":"none"'),
  );
  const doc: any = await (await fetch(`${server.url}/openapi.json`)).json();
  t.deepEqual(Object.keys(doc.paths), ['/things']);
});

test('options are checked when the plugin is made', (t) => {
  t.throws(() => swaggerUi({ path: 'docs' }), { message: /path must be like "\/docs"/ });
  t.throws(() => swaggerUi({ path: '/docs/{x}' }), { message: /path must be like/ });
  t.throws(() => swaggerUi({ path: '/docs/' }), { message: /path must be like/ });
  t.throws(() => swaggerUi({ url: '' }), { message: /url must be/ });
  t.throws(() => swaggerUi({ config: { onComplete: () => undefined } }), {
    message: /config\.onComplete is not a JSON value/,
  });
  t.throws(() => swaggerUi({ config: { dom_id: '#x' } }), { message: /config\.dom_id is set by the plugin/ });
  t.throws(() => swaggerUi({ config: { when: new Date() } }), { message: /config\.when is not a JSON value/ });
});
