import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { RestBuilder, compression } from '../../src/index';
import { getRaw } from '../compression/http-get';
import { listen, type RunningServer } from '../support/server';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-precompressed-'));
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-outside-'));
const APP_JS = 'console.log("hello");\n'.repeat(2000);
const STYLE = 'body { color: red; }\n'.repeat(2000);
fs.writeFileSync(path.join(dir, 'app.js'), APP_JS);
fs.writeFileSync(path.join(dir, 'app.js.br'), zlib.brotliCompressSync(APP_JS));
fs.writeFileSync(path.join(dir, 'app.js.gz'), zlib.gzipSync(APP_JS));
fs.writeFileSync(path.join(dir, 'style.css'), STYLE);
fs.writeFileSync(path.join(dir, 'style.css.gz'), zlib.gzipSync(STYLE));
// Variants that must not be served: a link out of the root, and a folder.
fs.writeFileSync(path.join(dir, 'secret.txt'), 'public text\n');
fs.writeFileSync(path.join(outside, 'secret.txt.gz'), zlib.gzipSync('the secret outside the root\n'));
fs.symlinkSync(path.join(outside, 'secret.txt.gz'), path.join(dir, 'secret.txt.gz'));
fs.writeFileSync(path.join(dir, 'data.json'), '{"a":1}');
fs.mkdirSync(path.join(dir, 'data.json.br'));

let server: RunningServer;
let plain: RunningServer;
test.before(async () => {
  // Compression is on too: it must leave the precompressed answers alone.
  server = await listen(
    new RestBuilder().use(compression()).staticFiles('/assets', dir, { precompressed: true }).build(),
  );
  plain = await listen(new RestBuilder().staticFiles('/assets', dir).build());
});
test.after.always(() => {
  server?.close();
  plain?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

test('the .br or .gz beside a file is sent when the client accepts it, with the original type and the variant length', async (t) => {
  const br = await getRaw(`${server.url}/assets/app.js`, { 'Accept-Encoding': 'gzip, br' });
  t.is(br.status, 200);
  t.is(br.headers['content-encoding'], 'br');
  t.is(br.headers['content-type'], 'text/javascript; charset=utf-8');
  t.is(Number(br.headers['content-length']), fs.statSync(path.join(dir, 'app.js.br')).size);
  t.is(br.headers['vary'], 'Accept-Encoding');
  t.regex(br.headers['etag']!, /-br"$/);
  t.is(zlib.brotliDecompressSync(br.body).toString(), APP_JS);

  const gz = await getRaw(`${server.url}/assets/app.js`, { 'Accept-Encoding': 'gzip, br;q=0.5' });
  t.is(gz.headers['content-encoding'], 'gzip');
  t.is(Number(gz.headers['content-length']), fs.statSync(path.join(dir, 'app.js.gz')).size);
  t.is(zlib.gunzipSync(gz.body).toString(), APP_JS);

  // Only a .gz exists: a brotli-first client gets it.
  const css = await getRaw(`${server.url}/assets/style.css`, { 'Accept-Encoding': 'br, gzip' });
  t.is(css.headers['content-encoding'], 'gzip');
  t.is(css.headers['content-type'], 'text/css; charset=utf-8');
  t.is(zlib.gunzipSync(css.body).toString(), STYLE);

  const none = await getRaw(`${server.url}/assets/app.js`);
  t.is(none.headers['content-encoding'], undefined);
  t.is(none.headers['vary'], 'Accept-Encoding');
  t.is(none.body.toString(), APP_JS);
});

test('HEAD, conditional requests and ranges apply to the variant sent', async (t) => {
  const head = await getRaw(`${server.url}/assets/app.js`, { 'Accept-Encoding': 'br' }, 'HEAD');
  t.is(head.headers['content-encoding'], 'br');
  t.is(Number(head.headers['content-length']), fs.statSync(path.join(dir, 'app.js.br')).size);
  t.is(head.body.length, 0);

  const etag = head.headers['etag']!;
  const again = await getRaw(`${server.url}/assets/app.js`, { 'Accept-Encoding': 'br', 'If-None-Match': etag });
  t.is(again.status, 304);
  // The identity file's tag differs: a client switching codings gets the full answer.
  const identity = await getRaw(`${server.url}/assets/app.js`, { 'If-None-Match': etag });
  t.is(identity.status, 200);

  const gz = zlib.gzipSync(APP_JS);
  const range = await getRaw(`${server.url}/assets/app.js`, { 'Accept-Encoding': 'gzip', Range: 'bytes=0-9' });
  t.is(range.status, 206);
  t.is(range.headers['content-encoding'], 'gzip');
  t.deepEqual(range.body, fs.readFileSync(path.join(dir, 'app.js.gz')).subarray(0, 10));
  t.is(range.headers['content-range'], `bytes 0-9/${fs.statSync(path.join(dir, 'app.js.gz')).size}`);
  t.true(gz.length > 10);
});

test('a variant that links out of the root, or is a folder, is never served: the file itself is', async (t) => {
  const secret = await getRaw(`${server.url}/assets/secret.txt`, { 'Accept-Encoding': 'gzip' });
  t.is(secret.status, 200);
  t.is(secret.headers['content-encoding'], undefined);
  t.is(secret.body.toString(), 'public text\n');

  const data = await getRaw(`${server.url}/assets/data.json`, { 'Accept-Encoding': 'br' });
  t.is(data.status, 200);
  t.is(data.headers['content-encoding'], undefined);
  t.is(data.body.toString(), '{"a":1}');
});

test('without the option, variants are plain files and nothing varies', async (t) => {
  const js = await getRaw(`${plain.url}/assets/app.js`, { 'Accept-Encoding': 'br' });
  t.is(js.headers['content-encoding'], undefined);
  t.is(js.headers['vary'], undefined);
  t.is(js.body.toString(), APP_JS);
  const variant = await getRaw(`${plain.url}/assets/app.js.br`);
  t.is(variant.status, 200);
  t.is(variant.headers['content-type'], 'application/octet-stream');
});
