import test from 'ava';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { RestBuilder } from '../../src/index';
import { listen, type RunningServer } from '../support/server';

// A sparse 1 GiB file: takes no disk space, but reading it whole into memory would cost 1 GiB of RSS.
const GIB = 1024 * 1024 * 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-large-'));
const bigFile = path.join(dir, 'big.bin');
fs.writeFileSync(bigFile, '');
fs.truncateSync(bigFile, GIB);
fs.writeFileSync(path.join(dir, 'tail.bin'), 'x');

let server: RunningServer;
test.before(async () => {
  server = await listen(new RestBuilder().staticFiles('/big', dir).build());
});
test.after.always(() => {
  server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Highest RSS seen while `work` runs, sampled every 20 ms. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

/** Open descriptors of this process that point at the big file. */
function openHandlesOfBigFile(): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === bigFile) n++;
    } catch {
      // the descriptor closed while listing
    }
  }
  return n;
}

test.serial('a 1 GiB file is streamed whole while the process RSS stays low', async (t) => {
  t.timeout(120_000);
  global.gc?.();
  const before = process.memoryUsage.rss();
  const { result, peak } = await peakRss(
    () =>
      new Promise<{ status: number; length: string | undefined; received: number; nonZero: boolean }>(
        (resolve, reject) => {
          http
            .get(`${server.url}/big/big.bin`, (res) => {
              let received = 0;
              let nonZero = false;
              res.on('data', (chunk: Buffer) => {
                received += chunk.length;
                if (chunk[0] !== 0 || chunk[chunk.length - 1] !== 0) nonZero = true; // spot checks: a full scan would dominate the test's CPU
              });
              res.on('end', () =>
                resolve({ status: res.statusCode!, length: res.headers['content-length'], received, nonZero }),
              );
              res.on('error', reject);
            })
            .on('error', reject);
        },
      ),
  );
  t.is(result.status, 200);
  t.is(result.length, String(GIB));
  t.is(result.received, GIB);
  t.false(result.nonZero, 'a sparse file reads as zeros');
  const growthMiB = (peak - before) / (1024 * 1024);
  t.log(
    `RSS before ${(before / 1048576).toFixed(0)} MiB, peak ${(peak / 1048576).toFixed(0)} MiB, growth ${growthMiB.toFixed(1)} MiB for a 1024 MiB file`,
  );
  t.true(growthMiB < 128, `RSS grew by ${growthMiB.toFixed(1)} MiB`);
});

test.serial(
  'a client that stops reading holds the server back (backpressure), and leaving closes the file',
  async (t) => {
    t.timeout(60_000);
    const before = process.memoryUsage.rss();
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    let received = 0;
    socket.on('data', (chunk) => {
      received += chunk.length;
      socket.pause(); // read one chunk, then stop reading: the kernel buffers fill up
    });
    socket.write('GET /big/big.bin HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 1500));
    const duringMiB = (process.memoryUsage.rss() - before) / (1024 * 1024);
    t.true(received > 0, 'the head and some body arrived');
    t.is(openHandlesOfBigFile(), 1, 'the file is open while its transfer waits');
    t.true(duringMiB < 128, `RSS grew by ${duringMiB.toFixed(1)} MiB while the client did not read`);
    socket.destroy();
    const deadline = Date.now() + 5000;
    while (openHandlesOfBigFile() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    t.is(openHandlesOfBigFile(), 0, 'the file was closed after the client left');
    const after = await fetch(`${server.url}/big/tail.bin`);
    t.is(await after.text(), 'x', 'the server still answers');
  },
);

test.serial('a range at the end of the 1 GiB file is sent without reading what comes before', async (t) => {
  const r = await fetch(`${server.url}/big/big.bin`, { headers: { Range: `bytes=${GIB - 1000}-` } });
  t.is(r.status, 206);
  t.is(r.headers.get('content-range'), `bytes ${GIB - 1000}-${GIB - 1}/${GIB}`);
  t.is((await r.arrayBuffer()).byteLength, 1000);
});
