import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import {
  Context,
  GET,
  HttpServerResponse,
  NoCompression,
  Path,
  Produces,
  QueryParam,
  Response,
  RestBuilder,
  WebSocket,
  WebSocketConnection,
  compression,
  type CompressionOptions,
} from '../../src/index';
import { listen, type RunningServer } from '../support/server';
import { getRaw } from './http-get';
import { connect, refusedUpgrade } from '../websocket/ws-client';

/** About 40 KB of JSON: over the default threshold, under the default synchronous limit. */
const ITEMS = Array.from({ length: 400 }, (_, i) => ({
  id: i,
  name: `item number ${i}`,
  tags: ['alpha', 'beta', 'gamma'],
  price: i * 1.25,
}));
/** About 1.2 MB: compressed through a zlib stream. */
const MANY = Array.from({ length: 12_000 }, (_, i) => ({
  id: i,
  name: `item number ${i}`,
  tags: ['alpha', 'beta', 'gamma'],
  price: i * 1.25,
}));
const PNG = Buffer.alloc(8192, 7);

@Path('/')
class Content {
  @GET
  @Path('items')
  items() {
    return ITEMS;
  }

  @GET
  @Path('many')
  many() {
    return MANY;
  }

  @GET
  @Path('small')
  small() {
    return { ok: true };
  }

  @GET
  @Path('image')
  @Produces('image/png')
  image() {
    return PNG;
  }

  @GET
  @Path('raw')
  @NoCompression()
  raw() {
    return ITEMS;
  }

  @GET
  @Path('encoded')
  encoded(@Context() response: HttpServerResponse) {
    response
      .putHeader('Content-Type', 'application/json')
      .putHeader('Content-Encoding', 'gzip')
      .end(zlib.gzipSync(JSON.stringify(ITEMS)));
  }

  @GET
  @Path('missing')
  missing() {
    return Response.status(404).entity(ITEMS).build();
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-compression-'));
const TEXT = Array.from({ length: 40_000 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog\n`).join(
  '',
);
fs.writeFileSync(path.join(dir, 'notes.txt'), TEXT);
fs.writeFileSync(path.join(dir, 'photo.jpg'), Buffer.alloc(100_000, 1));

let server: RunningServer;
test.before(async () => {
  server = await serve({});
});
test.after.always(() => {
  server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function serve(options: CompressionOptions): Promise<RunningServer> {
  return listen(new RestBuilder().use(compression(options)).register(Content).staticFiles('/files', dir).build());
}

const json = (body: Buffer) => JSON.parse(body.toString('utf8'));

test('a large JSON answer is gzipped when asked for: Content-Encoding, Vary, the length of the compressed bytes', async (t) => {
  const res = await getRaw(`${server.url}/items`, { 'Accept-Encoding': 'gzip' });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], 'gzip');
  t.is(res.headers['vary'], 'Accept-Encoding');
  t.is(res.headers['content-type'], 'application/json');
  t.is(Number(res.headers['content-length']), res.body.length);
  t.true(res.body.length < JSON.stringify(ITEMS).length / 4, `${res.body.length} bytes`);
  t.deepEqual(json(zlib.gunzipSync(res.body)), ITEMS);
});

test('negotiation: brotli preferred on a tie, q-values, *, identity;q=0, refused codings', async (t) => {
  const codingOf = async (accept: string | undefined) => {
    const res = await getRaw(`${server.url}/items`, accept === undefined ? {} : { 'Accept-Encoding': accept });
    const coding = res.headers['content-encoding'] ?? 'identity';
    const body =
      coding === 'br' ? zlib.brotliDecompressSync(res.body) : coding === 'gzip' ? zlib.gunzipSync(res.body) : res.body;
    t.deepEqual(json(body), ITEMS, `body for ${accept}`);
    t.is(res.headers['vary'], 'Accept-Encoding', `Vary for ${accept}`);
    return coding;
  };
  t.is(await codingOf('gzip, deflate, br'), 'br');
  t.is(await codingOf('br;q=0.5, gzip;q=0.8'), 'gzip');
  t.is(await codingOf('GZIP'), 'gzip');
  t.is(await codingOf('*'), 'br');
  t.is(await codingOf('br;q=0, *'), 'gzip');
  t.is(await codingOf('identity;q=0, gzip'), 'gzip');
  t.is(await codingOf('identity, gzip;q=0.5'), 'identity', 'the client prefers no coding');
  t.is(await codingOf('br;q=0, gzip;q=0'), 'identity');
  t.is(await codingOf('deflate, zstd'), 'identity');
  t.is(await codingOf(''), 'identity');
  t.is(await codingOf(undefined), 'identity');
  t.is(await codingOf('gzip;q=2, br;q=abc'), 'identity', 'malformed q-values are ignored');
  t.is(await codingOf('gzip;q=0.001'), 'gzip');
});

test('what is never compressed: small bodies, compressed types, @NoCompression routes, HEAD, bodies already encoded', async (t) => {
  const small = await getRaw(`${server.url}/small`, { 'Accept-Encoding': 'gzip, br' });
  t.is(small.headers['content-encoding'], undefined);
  t.is(small.headers['vary'], undefined, 'a body under the threshold does not vary');
  t.deepEqual(json(small.body), { ok: true });

  const image = await getRaw(`${server.url}/image`, { 'Accept-Encoding': 'gzip, br' });
  t.is(image.headers['content-encoding'], undefined);
  t.deepEqual(image.body, PNG);

  const raw = await getRaw(`${server.url}/raw`, { 'Accept-Encoding': 'gzip, br' });
  t.is(raw.headers['content-encoding'], undefined);
  t.deepEqual(json(raw.body), ITEMS);

  const head = await getRaw(`${server.url}/items`, { 'Accept-Encoding': 'gzip, br' }, 'HEAD');
  t.is(head.status, 200);
  t.is(head.headers['content-encoding'], undefined);
  t.is(Number(head.headers['content-length']), JSON.stringify(ITEMS).length);

  const encoded = await getRaw(`${server.url}/encoded`, { 'Accept-Encoding': 'br' });
  t.is(encoded.headers['content-encoding'], 'gzip', 'left as the route encoded it');
  t.deepEqual(json(zlib.gunzipSync(encoded.body)), ITEMS);

  const jpeg = await getRaw(`${server.url}/files/photo.jpg`, { 'Accept-Encoding': 'gzip, br' });
  t.is(jpeg.headers['content-encoding'], undefined);
  t.is(jpeg.body.length, 100_000);
});

test('error answers are compressed like any other', async (t) => {
  const res = await getRaw(`${server.url}/missing`, { 'Accept-Encoding': 'gzip' });
  t.is(res.status, 404);
  t.is(res.headers['content-encoding'], 'gzip');
  t.deepEqual(json(zlib.gunzipSync(res.body)), ITEMS);
});

test('a complete body over syncLimit is compressed off the event loop and sent chunked', async (t) => {
  for (const coding of ['gzip', 'br']) {
    const res = await getRaw(`${server.url}/many`, { 'Accept-Encoding': coding });
    t.is(res.status, 200);
    t.is(res.headers['content-encoding'], coding);
    t.is(res.headers['transfer-encoding'], 'chunked');
    t.is(res.headers['content-length'], undefined);
    const body = coding === 'br' ? zlib.brotliDecompressSync(res.body) : zlib.gunzipSync(res.body);
    t.deepEqual(json(body), MANY);
  }
});

test('static files are compressed as they stream; the ETag turns weak and ranges still get the file itself', async (t) => {
  const plain = await getRaw(`${server.url}/files/notes.txt`);
  t.is(plain.headers['content-encoding'], undefined);
  t.is(plain.headers['accept-ranges'], 'bytes');
  const etag = plain.headers['etag']!;
  t.regex(etag, /^"/);

  const gzipped = await getRaw(`${server.url}/files/notes.txt`, { 'Accept-Encoding': 'gzip' });
  t.is(gzipped.status, 200);
  t.is(gzipped.headers['content-encoding'], 'gzip');
  t.is(gzipped.headers['etag'], `W/${etag}`);
  t.is(gzipped.headers['accept-ranges'], undefined);
  t.is(gzipped.headers['content-type'], 'text/plain; charset=utf-8');
  t.is(zlib.gunzipSync(gzipped.body).toString('utf8'), TEXT);

  // The weak tag still revalidates (If-None-Match compares weakly).
  const revalidated = await getRaw(`${server.url}/files/notes.txt`, {
    'Accept-Encoding': 'gzip',
    'If-None-Match': `W/${etag}`,
  });
  t.is(revalidated.status, 304);

  const range = await getRaw(`${server.url}/files/notes.txt`, { 'Accept-Encoding': 'gzip', Range: 'bytes=0-99' });
  t.is(range.status, 206);
  t.is(range.headers['content-encoding'], undefined);
  t.is(range.body.toString('utf8'), TEXT.slice(0, 100));
  // If-Range with the weak tag of the compressed answer does not match: the whole file comes back.
  const ifRange = await getRaw(`${server.url}/files/notes.txt`, { Range: 'bytes=0-99', 'If-Range': `W/${etag}` });
  t.is(ifRange.status, 200);
  t.is(ifRange.body.length, Buffer.byteLength(TEXT));
});

test('options: threshold, encodings, compressible; mistakes refused at startup', async (t) => {
  const strict = await serve({ threshold: 0, encodings: ['gzip'], compressible: (type) => type.startsWith('image/') });
  t.teardown(() => strict.close());
  const image = await getRaw(`${strict.url}/image`, { 'Accept-Encoding': 'br, gzip' });
  t.is(image.headers['content-encoding'], 'gzip');
  t.deepEqual(zlib.gunzipSync(image.body), PNG);
  const items = await getRaw(`${strict.url}/items`, { 'Accept-Encoding': 'br, gzip' });
  t.is(items.headers['content-encoding'], undefined);

  t.throws(() => compression({ encodings: ['deflate' as 'gzip'] }), {
    message: /encodings must be 'br' and\/or 'gzip'/,
  });
  t.throws(() => compression({ gzipLevel: 10 }), { message: /gzipLevel must be a whole number from 1 to 9/ });
  t.throws(() => compression({ threshold: -1 }), { message: /threshold/ });
});

@WebSocket('/ws/feed')
class FeedEndpoint {
  open(connection: WebSocketConnection, @QueryParam('topic') topic: string) {
    connection.send(`subscribed to ${topic}`);
  }
}

@Path('/http/feed')
class FeedRoute {
  @GET
  get(@QueryParam('topic') topic: string) {
    return `subscribed to ${topic}`;
  }
}

test("a refused WebSocket upgrade has its answer compressed as a route's is; an accepted one is a plain 101", async (t) => {
  const feed = await listen(
    new RestBuilder()
      .use(compression({ threshold: 16 }))
      .register(FeedEndpoint, FeedRoute)
      .build(),
  );
  t.teardown(feed.close);
  const headers = { 'accept-encoding': 'gzip', accept: 'application/json' };
  const http = await getRaw(`${feed.url}/http/feed`, headers);
  const ws = await refusedUpgrade(`ws://127.0.0.1:${feed.port}/ws/feed`, headers);
  t.is(http.status, 400);
  t.is(ws.status, 400);
  t.is(http.headers['content-encoding'], 'gzip');
  t.is(ws.headers['content-encoding'], 'gzip');
  t.is(ws.headers['vary'], 'Accept-Encoding');
  const message = (raw: Buffer) =>
    JSON.parse(zlib.gunzipSync(raw).toString('utf8')).message.replace(/GET \/http|WebSocket \/ws/, 'ROUTE');
  t.is(message(ws.raw), message(http.body));
  const client = await connect(`ws://127.0.0.1:${feed.port}/ws/feed?topic=news`, { headers });
  t.is((await client.next()).data, 'subscribed to news');
  client.socket.close();
});
