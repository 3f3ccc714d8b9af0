import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import * as zlib from 'node:zlib';
import { Context, GET, HttpServerResponse, Path, RestBuilder, compression } from '../../src/index';
import { listen, type RunningServer } from '../support/server';

/** 64 KiB chunks of base64 text: compresses to about three quarters, so the compressed stream stays large. */
const POOL = Array.from({ length: 16 }, () => randomBytes(48 * 1024).toString('base64'));
const MiB = 1024 * 1024;
const TOTAL = 128 * MiB;

interface Transfer {
  produced: number;
  hash: Promise<string>;
  gone: Promise<void>;
}
let current: Transfer | undefined;

/** Resolves when the response can take more, or when the client left. */
function drained(response: HttpServerResponse): Promise<void> {
  return new Promise((resolve) => {
    response.onAborted(resolve);
    response.onWritable(() => (resolve(), true));
  });
}

@Path('/')
class Producer {
  @GET
  @Path('ping')
  ping() {
    return 'pong';
  }

  /** Writes TOTAL bytes of text with backpressure: it waits whenever `write` says so. */
  @GET
  @Path('stream')
  async stream(@Context() response: HttpServerResponse): Promise<void> {
    let done!: (hash: string) => void;
    let left!: () => void;
    const transfer: Transfer = {
      produced: 0,
      hash: new Promise((r) => (done = r)),
      gone: new Promise((r) => (left = r)),
    };
    current = transfer;
    response.onAborted(left);
    response.putHeader('Content-Type', 'text/plain; charset=utf-8');
    const hash = createHash('sha256');
    for (let i = 0; transfer.produced < TOTAL && !response.aborted(); i++) {
      const chunk = POOL[i % POOL.length]!;
      transfer.produced += chunk.length;
      hash.update(chunk);
      if (!response.write(chunk)) await drained(response);
    }
    done(hash.digest('hex'));
    response.end();
  }
}

let server: RunningServer;
test.before(async () => {
  server = await listen(
    new RestBuilder()
      .use(compression({ gzipLevel: 1 }))
      .register(Producer)
      .build(),
  );
});
test.after.always(() => server?.close());

/** Waits until `read()` stops growing for `quietMs` (progress resets the wait), or reaches `limit`. */
async function untilStalled(read: () => number, limit: number, quietMs = 300): Promise<number> {
  let last = -1;
  while (read() !== last && read() < limit) {
    last = read();
    await new Promise((r) => setTimeout(r, quietMs));
  }
  return read();
}

test.serial(
  'a client that stops reading a compressed stream holds the producer back; resumed, it gets every byte',
  async (t) => {
    t.timeout(120_000);
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(`${server.url}/stream`, { headers: { 'Accept-Encoding': 'gzip' }, agent: false }, resolve)
        .on('error', reject);
    });
    response.pause();
    t.is(response.headers['content-encoding'], 'gzip');
    // Slower progress under load only lowers what was produced: the bound holds either way.
    const produced = await untilStalled(() => current!.produced, TOTAL);
    t.log(`produced ${(produced / MiB).toFixed(1)} MiB of ${TOTAL / MiB} while the client read nothing`);
    t.true(produced < 48 * MiB, `the producer ran ahead to ${(produced / MiB).toFixed(1)} MiB`);

    const received = createHash('sha256');
    let length = 0;
    await new Promise<void>((resolve, reject) => {
      response
        .pipe(zlib.createGunzip())
        .on('data', (c: Buffer) => {
          length += c.length;
          received.update(c);
        })
        .on('end', resolve)
        .on('error', reject);
      response.resume();
    });
    t.is(length, TOTAL);
    t.is(received.digest('hex'), await current!.hash);
  },
);

test.serial('a client that leaves mid-stream stops the producer, and the server answers on', async (t) => {
  const request = http.get(`${server.url}/stream`, { headers: { 'Accept-Encoding': 'br' }, agent: false });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    request.on('response', resolve).on('error', reject),
  );
  t.is(response.headers['content-encoding'], 'br');
  await new Promise<void>((resolve) => response.once('data', () => resolve()));
  request.destroy();
  await current!.gone;
  await current!.hash; // the loop ended
  t.true(current!.produced < TOTAL);
  const next = await fetch(`${server.url}/ping`);
  t.is(await next.text(), 'pong');
});
