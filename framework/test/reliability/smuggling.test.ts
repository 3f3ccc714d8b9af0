import test from 'ava';
import { GET, Path, PathParam, POST, RestBuilder, WebSocket, type WebSocketConnection } from '../../src/index';
import { listen, type RunningServer } from '../support/server';
import { openRaw } from '../support/raw-http';

/**
 * Request smuggling over raw sockets: a request whose body length is ambiguous, followed in the same
 * write by a second request where uWebSockets.js would look for it. The ambiguous request must end with
 * 400 and a closed connection, and neither it nor anything after it may run a handler: the handlers
 * record every call, and the record is what the tests check.
 */

class Order {
  item!: string;
}

const calls: string[] = [];

@Path('/')
class Shop {
  // Native uWebSockets.js routes (static and with a variable) and JavaScript-router routes (regex variables).
  @POST @Path('/orders') create(body: Order) {
    calls.push(`order:${body.item}`);
    return { created: body.item };
  }
  @POST @Path('/js/{n:[0-9]+}/orders') createViaRouter(body: Order) {
    calls.push(`js-order:${body.item}`);
    return { created: body.item };
  }
  @POST @Path('/bodiless') bodiless() {
    calls.push('bodiless');
    return { ok: true };
  }
  @GET @Path('/ping') ping() {
    calls.push('ping');
    return { pong: true };
  }
  @GET @Path('/hit/{tag}') hit(@PathParam('tag') tag: string) {
    calls.push(`hit:${tag}`);
    return { tag };
  }
  @GET @Path('/js/{tag:[a-z]+}') hitViaRouter(@PathParam('tag') tag: string) {
    calls.push(`js-hit:${tag}`);
    return { tag };
  }
}

@WebSocket('/live')
class Live {
  open(connection: WebSocketConnection) {
    calls.push('websocket-open');
    connection.send('hello');
  }
}

let server: RunningServer;
test.before(async () => {
  server = await listen(new RestBuilder().register(Shop, Live).build());
});
test.after.always(() => server.close());

const CRLF = '\r\n';
const smuggledBody = '{"item":"smuggled"}';
/** The request an attacker hides after the ambiguous one: it must never create an order. */
const smuggled = `POST /orders HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Content-Length: ${smuggledBody.length}${CRLF}${CRLF}${smuggledBody}`;
const visibleBody = '{"item":"visible"}';

/** Framing header lines and the bytes uWebSockets.js 20.30 reads as the body; the smuggled request follows them. */
const framings: Array<[string, string[], string]> = [
  [
    'two different Content-Length (uWebSockets.js takes the first)',
    [`Content-Length: ${visibleBody.length}`, `Content-Length: ${visibleBody.length + smuggled.length}`],
    visibleBody,
  ],
  [
    'two equal Content-Length',
    [`Content-Length: ${visibleBody.length}`, `Content-Length: ${visibleBody.length}`],
    visibleBody,
  ],
  ['a Content-Length list', [`Content-Length: ${visibleBody.length}, ${visibleBody.length}`], visibleBody],
  ['two Transfer-Encoding: chunked', ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'], `0${CRLF}${CRLF}`],
  ['Transfer-Encoding: identity (read as chunked)', ['Transfer-Encoding: identity'], `0${CRLF}${CRLF}`],
  ['Transfer-Encoding: gzip, chunked', ['Transfer-Encoding: gzip, chunked'], `0${CRLF}${CRLF}`],
  ['Transfer-Encoding: xchunked', ['Transfer-Encoding: xchunked'], `0${CRLF}${CRLF}`],
  [
    'Content-Length and an empty Transfer-Encoding',
    [`Content-Length: ${visibleBody.length}`, 'Transfer-Encoding: '],
    visibleBody,
  ],
  [
    'an empty Transfer-Encoding and Content-Length',
    ['Transfer-Encoding: ', `Content-Length: ${visibleBody.length}`],
    visibleBody,
  ],
  [
    'Content-Length and Transfer-Encoding',
    [`Content-Length: ${visibleBody.length}`, 'Transfer-Encoding: chunked'],
    visibleBody,
  ],
  ['an invalid Content-Length', ['Content-Length: +18'], visibleBody],
];

/** Framings that hide behind an empty first header, which uWebSockets.js shows only in the full header list. */
const hiddenFramings: Array<[string, string[], string]> = [
  ['an empty Content-Length, then a length', ['Content-Length: ', `Content-Length: ${smuggled.length}`], ''],
  ['an empty Transfer-Encoding, then chunked', ['Transfer-Encoding: ', 'Transfer-Encoding: chunked'], ''],
];

const targets: Array<[string, string]> = [
  ['POST /orders', 'a native route reading the body'],
  ['POST /js/1/orders', 'a JavaScript-router route reading the body'],
  ['POST /bodiless', 'a native POST route not reading the body'],
  ['GET /ping', 'a native static GET route'],
  ['GET /hit/first', 'a native GET route with a variable'],
  ['GET /js/first', 'a JavaScript-router GET route'],
  ['GET /missing', 'no route (404)'],
  ['GET /live', 'a WebSocket upgrade'],
];

const upgradeHeaders = `Upgrade: websocket${CRLF}Connection: Upgrade${CRLF}Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==${CRLF}Sec-WebSocket-Version: 13${CRLF}`;

function ambiguous(target: string, framing: string[], body: string): string {
  const extra = target === 'GET /live' ? upgradeHeaders : '';
  return `${target} HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}${extra}${framing.map((h) => h + CRLF).join('')}${CRLF}${body}`;
}

const STATUS_LINE = /^HTTP\/1\.1 (\d{3})/;

for (const [target, where] of targets) {
  const bodyMethod = target.startsWith('POST');
  for (const [name, framing, body] of [...framings, ...(bodyMethod ? hiddenFramings : [])]) {
    test.serial(
      `smuggling, pipelined: ${name} on ${where}: the connection is closed and no handler runs`,
      async (t) => {
        calls.length = 0;
        const connection = openRaw(server.port, ambiguous(target, framing, body) + smuggled);
        t.true(
          await connection.closed,
          `the connection stayed open; received ${JSON.stringify(connection.text().slice(0, 300))}`,
        );
        const statuses = [...connection.text().matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
        // uWebSockets.js closes a connection that sends a request while the previous one is unanswered, so the
        // smuggled request ends it before the 400 can go out; if an answer came, it is the single 400.
        t.true(
          statuses.length === 0 || (statuses.length === 1 && statuses[0] === '400'),
          `answers: ${statuses.join(', ')}`,
        );
        t.deepEqual(calls, []);
        const after = await fetch(`${server.url}/ping`);
        t.is(after.status, 200);
      },
    );
  }
}

/**
 * uWebSockets.js closes these connections itself before any route runs: 20.30 without an answer, 20.57 after its own
 * "400 Bad Request" page with Connection: close.
 */
const refusedByUws = new Set([
  'a Content-Length list',
  'Content-Length and Transfer-Encoding',
  'an invalid Content-Length',
]);

for (const [name, framing, body] of [...framings, ...hiddenFramings]) {
  test.serial(
    `smuggling, keep-alive: ${name}: 400 with a body that says why, Connection: close, the connection closed, no handler runs`,
    async (t) => {
      calls.length = 0;
      const connection = openRaw(server.port, ambiguous('POST /orders', framing, body));
      const closed = await connection.closed;
      const text = connection.text();
      if (refusedByUws.has(name)) {
        t.true(closed);
        t.true(
          text === '' || /^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\n\r\n<h1>Bad Request<\/h1>/.test(text),
          text.slice(0, 300),
        );
      } else {
        t.true(closed, `the connection stayed open; received ${JSON.stringify(text.slice(0, 300))}`);
        t.is(STATUS_LINE.exec(text)?.[1], '400', text.slice(0, 300));
        t.regex(text, /\r\nConnection: close\r\n/i);
        const payload = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
        t.is(payload.code, 'RU_ERR_BODY_FRAMING');
        t.regex(payload.message, /Content-Length|Transfer-Encoding/);
      }
      t.deepEqual(calls, []);
    },
  );
}

test.serial(
  'smuggling: a clean request and a pipelined one after it both run (the check refuses only ambiguity)',
  async (t) => {
    calls.length = 0;
    const clean = `POST /orders HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Content-Length: ${visibleBody.length}${CRLF}${CRLF}${visibleBody}`;
    const chunked = `POST /js/2/orders HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Transfer-Encoding: Chunked${CRLF}${CRLF}${visibleBody.length.toString(16)}${CRLF}${visibleBody}${CRLF}0${CRLF}${CRLF}`;
    const connection = openRaw(server.port, clean + chunked + `GET /ping HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`);
    const text = await connection.received((s) => (s.match(/HTTP\/1\.1 200/g) ?? []).length === 3);
    connection.destroy();
    t.is((text.match(/HTTP\/1\.1 200/g) ?? []).length, 3);
    t.deepEqual(calls, ['order:visible', 'js-order:visible', 'ping']);
  },
);

test.serial('smuggling: a clean WebSocket upgrade still opens (the check refuses only ambiguity)', async (t) => {
  calls.length = 0;
  const connection = openRaw(server.port, `GET /live HTTP/1.1${CRLF}Host: x${CRLF}${upgradeHeaders}${CRLF}`);
  await connection.received((text) => text.includes('hello'));
  connection.destroy();
  t.regex(connection.text(), /^HTTP\/1\.1 101/);
  t.deepEqual(calls, ['websocket-open']);
});

test.serial(
  'bodyHandler({ chunkedBodies: false }): a chunked body gets 411 and a closed connection, the handler does not run; a Content-Length body is served',
  async (t) => {
    calls.length = 0;
    const strict = await listen(new RestBuilder().register(Shop).bodyHandler({ chunkedBodies: false }).build());
    t.teardown(() => strict.close());
    const chunked = `POST /orders HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}${visibleBody.length.toString(16)}${CRLF}${visibleBody}${CRLF}0${CRLF}${CRLF}`;
    const refused = openRaw(strict.port, chunked);
    t.true(await refused.closed);
    t.regex(refused.text(), /^HTTP\/1\.1 411 /);
    t.regex(refused.text(), /RU_ERR_CHUNKED_REFUSED/);
    t.deepEqual(calls, []);
    const res = await fetch(`${strict.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: visibleBody,
    });
    t.is(res.status, 200);
    t.deepEqual(calls, ['order:visible']);
  },
);

for (const method of ['CONNECT', 'PROPFIND', 'junkGET', '4567GET']) {
  test.serial(
    `a method no route can have (${method}) ends the connection: 405 or closed at once, and nothing pipelined behind it runs`,
    async (t) => {
      calls.length = 0;
      const connection = openRaw(server.port, `${method} /ping HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}` + smuggled);
      t.true(await connection.closed, connection.text().slice(0, 300));
      const statuses = [...connection.text().matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
      // uWebSockets.js v20.30 closes by itself on a method it does not know; v20.57 hands any token to the app.
      t.true(
        statuses.length === 0 || (statuses.length === 1 && statuses[0] === '405'),
        `answers: ${statuses.join(', ')}`,
      );
      t.deepEqual(calls, []);
    },
  );
}

/**
 * Bytes 0x80-0xFF in a framing value (docs/security.md, Request framing). Both uWebSockets.js builds drop them
 * from the ends of a header value before anything reads it, and frame the request by what is left; rest.uws sees
 * only that, so the request is served as its clean spelling would be, read at the one boundary uWebSockets.js
 * uses (what a proxy in front must refuse: nginx, HAProxy and Node's parser do). Inside a value they make the
 * value invalid: uWebSockets.js refuses the request itself (v20.30 closes, v20.57 answers 400), and nothing runs.
 */
const chunkedVisible = `${visibleBody.length.toString(16)}${CRLF}${visibleBody}${CRLF}0${CRLF}${CRLF}`;
const highByteEdges: Array<[string, string, string]> = [
  ['Content-Length: 18\\xff', `Content-Length: ${visibleBody.length}\xff`, visibleBody],
  ['Content-Length: \\x8518', `Content-Length: \x85${visibleBody.length}`, visibleBody],
  ['Transfer-Encoding: chunked\\xff', 'Transfer-Encoding: chunked\xff', chunkedVisible],
  ['Transfer-Encoding: \\xa0chunked', 'Transfer-Encoding: \xa0chunked', chunkedVisible],
];
for (const [name, line, body] of highByteEdges) {
  test.serial(
    `a framing value with bytes 0x80-0xFF at its ends (${name}) is framed as its clean spelling, by uWebSockets.js and rest.uws alike`,
    async (t) => {
      calls.length = 0;
      const head = `POST /orders HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}${line}${CRLF}${CRLF}`;
      const connection = openRaw(server.port, Buffer.from(head + body + smuggled, 'latin1'));
      await connection.received((text) => (text.match(/HTTP\/1\.1 200 /g) ?? []).length === 2);
      connection.destroy();
      // The pipelined request runs as a request of its own, at the boundary the clean value gives: not as the body.
      t.deepEqual(calls, ['order:visible', 'order:smuggled']);
    },
  );
}

test.serial('a framing value with a byte 0x80-0xFF inside it is refused and nothing runs', async (t) => {
  calls.length = 0;
  const head = `POST /orders HTTP/1.1${CRLF}Host: x${CRLF}Content-Type: application/json${CRLF}Content-Length: 1\xff8${CRLF}${CRLF}`;
  const connection = openRaw(server.port, Buffer.from(head + visibleBody + smuggled, 'latin1'), 15_000);
  t.true(await connection.closed);
  // v20.30 closes without an answer; v20.57 answers its own 400 page; rest.uws's own check would answer 400 too.
  t.true(connection.text() === '' || /^HTTP\/1\.1 400 /.test(connection.text()), connection.text().slice(0, 200));
  t.deepEqual(calls, []);
});
