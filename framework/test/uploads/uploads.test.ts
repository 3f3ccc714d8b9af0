import test from 'ava';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import {
  Consumes,
  Context,
  Event,
  FileUpload,
  FormParam,
  Path,
  POST,
  RegistrationError,
  RestBuilder,
  RoutingContext,
  type RestEvent,
} from '../../src/index';
import type { BodyHandlerOptions } from '../../src/index';
import { rawRequest } from '../support/raw-http';
import { listen, type RunningServer } from '../support/server';
import { eventually, filesIn, multipartBody, statusOf, tempFolder } from './support';

/** Where handlers move files they keep. */
const keptDir = tempFolder('kept');
/** Lets a test hold a handler while it looks at the uploads folder. */
let gate: Promise<void> = Promise.resolve();

@Path('/up')
class Uploads {
  @POST
  @Path('/form')
  async form(@FormParam('title') title: string, @FormParam('tag') tags: string[], @Context() ctx: RoutingContext) {
    await gate;
    const files = await Promise.all(
      ctx.fileUploads().map(async (f) => ({
        ...f.toJSON(),
        path: f.path,
        mode: (await fs.promises.stat(f.path)).mode & 0o777,
        content: (await fs.promises.readFile(f.path)).toString('latin1'),
      })),
    );
    return { title, tags, files };
  }

  @POST
  @Path('/files-only')
  @Consumes('multipart/form-data')
  filesOnly(@Context() ctx: RoutingContext) {
    return ctx.fileUploads().map((f) => ({ ...f.toJSON(), path: f.path }));
  }

  @POST
  @Path('/keep')
  async keep(@FormParam('name') name: string, @Context() ctx: RoutingContext) {
    const upload: FileUpload = ctx.fileUploads()[0]!;
    return { at: await upload.moveTo(path.join(keptDir, name)) };
  }

  @POST
  @Path('/keep-in-place')
  keepInPlace(@Context() ctx: RoutingContext) {
    const upload = ctx.fileUploads()[0]!;
    upload.keep();
    return { path: upload.path };
  }

  @POST
  @Path('/json')
  @Consumes('application/json')
  json(body: { a: number }) {
    return body;
  }

  @POST
  @Path('/urlencoded')
  urlencoded(@FormParam('a') a: string, @FormParam('b') b: number) {
    return { a, b };
  }
}

interface App {
  server: RunningServer;
  uploads: string;
}

const running: RunningServer[] = [];
/** What the apps logged (instead of printing it). */
const logged: Array<{ level: string; record: unknown; message?: string }> = [];
const logger = {
  error: (record: unknown, message?: string) => void logged.push({ level: 'error', record, message }),
  warn: (record: unknown, message?: string) => void logged.push({ level: 'warn', record, message }),
  info: () => undefined,
  debug: () => undefined,
};
async function start(options: BodyHandlerOptions = {}): Promise<App> {
  const uploads = tempFolder('uploads');
  const server = await listen(
    new RestBuilder()
      .logger(logger)
      .bodyHandler({ maxBodySize: 1024 * 1024, uploadsDirectory: uploads, ...options })
      .register(Uploads)
      .build(),
  );
  running.push(server);
  return { server, uploads };
}
test.after.always(() => {
  for (const s of running) s.close();
});

function form(entries: Array<[string, string | Blob, string?]>): FormData {
  const f = new FormData();
  for (const [name, value, fileName] of entries) {
    if (typeof value === 'string') f.append(name, value);
    else f.append(name, value, fileName);
  }
  return f;
}

test('files are streamed to the uploads folder under generated names; fields reach @FormParam; ctx.fileUploads() describes the files', async (t) => {
  const { server, uploads } = await start();
  const binary = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256));
  const r = await fetch(`${server.url}/up/form`, {
    method: 'POST',
    body: form([
      ['title', 'Hello, wörld'],
      ['tag', 'a'],
      ['tag', 'b'],
      ['doc', new Blob(['first file'], { type: 'text/plain' }), 'notes.txt'],
      ['bin', new Blob([binary], { type: 'application/octet-stream' }), '../../../etc/passwd'],
    ]),
  });
  t.is(r.status, 200);
  const json = (await r.json()) as {
    title: string;
    tags: string[];
    files: Array<{
      fieldName: string;
      fileName: string;
      contentType: string;
      size: number;
      path: string;
      mode: number;
      content: string;
    }>;
  };
  t.is(json.title, 'Hello, wörld');
  t.deepEqual(json.tags, ['a', 'b']);
  t.is(json.files.length, 2);
  const [doc, bin] = json.files;
  t.like(doc, { fieldName: 'doc', fileName: 'notes.txt', contentType: 'text/plain', size: 10, content: 'first file' });
  t.like(bin, { fieldName: 'bin', fileName: 'passwd', contentType: 'application/octet-stream', size: 5000 });
  t.true(Buffer.from(bin!.content, 'latin1').equals(binary));
  for (const f of json.files) {
    t.is(path.dirname(f.path), uploads);
    t.regex(path.basename(f.path), /^[0-9a-f-]{36}$/, 'a generated name, not the client one');
    t.is(f.mode, 0o600);
  }
  t.true(await eventually(() => filesIn(uploads).length === 0), 'files are deleted when the request ends');
});

test('a route with @Consumes(multipart/form-data) and only ctx.fileUploads() gets its files', async (t) => {
  const { server } = await start();
  const r = await fetch(`${server.url}/up/files-only`, {
    method: 'POST',
    body: form([['f', new Blob(['x']), 'x.txt']]),
  });
  const files = (await r.json()) as Array<{ fileName: string; size: number }>;
  t.like(files, [{ fileName: 'x.txt', size: 1 }]);
});

test('a file the handler moved is kept; the others are deleted at the end of the request', async (t) => {
  const { server, uploads } = await start();
  const name = `kept-${process.pid}-${Date.now()}.txt`;
  const r = await fetch(`${server.url}/up/keep`, {
    method: 'POST',
    body: form([
      ['name', name],
      ['f', new Blob(['keep me']), 'k.txt'],
      ['g', new Blob(['drop me']), 'd.txt'],
    ]),
  });
  const { at } = (await r.json()) as { at: string };
  t.is(at, path.join(keptDir, name));
  t.is(fs.readFileSync(at, 'utf8'), 'keep me');
  t.true(await eventually(() => filesIn(uploads).length === 0));
});

test('deleteUploadedFilesOnEnd: false keeps the files after the request', async (t) => {
  const { server, uploads } = await start({ deleteUploadedFilesOnEnd: false });
  const r = await fetch(`${server.url}/up/files-only`, { method: 'POST', body: form([['f', new Blob(['stay'])]]) });
  const [file] = (await r.json()) as Array<{ path: string }>;
  await new Promise((r) => setTimeout(r, 100));
  t.is(fs.readFileSync(file!.path, 'utf8'), 'stay');
  t.deepEqual(filesIn(uploads), [path.basename(file!.path)]);
});

// Serial: it holds the shared /up/form handler on a gate.
test.serial('while the handler runs, the file exists; afterwards it is gone', async (t) => {
  const { server, uploads } = await start();
  let release!: () => void;
  gate = new Promise((r) => (release = r));
  const pending = fetch(`${server.url}/up/form`, {
    method: 'POST',
    body: form([
      ['title', 't'],
      ['tag', 'x'],
      ['f', new Blob(['held']), 'h.txt'],
    ]),
  });
  t.true(await eventually(() => filesIn(uploads).length === 1), 'the file is in the uploads folder during the request');
  release();
  const r = await pending;
  t.is(r.status, 200);
  t.true(await eventually(() => filesIn(uploads).length === 0));
  gate = Promise.resolve();
});

test('a body declared over maxBodySize gets 413 and no file is created', async (t) => {
  const { server, uploads } = await start({ maxBodySize: 64 * 1024 });
  const r = await fetch(`${server.url}/up/files-only`, {
    method: 'POST',
    body: form([['f', new Blob([Buffer.alloc(100 * 1024)]), 'big.bin']]),
  });
  t.is(r.status, 413);
  t.deepEqual(filesIn(uploads), []);
});

test('a chunked body that grows over maxBodySize gets 413, the connection is closed and the partial file is deleted', async (t) => {
  const { server, uploads } = await start({ maxBodySize: 256 * 1024 });
  const boundary = 'chunky';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n`);
  const hex = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
  const parts: Buffer[] = [
    Buffer.from(
      `POST /up/files-only HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    ),
    hex(head),
  ];
  for (let i = 0; i < 8; i++) parts.push(hex(Buffer.alloc(64 * 1024, 7)));
  parts.push(Buffer.from('0\r\n\r\n')); // the client sends all of it: the rest is read (and dropped) before the 413
  const r = await rawRequest(server.port, parts, 10_000, 20);
  t.is(statusOf(r.text), 413);
  t.regex(r.text, /exceeds the limit of 262144 bytes/);
  t.true(r.closed);
  t.true(await eventually(() => filesIn(uploads).length === 0), `left: ${filesIn(uploads).join(', ')}`);
});

test('a file over maxFileSize gets 413 naming the file; nothing is left', async (t) => {
  const { server, uploads } = await start({ maxFileSize: 1000 });
  const r = await fetch(`${server.url}/up/files-only`, {
    method: 'POST',
    headers: { Accept: 'application/json' },
    body: form([
      ['ok', new Blob(['small']), 'ok.txt'],
      ['f', new Blob([Buffer.alloc(5000)]), 'toobig.bin'],
    ]),
  });
  t.is(r.status, 413);
  const body = (await r.json()) as { code: string; message: string };
  t.is(body.code, 'RU_ERR_UPLOAD_TOO_LARGE');
  t.regex(body.message, /toobig\.bin/);
  t.true(await eventually(() => filesIn(uploads).length === 0));
});

test('too many files, too many fields or a field too large get 413', async (t) => {
  const { server, uploads } = await start({ maxFiles: 2, maxFields: 3, maxFieldSize: 100 });
  const post = (f: FormData) =>
    fetch(`${server.url}/up/files-only`, { method: 'POST', headers: { Accept: 'application/json' }, body: f });
  const files = await post(
    form([
      ['a', new Blob(['1']), 'a'],
      ['b', new Blob(['2']), 'b'],
      ['c', new Blob(['3']), 'c'],
    ]),
  );
  t.is(files.status, 413);
  t.regex(((await files.json()) as { message: string }).message, /more than 2 files/);
  const fields = await post(
    form([
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
      ['d', '4'],
    ]),
  );
  t.is(fields.status, 413);
  t.regex(((await fields.json()) as { message: string }).message, /more than 3 form fields/);
  const big = await post(form([['a', 'x'.repeat(101)]]));
  t.is(big.status, 413);
  t.regex(((await big.json()) as { message: string }).message, /"a" is larger than 100 bytes/);
  t.true(await eventually(() => filesIn(uploads).length === 0));
});

test('an upload aborted by the client leaves no file behind, and the server keeps answering', async (t) => {
  const { server, uploads } = await start({ maxBodySize: 16 * 1024 * 1024 });
  const boundary = 'gone';
  const socket = net.connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  socket.on('error', () => undefined);
  socket.write(
    `POST /up/files-only HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
  );
  socket.write(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="partial.bin"\r\n\r\n`);
  socket.write(Buffer.alloc(512 * 1024, 1));
  t.true(
    await eventually(() => filesIn(uploads).some((f) => fs.statSync(path.join(uploads, f)).size > 0)),
    'the partial file was being written',
  );
  socket.destroy();
  t.true(await eventually(() => filesIn(uploads).length === 0), `left: ${filesIn(uploads).join(', ')}`);
  const after = await fetch(`${server.url}/up/files-only`, {
    method: 'POST',
    body: form([['f', new Blob(['ok']), 'ok.txt']]),
  });
  t.is(after.status, 200);
});

test('malformed multipart bodies get 400 saying why, and leave no file', async (t) => {
  const { server, uploads } = await start();
  const send = (contentType: string, body: Buffer) =>
    fetch(`${server.url}/up/files-only`, {
      method: 'POST',
      headers: { 'Content-Type': contentType, Accept: 'application/json' },
      body,
    });
  const noBoundary = await send(
    'multipart/form-data',
    multipartBody('b', [{ name: 'f', fileName: 'f.txt', content: 'x' }]),
  );
  t.is(noBoundary.status, 400);
  t.regex(((await noBoundary.json()) as { message: string }).message, /no valid boundary/);
  const truncated = multipartBody('b', [{ name: 'f', fileName: 'f.txt', content: 'some content' }]);
  const cut = await send('multipart/form-data; boundary=b', truncated.subarray(0, truncated.length - 8));
  t.is(cut.status, 400);
  t.is(((await cut.json()) as { code: string }).code, 'RU_ERR_MULTIPART');
  const noName = await send(
    'multipart/form-data; boundary=b',
    Buffer.from('--b\r\nContent-Disposition: form-data; filename="x"\r\n\r\nx\r\n--b--\r\n'),
  );
  t.is(noName.status, 400);
  t.regex(((await noName.json()) as { message: string }).message, /no field name/);
  t.true(await eventually(() => filesIn(uploads).length === 0));
});

test('an empty file input (filename="") is ignored; a file part without Content-Type is application/octet-stream', async (t) => {
  const { server } = await start();
  const body = multipartBody('b', [
    { name: 'empty', fileName: '', type: 'application/octet-stream', content: '' },
    { name: 'bare', fileName: 'bare.dat', content: 'abc' },
  ]);
  const r = await fetch(`${server.url}/up/files-only`, {
    method: 'POST',
    headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
    body,
  });
  t.like((await r.json()) as object[], [
    { fieldName: 'bare', fileName: 'bare.dat', contentType: 'application/octet-stream', size: 3 },
  ]);
});

test('a route that consumes JSON is not fed multipart (415); urlencoded forms still reach @FormParam', async (t) => {
  const { server } = await start();
  const json = await fetch(`${server.url}/up/json`, { method: 'POST', body: form([['a', '1']]) });
  t.is(json.status, 415);
  const urlencoded = await fetch(`${server.url}/up/urlencoded`, {
    method: 'POST',
    body: new URLSearchParams({ a: 'x y', b: '42' }),
  });
  t.deepEqual(await urlencoded.json(), { a: 'x y', b: 42 });
  const multipart = await fetch(`${server.url}/up/urlencoded`, {
    method: 'POST',
    body: form([
      ['a', 'from multipart'],
      ['b', '7'],
    ]),
  });
  t.deepEqual(await multipart.json(), { a: 'from multipart', b: 7 });
});

test('bad upload settings fail the build with a clear message', (t) => {
  const file = path.join(tempFolder('not-a-folder'), 'file');
  fs.writeFileSync(file, '');
  t.throws(() => new RestBuilder().bodyHandler({ uploadsDirectory: file }).register(Uploads).build(), {
    instanceOf: RegistrationError,
    message: /uploads folder .* cannot be used/,
  });
  t.throws(() => new RestBuilder().bodyHandler({ maxFiles: -1 }).register(Uploads).build(), {
    instanceOf: RegistrationError,
    message: /maxFiles must be a whole number/,
  });
});

test('keep() leaves the file where it is after the request', async (t) => {
  const { server, uploads } = await start();
  const r = await fetch(`${server.url}/up/keep-in-place`, {
    method: 'POST',
    body: form([
      ['f', new Blob(['mine']), 'm.txt'],
      ['g', new Blob(['other']), 'o.txt'],
    ]),
  });
  const kept = ((await r.json()) as { path: string }).path;
  t.true(await eventually(() => filesIn(uploads).length === 1), 'only the other file is deleted');
  t.is(fs.readFileSync(kept, 'utf8'), 'mine');
});

test('when the uploads folder cannot be written, the upload gets 500 without internals and nothing is left', async (t) => {
  const { server, uploads } = await start();
  fs.rmSync(uploads, { recursive: true });
  fs.writeFileSync(uploads, 'a file where the folder was');
  try {
    const r = await fetch(`${server.url}/up/files-only`, {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body: form([['f', new Blob(['x']), 'x.txt']]),
    });
    t.is(r.status, 500);
    const body = (await r.json()) as { message: string };
    t.is(body.message, 'Internal Server Error');
    t.true(
      logged.some(
        (l) => l.level === 'error' && /EEXIST/.test(JSON.stringify((l.record as { err?: Error }).err?.message)),
      ),
      'the cause is logged',
    );
    t.is(fs.readFileSync(uploads, 'utf8'), 'a file where the folder was');
  } finally {
    fs.rmSync(uploads);
  }
});

/** Reads the uploaded files when the response is out, as an event may. */
const seenByEvent: string[] = [];
class ReadUploads implements RestEvent<unknown> {
  async execute(_entity: unknown, ctx: RoutingContext): Promise<void> {
    await new Promise((r) => setTimeout(r, 20));
    for (const f of ctx.fileUploads()) seenByEvent.push(fs.readFileSync(f.path, 'utf8'));
  }
}

class WithEvent {
  @POST
  @Path('/with-event')
  @Event(ReadUploads)
  upload(@Context() ctx: RoutingContext) {
    return { files: ctx.fileUploads().length };
  }
}

test('events still see the uploaded files; they are deleted after the events ran', async (t) => {
  const uploads = tempFolder('event-uploads');
  const server = await listen(
    new RestBuilder().logger(logger).bodyHandler({ uploadsDirectory: uploads }).register(WithEvent).build(),
  );
  running.push(server);
  const r = await fetch(`${server.url}/with-event`, {
    method: 'POST',
    body: form([['f', new Blob(['seen by the event']), 'e.txt']]),
  });
  t.deepEqual(await r.json(), { files: 1 });
  t.true(await eventually(() => seenByEvent.length === 1 && filesIn(uploads).length === 0));
  t.deepEqual(seenByEvent, ['seen by the event']);
});
