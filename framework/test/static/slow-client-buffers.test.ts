import test from 'ava';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { RestBuilder } from '../../src/index';
import { listen } from '../support/server';

/**
 * Read buffers are pooled across transfers: a chunk whose tail waits for a slow client must keep its buffer until
 * the tail is out. (It once went back to the pool at once: another download then read its own file into it, and
 * the slow client received the other file's bytes.)
 */
test('a slow download never receives bytes of another download', async (t) => {
  t.timeout(90_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-buffers-'));
  const size = 64 * 1024 * 1024;
  fs.writeFileSync(path.join(dir, 'a.bin'), Buffer.alloc(size, 'a'));
  fs.writeFileSync(path.join(dir, 'b.bin'), Buffer.alloc(size, 'b'));
  const server = await listen(new RestBuilder().staticFiles('/f', dir).build());
  t.teardown(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const slow = net.connect(server.port, '127.0.0.1');
  let received = 0;
  let foreign = 0;
  let headDone = false;
  const whole = new Promise<void>((resolve) => {
    slow.on('data', (data: Buffer) => {
      let body = data;
      if (!headDone) {
        const end = data.indexOf('\r\n\r\n');
        headDone = true;
        body = data.subarray(end + 4);
      }
      received += body.length;
      for (let i = 0; i < body.length; i++) if (body[i] !== 0x61) foreign++;
      if (received >= size) resolve();
    });
  });
  const started = new Promise<void>((resolve) => slow.once('data', () => resolve()));
  slow.write('GET /f/a.bin HTTP/1.1\r\nHost: x\r\n\r\n');
  await started;
  slow.pause();
  // The kernel's buffers fill within milliseconds; a slower machine only makes this test see less, never fail wrongly.
  await new Promise((r) => setTimeout(r, 500));
  for (let i = 0; i < 3; i++) {
    await new Promise<void>((resolve, reject) =>
      http.get(`${server.url}/f/b.bin`, (r) => r.resume().on('end', resolve)).on('error', reject),
    );
  }
  slow.resume();
  await whole;
  slow.destroy();
  t.is(received, size);
  t.is(foreign, 0, 'bytes of b.bin reached the download of a.bin');
});
