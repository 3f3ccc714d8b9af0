import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  FileResponseWriter,
  GET,
  NoCache,
  Path,
  PathParam,
  Produces,
  QueryParam,
  RegistrationError,
  ResponseWriter,
  RestBuilder,
} from '../../src/index';
import { rawRequest } from '../support/raw-http';
import { listen, type RunningServer } from '../support/server';
import { makeStaticFixture, SECRET_TEXT } from './fixtures';

const fixture = makeStaticFixture();

@Path('/files')
class Files {
  @GET
  @Path('/{name:.+}')
  @ResponseWriter(FileResponseWriter)
  file(@PathParam('name') name: string): string {
    return name;
  }

  /** The query value is decoded once: lets tests hand the writer any string. */
  @GET
  @Path('/by-query')
  @ResponseWriter(FileResponseWriter)
  byQuery(@QueryParam('p') p: string): string {
    return p;
  }

  @GET
  @Path('/nothing')
  @ResponseWriter(FileResponseWriter)
  nothing(): string | null {
    return null;
  }

  @GET
  @Path('/later')
  @ResponseWriter(FileResponseWriter)
  async later(): Promise<string> {
    await new Promise((r) => setTimeout(r, 5));
    return 'sub/page.html';
  }

  @GET
  @Path('/typed')
  @Produces('text/plain')
  @ResponseWriter(FileResponseWriter)
  typed(@QueryParam('p') p: string): string {
    return p;
  }
}

const OtherRoot = FileResponseWriter.under(path.join(fixture.root, 'sub'));
class OwnRoot {
  @GET
  @Path('/own/{name}')
  @ResponseWriter(OtherRoot)
  file(@PathParam('name') name: string): string {
    return name;
  }
}

/** A writer made per request (@NoCache) still gets the app root. */
@NoCache
class PerRequestFileWriter extends FileResponseWriter {}
class PerRequest {
  @GET
  @Path('/per-request/{name}')
  @ResponseWriter(PerRequestFileWriter)
  file(@PathParam('name') name: string): string {
    return name;
  }
}

let server: RunningServer;
test.before(async () => {
  server = await listen(new RestBuilder().staticFiles(fixture.root).register(Files, OwnRoot, PerRequest).build());
});
test.after.always(() => {
  server?.close();
  fixture.cleanup();
});

const get = (p: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(server.url + p, { headers, method });

test('serves the file with Content-Type from the extension, ETag, Last-Modified, Cache-Control and Accept-Ranges', async (t) => {
  const r = await get('/files/app.js');
  t.is(r.status, 200);
  t.is(r.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.is(await r.text(), 'console.log("app");\n');
  const stats = fs.statSync(path.join(fixture.root, 'app.js'));
  t.regex(r.headers.get('etag') ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/);
  t.is(r.headers.get('last-modified'), new Date(Math.floor(stats.mtimeMs)).toUTCString());
  t.is(r.headers.get('cache-control'), 'public, max-age=0');
  t.is(r.headers.get('accept-ranges'), 'bytes');
  t.is(r.headers.get('content-length'), String(stats.size));
});

test('content types: case-insensitive extension, unknown extension is octet-stream, @Produces does not override a known extension', async (t) => {
  t.is((await get('/files/style.CSS')).headers.get('content-type'), 'text/css; charset=utf-8');
  t.is((await get('/files/notes.unknownext')).headers.get('content-type'), 'application/octet-stream');
  t.is((await get('/files/typed?p=sub/page.html')).headers.get('content-type'), 'text/html; charset=utf-8');
  const unknown = await get('/files/typed?p=notes.unknownext');
  t.is(unknown.headers.get('content-type'), 'text/plain');
  t.is(await unknown.text(), 'plain bytes');
});

test('binary files arrive byte for byte; names with encoded spaces work; async methods work', async (t) => {
  const r = await get('/files/data.bin');
  t.true(Buffer.from(await r.arrayBuffer()).equals(fixture.binary));
  t.is(await (await get('/files/name%20with%20spaces.txt')).text(), 'spaces');
  t.is(await (await get('/files/later')).text(), '<p>page</p>');
});

test('an empty file is 200 with an empty body', async (t) => {
  const r = await get('/files/empty.txt');
  t.is(r.status, 200);
  t.is(r.headers.get('content-length'), '0');
  t.is(await r.text(), '');
});

test('If-None-Match with the current ETag (strong, weak or in a list) gives 304 without a body', async (t) => {
  const first = await get('/files/app.js');
  const etag = first.headers.get('etag')!;
  await first.arrayBuffer();
  for (const value of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
    const r = await get('/files/app.js', { 'If-None-Match': value });
    t.is(r.status, 304, value);
    t.is(r.headers.get('etag'), etag);
    t.is(await r.text(), '');
  }
  const changed = await get('/files/app.js', {
    'If-None-Match': '"other"',
    'If-Modified-Since': first.headers.get('last-modified')!,
  });
  t.is(changed.status, 200, 'If-None-Match decides when present; If-Modified-Since is ignored');
  t.is(await changed.text(), 'console.log("app");\n');
});

test('If-Modified-Since: 304 when not modified since, 200 when modified after, ignored when not a date', async (t) => {
  const first = await get('/files/app.js');
  await first.arrayBuffer();
  const lastModified = first.headers.get('last-modified')!;
  t.is((await get('/files/app.js', { 'If-Modified-Since': lastModified })).status, 304);
  t.is(
    (await get('/files/app.js', { 'If-Modified-Since': new Date(Date.now() + 3600_000).toUTCString() })).status,
    304,
  );
  const older = await get('/files/app.js', {
    'If-Modified-Since': new Date(Date.parse(lastModified) - 1000).toUTCString(),
  });
  t.is(older.status, 200);
  t.is(await older.text(), 'console.log("app");\n');
  t.is((await get('/files/app.js', { 'If-Modified-Since': 'yesterday-ish' })).status, 200);
});

test('a file changed since the ETag was taken is sent again', async (t) => {
  const file = path.join(fixture.root, 'changing.txt');
  fs.writeFileSync(file, 'one');
  fs.utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const first = await get('/files/changing.txt');
  await first.text();
  fs.writeFileSync(file, 'two!');
  const r = await get('/files/changing.txt', {
    'If-None-Match': first.headers.get('etag')!,
    'If-Modified-Since': first.headers.get('last-modified')!,
  });
  t.is(r.status, 200);
  t.is(await r.text(), 'two!');
});

test('If-Match that does not match gives 412', async (t) => {
  const r = await get('/files/app.js', { 'If-Match': '"not-this-one"', Accept: 'application/json' });
  t.is(r.status, 412);
  t.is(((await r.json()) as { code: string }).code, 'RU_ERR_PRECONDITION_FAILED');
});

test('Range: first bytes, open end, suffix and a clamped end give 206 with Content-Range and exactly those bytes', async (t) => {
  const size = fixture.binary.length;
  const cases: Array<[string, number, number]> = [
    ['bytes=0-99', 0, 99],
    ['bytes=1000-', 1000, size - 1],
    ['bytes=-500', size - 500, size - 1],
    [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ['bytes=70000-200000', 70000, 200000],
  ];
  for (const [range, start, end] of cases) {
    const r = await get('/files/data.bin', { Range: range });
    t.is(r.status, 206, range);
    t.is(r.headers.get('content-range'), `bytes ${start}-${end}/${size}`, range);
    t.is(r.headers.get('content-length'), String(end - start + 1), range);
    t.true(Buffer.from(await r.arrayBuffer()).equals(fixture.binary.subarray(start, end + 1)), range);
  }
});

test('Range outside the file gives 416 with Content-Range bytes */size; several ranges or bad syntax get the whole file', async (t) => {
  const size = fixture.binary.length;
  const r = await get('/files/data.bin', { Range: `bytes=${size}-`, Accept: 'application/json' });
  t.is(r.status, 416);
  t.is(r.headers.get('content-range'), `bytes */${size}`);
  t.is(((await r.json()) as { code: string }).code, 'RU_ERR_RANGE_NOT_SATISFIABLE');
  for (const range of ['bytes=0-1,5-6', 'bytes=5-1', 'items=0-1', 'bytes=abc']) {
    const whole = await get('/files/data.bin', { Range: range });
    t.is(whole.status, 200, range);
    t.is((await whole.arrayBuffer()).byteLength, size, range);
  }
});

test('If-Range: a stale validator turns the Range off (200 whole file), the current one keeps it (206)', async (t) => {
  const first = await get('/files/data.bin');
  await first.arrayBuffer();
  const etag = first.headers.get('etag')!;
  const stale = await get('/files/data.bin', { Range: 'bytes=0-9', 'If-Range': '"old-version"' });
  t.is(stale.status, 200);
  t.is((await stale.arrayBuffer()).byteLength, fixture.binary.length);
  const current = await get('/files/data.bin', { Range: 'bytes=0-9', 'If-Range': etag });
  t.is(current.status, 206);
  t.is((await current.arrayBuffer()).byteLength, 10);
  const byDate = await get('/files/data.bin', { Range: 'bytes=0-9', 'If-Range': first.headers.get('last-modified')! });
  t.is(byDate.status, 206);
  await byDate.arrayBuffer();
});

test('HEAD sends the headers and the length GET would have, without a body; with Range, the range length', async (t) => {
  const head = await rawRequest(
    server.port,
    'HEAD /files/data.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    10000,
  );
  t.regex(head.text, /^HTTP\/1\.1 200 OK\r\n/);
  t.regex(head.text, new RegExp(`\r\ncontent-length: ${fixture.binary.length}\r\n`, 'i'));
  t.regex(head.text, /\r\netag: "/i);
  t.true(head.text.endsWith('\r\n\r\n'), 'no body after the head');
  const ranged = await rawRequest(
    server.port,
    'HEAD /files/data.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\nRange: bytes=0-99\r\n\r\n',
    10000,
  );
  t.regex(ranged.text, /^HTTP\/1\.1 206 /);
  t.regex(ranged.text, /\r\ncontent-length: 100\r\n/i);
});

test('missing files and a null result give 404 with a body saying so', async (t) => {
  const r = await get('/files/nope.txt', { Accept: 'application/json' });
  t.is(r.status, 404);
  t.like(await r.json(), { status: 404, code: 'RU_ERR_FILE_NOT_FOUND' });
  t.is((await get('/files/nothing')).status, 404);
  t.is((await get('/files/sub/page.html/more')).status, 404, 'a file used as a folder');
  t.is((await get('/files/noindex')).status, 404, 'a folder without index file');
});

test('a folder serves its index file', async (t) => {
  const r = await get('/files/sub');
  t.is(r.status, 200);
  t.is(await r.text(), '<h1>sub</h1>');
});

test('dot files are not served (404), a symlink inside the root is', async (t) => {
  const env = await get('/files/.env');
  t.is(env.status, 404);
  t.false((await env.text()).includes('hunter2'));
  t.is((await get('/files/sub/../.env')).status, 404); // fetch normalizes the URL itself: still the dot file
  const alias = await get('/files/alias.js');
  t.is(alias.status, 200);
  t.is(await alias.text(), 'console.log("app");\n');
});

test('FileResponseWriter.under(dir) serves from its own root, not the app root', async (t) => {
  const r = await get('/own/page.html');
  t.is(r.status, 200);
  t.is(await r.text(), '<p>page</p>');
  t.is((await get('/own/app.js')).status, 404);
});

test('a writer subclass made per request (@NoCache) serves from the app root', async (t) => {
  const r = await get('/per-request/app.js');
  t.is(r.status, 200);
  t.is(await r.text(), 'console.log("app");\n');
});

test('a FileResponseWriter route without any root fails registration with a clear message', (t) => {
  class NoRoot {
    @GET @Path('/x') @ResponseWriter(FileResponseWriter) x() {
      return 'x';
    }
  }
  const err = t.throws(() => new RestBuilder().register(NoRoot).build(), { instanceOf: RegistrationError });
  t.regex(err!.message, /needs a root folder: RestBuilder\.staticFiles\(root\)/);
  t.throws(() => new RestBuilder().staticFiles(path.join(fixture.base, 'does-not-exist')), {
    instanceOf: RegistrationError,
    message: /does not exist/,
  });
  t.throws(() => FileResponseWriter.under(path.join(fixture.root, 'app.js')), {
    instanceOf: RegistrationError,
    message: /is not a folder/,
  });
});

test('path traversal never returns the file outside the root: 403 or 404', async (t) => {
  const attempts = [
    '/files/../secret.txt',
    '/files/%2e%2e/secret.txt',
    '/files/%2E%2E/secret.txt',
    '/files/%252e%252e/secret.txt',
    '/files/..%2fsecret.txt',
    '/files/..%2Fsecret.txt',
    '/files/sub/..%2f..%2fsecret.txt',
    '/files/..%5csecret.txt',
    '/files/sub%5c..%5c..%5csecret.txt',
    '/files/%2fetc%2fpasswd',
    '/files//etc/passwd',
    '/files/escape.txt',
    '/files/escape-dir/secret.txt',
    '/files/app.js%00.png',
    '/files/by-query?p=../secret.txt',
    '/files/by-query?p=%2E%2E%2Fsecret.txt',
    '/files/by-query?p=/etc/passwd',
    `/files/by-query?p=${encodeURIComponent(fixture.secret)}`,
    '/files/by-query?p=C:%5Cwindows%5Cwin.ini',
    '/files/by-query?p=..%5Csecret.txt',
    '/files/by-query?p=app.js%00',
    '/files/by-query?p=sub/./../../secret.txt',
  ];
  for (const target of attempts) {
    const r = await rawRequest(
      server.port,
      `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAccept: application/json\r\n\r\n`,
      10000,
    );
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(r.text)?.[1]);
    t.true(status === 403 || status === 404 || status === 400, `${target} answered ${status}`);
    t.false(r.text.includes(SECRET_TEXT), `${target} leaked the secret`);
    t.false(r.text.includes('root:x:0:0'), `${target} leaked /etc/passwd`);
  }
  const dots = await rawRequest(
    server.port,
    'GET /files/%2e%2e/secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAccept: application/json\r\n\r\n',
    10000,
  );
  t.regex(dots.text, /^HTTP\/1\.1 403 /);
  t.regex(dots.text, /RU_ERR_PATH_FORBIDDEN/);
  const link = await rawRequest(
    server.port,
    'GET /files/escape.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAccept: application/json\r\n\r\n',
    10000,
  );
  t.regex(link.text, /^HTTP\/1\.1 403 /);
  t.regex(link.text, /symbolic link/);
});

test('read buffers are reused between transfers without mixing them: concurrent multi-chunk downloads, some cut off, all arrive byte for byte', async (t) => {
  // Two files of several read steps each (256 KiB), with different random contents.
  const files = ['pool-a.bin', 'pool-b.bin'].map((name, index) => {
    const bytes = Buffer.alloc(1024 * 1024 + 1000 * (index + 1));
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * (index + 7) + (i >> 10)) & 0xff;
    fs.writeFileSync(path.join(fixture.root, name), bytes);
    return { name, bytes };
  });
  for (let round = 0; round < 3; round++) {
    // Downloads cut off after their first bytes return their buffers while the others still stream; 36 at once
    // are more than the reads allowed in flight, so some wait for a read slot (and some are cut off waiting).
    const cut = Array.from({ length: 12 }, async (_, i) => {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/files/${files[i % 2]!.name}`, { signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.read().catch(() => undefined);
    });
    const whole = Array.from({ length: 24 }, async (_, i) => {
      const file = files[i % 2]!;
      const res = await fetch(`${server.url}/files/${file.name}`);
      return { file, body: Buffer.from(await res.arrayBuffer()) };
    });
    const [, done] = await Promise.all([Promise.all(cut), Promise.all(whole)]);
    for (const { file, body } of done) {
      let at = 0;
      while (at < body.length && body[at] === file.bytes[at]) at++;
      t.true(
        body.equals(file.bytes),
        `${file.name} (round ${round}): ${body.length} of ${file.bytes.length} bytes, first difference at ${at}`,
      );
    }
  }
});
