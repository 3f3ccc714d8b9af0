import test from 'ava';
import {
  Context,
  GET,
  Header,
  Path,
  POST,
  Produces,
  QueryParam,
  Response,
  RestBuilder,
  HttpServerResponse,
} from '../../src/index';
import { DefaultHead } from '../../src/http/default-head';
import { listen } from '../support/server';
import { rawRequest } from '../support/raw-http';

/**
 * The usual answer's head (status line, the writer's Content-Type, the app's default headers) goes to uWebSockets.js
 * as one composed text (http/default-head.ts) instead of a call per header. What reaches the wire must be what the
 * header-by-header write sends: the same lines, in the same order, for every status and content type, with the
 * app's own defaults, and for answers that carry other headers (written one by one, as before).
 */

const MANY_TYPES = Array.from({ length: 70 }, (_, i) => `application/vnd.many-${i}+json`);

@Path('/')
class Answers {
  @GET @Path('json') json() {
    return { ok: true };
  }
  @POST @Path('created') created() {
    return Response.status(201).entity({ id: 1 }).build();
  }
  @GET @Path('text') @Produces('text/plain; charset=utf-8') text() {
    return 'plain';
  }
  @GET @Path('empty') empty() {
    return undefined;
  }
  @GET @Path('extra') @Header('X-Extra: yes') extra() {
    return { ok: true };
  }
  @GET @Path('own-type') ownType() {
    return Response.ok('<p>hi</p>').type('text/html').header('X-Content-Type-Options', 'sniff-me').build();
  }
  /** A content type made per request (a route producing several would add Vary: Accept, which no table keeps). */
  @GET @Path('many') many(@QueryParam('type') type: string) {
    return Response.ok({ ok: true }, type).build();
  }
  @GET @Path('no-content-with-entity') noContentWithEntity() {
    return Response.status(204).entity({ smuggled: 'GET /admin HTTP/1.1' }).build();
  }
  @GET @Path('not-modified') notModified() {
    return Response.notModified().build();
  }
  @GET @Path('no-content-written') noContentWritten(@Context() response: HttpServerResponse) {
    response.setStatusCode(204);
    response.write('GET /admin HTTP/1.1\r\n\r\n');
    response.end('smuggled');
  }
  @GET @Path('not-modified-streamed') notModifiedStreamed(@Context() response: HttpServerResponse) {
    response.setStatusCode(304);
    response.tryEnd('smuggled', 8);
  }
}

/** The head of a raw response: its lines, without Date (it changes) and the body. */
async function headLines(port: number, request: string): Promise<string[]> {
  const { text } = await rawRequest(port, request);
  return text
    .slice(0, text.indexOf('\r\n\r\n'))
    .split('\r\n')
    .filter((line) => !line.startsWith('Date: '));
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`;

test("the usual answers' heads on the wire: status line, content type, default headers, then what uWebSockets.js adds", async (t) => {
  const server = await listen(new RestBuilder().register(Answers).build());
  try {
    // Twice each: the first answer composes the head, the second takes it from the table.
    for (let round = 0; round < 2; round++) {
      t.deepEqual(await headLines(server.port, get('/json')), [
        'HTTP/1.1 200 OK',
        'content-type: application/json',
        'X-Content-Type-Options: nosniff',
        'uWebSockets: 20',
        'Content-Length: 11',
      ]);
      t.deepEqual(
        await headLines(
          server.port,
          'POST /created HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
        ),
        [
          'HTTP/1.1 201 Created',
          'content-type: application/json',
          'X-Content-Type-Options: nosniff',
          'uWebSockets: 20',
          'Content-Length: 8',
        ],
      );
      t.deepEqual(await headLines(server.port, get('/text')), [
        'HTTP/1.1 200 OK',
        'content-type: text/plain; charset=utf-8',
        'X-Content-Type-Options: nosniff',
        'uWebSockets: 20',
        'Content-Length: 5',
      ]);
      // No Content-Length on a 204 (RFC 9110, 8.6), nor a wrong one (0) on a 304.
      t.deepEqual(await headLines(server.port, get('/empty')), [
        'HTTP/1.1 204 No Content',
        'X-Content-Type-Options: nosniff',
        'uWebSockets: 20',
      ]);
      t.deepEqual(await headLines(server.port, get('/not-modified')), [
        'HTTP/1.1 304 Not Modified',
        'X-Content-Type-Options: nosniff',
        'uWebSockets: 20',
      ]);
      t.deepEqual(await headLines(server.port, get('/missing')), [
        'HTTP/1.1 404 Not Found',
        'content-type: application/json',
        'X-Content-Type-Options: nosniff',
        'uWebSockets: 20',
        'Content-Length: 98',
      ]);
      // HEAD: the same head, the length of the body not sent.
      t.deepEqual(await headLines(server.port, `HEAD /json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), [
        'HTTP/1.1 200 OK',
        'content-type: application/json',
        'X-Content-Type-Options: nosniff',
        'Content-Length: 11',
        'uWebSockets: 20',
      ]);
      // Other headers: written one by one, the route's first, then the defaults it did not set.
      t.deepEqual(await headLines(server.port, get('/extra')), [
        'HTTP/1.1 200 OK',
        'X-Extra: yes',
        'content-type: application/json',
        'X-Content-Type-Options: nosniff',
        'uWebSockets: 20',
        'Content-Length: 11',
      ]);
      t.deepEqual(await headLines(server.port, get('/own-type')), [
        'HTTP/1.1 200 OK',
        'X-Content-Type-Options: sniff-me',
        'content-type: text/html',
        'uWebSockets: 20',
        'Content-Length: 9',
      ]);
    }
  } finally {
    server.close();
  }
});

test('a 204 or 304 sends no content even when the route gives one: the next answer on the connection is not desynchronised', async (t) => {
  const server = await listen(new RestBuilder().register(Answers).build());
  try {
    const pipelined = [
      '/no-content-with-entity',
      '/not-modified',
      '/json',
      '/no-content-written',
      '/not-modified-streamed',
      '/json',
    ]
      .map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
      .join('');
    const { text } = await rawRequest(server.port, pipelined, 500);
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    t.is(answers.length, 6, text);
    t.true(answers[0]!.startsWith('HTTP/1.1 204 No Content\r\n'));
    t.true(answers[0]!.endsWith('\r\n\r\n'), "nothing after the 204's head");
    t.false(text.includes('smuggled'));
    t.true(answers[1]!.startsWith('HTTP/1.1 304 Not Modified\r\n') && answers[1]!.endsWith('\r\n\r\n'));
    t.true(answers[2]!.startsWith('HTTP/1.1 200 OK\r\n') && answers[2]!.endsWith('\r\n\r\n{"ok":true}'), answers[2]);
    // Written by the handler itself, chunk by chunk or as a sized body: nothing after the head either.
    t.true(answers[3]!.startsWith('HTTP/1.1 204 No Content\r\n') && answers[3]!.endsWith('\r\n\r\n'), answers[3]);
    t.false(/transfer-encoding|content-length/i.test(answers[3]!), answers[3]);
    t.true(answers[4]!.startsWith('HTTP/1.1 304 Not Modified\r\n') && answers[4]!.endsWith('\r\n\r\n'), answers[4]);
    t.true(answers[5]!.startsWith('HTTP/1.1 200 OK\r\n') && answers[5]!.endsWith('\r\n\r\n{"ok":true}'), answers[5]);
  } finally {
    server.close();
  }
});

test('more content types than the table keeps: every answer still has its own head', async (t) => {
  const server = await listen(new RestBuilder().register(Answers).build());
  try {
    for (const type of MANY_TYPES) {
      t.deepEqual(await headLines(server.port, get(`/many?type=${encodeURIComponent(type)}`)), [
        'HTTP/1.1 200 OK',
        `content-type: ${type}`,
        'X-Content-Type-Options: nosniff',
        'uWebSockets: 20',
        'Content-Length: 11',
      ]);
    }
  } finally {
    server.close();
  }
});

test("an app's own default headers are composed in their order, and a route's content type replaces a default one", async (t) => {
  const app = new RestBuilder()
    .defaultHeaders({ 'X-Frame-Options': 'DENY', 'Content-Type': 'text/html', 'Referrer-Policy': 'no-referrer' })
    .register(Answers)
    .build();
  const server = await listen(app);
  try {
    for (let round = 0; round < 2; round++) {
      t.deepEqual(await headLines(server.port, get('/json')), [
        'HTTP/1.1 200 OK',
        'content-type: application/json',
        'X-Frame-Options: DENY',
        'Referrer-Policy: no-referrer',
        'uWebSockets: 20',
        'Content-Length: 11',
      ]);
      t.deepEqual(await headLines(server.port, get('/empty')), [
        'HTTP/1.1 204 No Content',
        'X-Frame-Options: DENY',
        'Content-Type: text/html',
        'Referrer-Policy: no-referrer',
        'uWebSockets: 20',
      ]);
    }
  } finally {
    server.close();
  }
});

test('an app without default headers answers with the content type alone', async (t) => {
  const server = await listen(new RestBuilder().defaultHeaders({}).register(Answers).build());
  try {
    t.deepEqual(await headLines(server.port, get('/json')), [
      'HTTP/1.1 200 OK',
      'content-type: application/json',
      'uWebSockets: 20',
      'Content-Length: 11',
    ]);
  } finally {
    server.close();
  }
});

const text = (bytes: ArrayBuffer | undefined) =>
  bytes === undefined ? undefined : Buffer.from(bytes).toString('latin1');

test('a composed head is the status line and the headers joined by CRLF, the same bytes again from the table', (t) => {
  const head = new DefaultHead([['X-Content-Type-Options', 'nosniff']]);
  const first = head.head(201, 'application/json');
  t.is(text(first), '201 Created\r\ncontent-type: application/json\r\nX-Content-Type-Options: nosniff');
  t.is(head.head(201, 'application/json'), first);
  t.is(text(head.head(204, '')), '204 No Content\r\nX-Content-Type-Options: nosniff');
});

test('only valid ASCII header texts are composed, and the table is bounded', (t) => {
  const head = new DefaultHead([['X-Content-Type-Options', 'nosniff']]);
  // Never expected from the writers (their types are checked), refused here too: a CR or LF would split the head.
  t.is(head.head(200, 'text/html\r\nSet-Cookie: a=1'), undefined);
  t.is(head.head(200, 'text/plain\u0000'), undefined);
  t.is(head.head(200, 'text/plain; name=caf\u00e9'), undefined);
  for (let i = 0; i < 64; i++) t.truthy(head.head(200, `application/x-${i}`));
  t.is(head.head(200, 'application/x-one-too-many'), undefined);
  for (let status = 200; status < 216; status++) t.truthy(head.head(status, 'application/x-0'));
  t.is(head.head(299, 'application/x-0'), undefined);
  t.is(new DefaultHead([['X-Bad', 'a\r\nb']]).head(200, 'application/json'), undefined);
});
