/**
 * A body refused while the client is still sending it (over the body limit, declared or grown; too many form
 * fields) must reach the client as its 413. Closing the connection with bytes of the body unread makes the kernel
 * reset it: a client still writing then sees EPIPE or ECONNRESET, and fetch "fetch failed", instead of the
 * answer. So the rest of a refused body is read and dropped (within bounds: docs/reference/static-files-and-uploads.md)
 * before the answer, and the connection then closes cleanly.
 */
import net from 'node:net';
import test from 'ava';
import { BodyParam, FormParam, Path, POST, RestBuilder, type RestPlugin } from '../../src/index';
import { listen, type RunningServer } from '../support/server';
import { tempFolder } from '../uploads/support';

@Path('/in')
class Inbox {
  @POST @Path('/raw') raw(@BodyParam() body: Buffer) {
    return { length: body.length };
  }
  @POST @Path('/form') form(@FormParam('a0') a: string) {
    return { a };
  }
}

/** Tells the test when a request's head reached the app: an app request hook, which runs before the body is read. */
function headWatcher() {
  let seen: () => void = () => undefined;
  const plugin: RestPlugin = {
    name: 'head-watcher',
    setup(app) {
      app.onRequest(() => {
        seen();
        return false;
      });
    },
  };
  return { plugin, next: () => new Promise<void>((resolve) => (seen = resolve)) };
}

async function start(maxBodySize: number, plugin?: RestPlugin): Promise<RunningServer> {
  const builder = new RestBuilder()
    .bodyHandler({ maxBodySize, uploadsDirectory: tempFolder('refused') })
    .register(Inbox);
  if (plugin) builder.use(plugin);
  const server = await listen(builder.build());
  return server;
}

const BOUNDARY = 'refused-fields';
function manyFields(count: number): Buffer {
  let text = '';
  for (let i = 0; i < count; i++)
    text += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a${i}"\r\n\r\nvalue ${i}\r\n`;
  return Buffer.from(`${text}--${BOUNDARY}--\r\n`);
}

/**
 * Sends `head` and the first part of `body`, waits until the server has the request's head (and has decided on
 * it), then sends the rest in 16 KiB writes, each after the previous one was taken, as an HTTP client keeps
 * sending its body whatever comes back meanwhile; resolves with what came back and how the connection ended.
 */
function sendAcrossTheDecision(
  port: number,
  head: string,
  body: Buffer,
  headReached: Promise<void>,
): Promise<{ text: string; error: string | undefined }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (d) => received.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => resolve({ text: Buffer.concat(received).toString('latin1'), error }));
    const write = (bytes: Buffer) =>
      new Promise<boolean>((done) => socket.write(bytes, (err) => done(err === undefined || err === null)));
    socket.on('connect', async () => {
      const first = Math.min(body.length, 16 * 1024);
      await write(Buffer.concat([Buffer.from(head, 'latin1'), body.subarray(0, first)]));
      await headReached;
      // The hook's promise settles inside the server's callback; what the server does next in it (an answer, a
      // close) is done once the event loop has turned.
      await new Promise((turned) => setImmediate(turned));
      for (let at = first; at < body.length && !socket.destroyed; at += 16 * 1024)
        if (!(await write(body.subarray(at, at + 16 * 1024)))) return;
      socket.end();
    });
  });
}

test('over a raw socket: a body refused after its head arrived is read to its end, then answered 413 and closed cleanly', async (t) => {
  const watcher = headWatcher();
  const server = await start(1024, watcher.plugin);
  t.teardown(() => server.close());
  const body = Buffer.alloc(200_000, 0x61);
  const declared = await sendAcrossTheDecision(
    server.port,
    `POST /in/raw HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`,
    body,
    watcher.next(),
  );
  t.regex(declared.text, /^HTTP\/1\.1 413 [\s\S]*Connection: close[\s\S]*RU_ERR_PAYLOAD_TOO_LARGE/);
  t.is(declared.error, undefined, 'closed without a reset');

  const chunked = Buffer.from(`${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n0\r\n\r\n`, 'latin1');
  const grown = await sendAcrossTheDecision(
    server.port,
    'POST /in/raw HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n',
    chunked,
    watcher.next(),
  );
  t.regex(grown.text, /^HTTP\/1\.1 413 [\s\S]*RU_ERR_PAYLOAD_TOO_LARGE/);
  t.is(grown.error, undefined, 'closed without a reset');
});

test('over a raw socket: an upload refused for its 20,000 fields is read to its end before the 413', async (t) => {
  const watcher = headWatcher();
  const server = await start(16 * 1024 * 1024, watcher.plugin);
  t.teardown(() => server.close());
  const body = manyFields(20_000);
  const answer = await sendAcrossTheDecision(
    server.port,
    `POST /in/form HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
    body,
    watcher.next(),
  );
  t.regex(answer.text, /^HTTP\/1\.1 413 [\s\S]*more than 1000 form fields/);
  t.is(answer.error, undefined);
});

test('over a raw socket: a client that stops sending a refused body still gets its 413, and the connection closes', async (t) => {
  const server = await start(1024);
  t.teardown(() => server.close());
  const socket = net.connect(server.port, '127.0.0.1');
  const received: Buffer[] = [];
  socket.on('data', (d) => received.push(d));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(`POST /in/raw HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n${'a'.repeat(5000)}`);
  // The server reads on while data comes; after 2 s without any, it answers (before uWebSockets.js's idle timeout).
  await closed;
  t.regex(Buffer.concat(received).toString('latin1'), /^HTTP\/1\.1 413 [\s\S]*Request body of 100000 bytes exceeds/);
});

/** A fetch whose body is a stream written in 16 KiB pieces (so that it is still sending when the server decides). */
function streamed(url: string, body: Buffer, headers: Record<string, string>): Promise<Response> {
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (let at = 0; at < body.length; at += 16 * 1024) {
        controller.enqueue(body.subarray(at, at + 16 * 1024));
        await new Promise((resolve) => setImmediate(resolve));
      }
      controller.close();
    },
  });
  return fetch(url, { method: 'POST', body: stream, headers, duplex: 'half' } as RequestInit);
}

test('with fetch: 20,000 form fields, a declared and a chunked body over the limit all read as their 413, every time', async (t) => {
  const server = await start(1024 * 1024);
  t.teardown(() => server.close());
  const fields = manyFields(20_000);
  const big = Buffer.alloc(3 * 1024 * 1024, 0x61);
  const outcomes: string[] = [];
  const record = async (label: string, request: () => Promise<Response>) => {
    try {
      const response = await request();
      const body = (await response.json()) as { code?: string };
      outcomes.push(`${label}: ${response.status} ${body.code}`);
    } catch (error) {
      outcomes.push(`${label}: ${(error as Error).message} ${((error as Error).cause as Error | undefined)?.message}`);
    }
  };
  const form = new FormData();
  for (let i = 0; i < 20_000; i++) form.append(`a${i}`, `value ${i}`);
  const expected: string[] = [];
  for (let round = 0; round < 5; round++) {
    await record('FormData', () => fetch(`${server.url}/in/form`, { method: 'POST', body: form }));
    await record('declared', () =>
      streamed(`${server.url}/in/form`, fields, {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(fields.length),
      }),
    );
    await record('chunked', () =>
      streamed(`${server.url}/in/raw`, big, { 'content-type': 'application/octet-stream' }),
    );
    expected.push(
      'FormData: 413 RU_ERR_PAYLOAD_TOO_LARGE',
      'declared: 413 RU_ERR_PAYLOAD_TOO_LARGE',
      'chunked: 413 RU_ERR_PAYLOAD_TOO_LARGE',
    );
  }
  t.deepEqual(outcomes, expected);
});
