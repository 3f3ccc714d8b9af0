import test from 'ava';
import * as net from 'node:net';
import { Context, Path, POST, RestBuilder, RoutingContext } from '../../src/index';
import { listen } from '../support/server';
import { eventually, filesIn, statusOf, tempFolder } from './support';

class Sink {
  @POST @Path('/upload')
  upload(@Context() ctx: RoutingContext) {
    return ctx.fileUploads().map((f) => ({ fileName: f.fileName, size: f.size }));
  }
}

const MIB = 1024 * 1024;

/** Sends a multipart upload of `size` bytes from a small reused buffer, respecting the socket's backpressure. */
function upload(port: number, size: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const boundary = 'big-upload-boundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const socket = net.connect(port, '127.0.0.1');
    const answer: Buffer[] = [];
    socket.on('data', (d) => answer.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(answer).toString('latin1')));
    socket.on('connect', async () => {
      socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + size + tail.length}\r\n\r\n`);
      socket.write(head);
      const block = Buffer.alloc(MIB, 0x5a);
      for (let sent = 0; sent < size; sent += block.length) {
        if (!socket.write(block.subarray(0, Math.min(block.length, size - sent)))) await new Promise((r) => socket.once('drain', r));
      }
      socket.write(tail);
    });
  });
}

test('a 256 MiB upload is streamed to disk: the process RSS stays low and the file is complete', async (t) => {
  t.timeout(120_000);
  const uploads = tempFolder('large-upload');
  const server = await listen(new RestBuilder().bodyHandler({ maxBodySize: 512 * MIB, uploadsDirectory: uploads }).register(Sink).build());
  try {
    const before = process.memoryUsage.rss();
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    const answer = await upload(server.port, 256 * MIB);
    clearInterval(timer);
    t.is(statusOf(answer), 200, answer.slice(0, 300));
    t.true(answer.endsWith(JSON.stringify([{ fileName: 'big.bin', size: 256 * MIB }])));
    const growth = (peak - before) / MIB;
    t.log(`RSS before ${(before / MIB).toFixed(0)} MiB, peak ${(peak / MIB).toFixed(0)} MiB, growth ${growth.toFixed(1)} MiB for a 256 MiB upload`);
    t.true(growth < 64, `RSS grew by ${growth.toFixed(1)} MiB`);
    t.true(await eventually(() => filesIn(uploads).length === 0), 'the file is deleted after the request');
  } finally {
    server.close();
  }
});
