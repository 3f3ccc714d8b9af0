import test from 'ava';
import {
  BadRequestException,
  Context,
  createLogger,
  GET,
  Path,
  PathParam,
  RequestLogger,
  requestId,
  RestBuilder,
  type Logger,
} from '../../src/index';
import { runtimeOf } from '../../src/adapter/uws-adapter';
import { openRaw } from '../support/raw-http';
import { listen, type RunningServer } from '../support/server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** pino lines written to memory, parsed. */
function memoryLog(): { logger: Logger; lines: () => Array<Record<string, any>> } {
  const written: string[] = [];
  const logger = createLogger({ level: 'info', base: null }, { write: (line: string) => void written.push(line) });
  return { logger, lines: () => written.map((l) => JSON.parse(l)) };
}

@Path('/orders')
class Orders {
  @GET
  @Path('/{id}')
  order(@PathParam('id') id: string, @Context() log: RequestLogger) {
    log.info({ orderId: id }, 'order read');
    return { id, requestId: log.requestId ?? null };
  }

  @GET
  @Path('/broken/{id}')
  broken(): string {
    throw new BadRequestException('no such order');
  }
}

async function serve(builder: RestBuilder): Promise<RunningServer> {
  const server = await listen(builder.register(Orders).build());
  return server;
}

/** Sends a GET with the given header lines as raw bytes (what fetch refuses to send) and parses the answer's head. */
async function rawGet(
  port: number,
  headerLines: Buffer | string,
): Promise<{ status: number; headers: Map<string, string> }> {
  const head = Buffer.concat([
    Buffer.from('GET /orders/7 HTTP/1.1\r\nHost: localhost\r\n'),
    Buffer.from(headerLines as string, 'latin1'),
    Buffer.from('\r\nConnection: close\r\n\r\n'),
  ]);
  const connection = openRaw(port, head, 5000);
  // The head is enough. (A NUL byte in a header is not tried: uWebSockets.js neither answers nor dispatches it.)
  const text = await connection.received((received) => received.includes('\r\n\r\n'));
  connection.destroy();
  const [statusLine, ...lines] = text.split('\r\n\r\n')[0]!.split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine!.split(' ')[1]), headers };
}

test('a request without an id gets a new UUID, sent back on answers, errors and 404s alike', async (t) => {
  const server = await serve(new RestBuilder().use(requestId()));
  t.teardown(server.close);
  const ids = new Set<string>();
  for (const path of ['/orders/1', '/orders/2', '/orders/broken/3', '/nowhere']) {
    const res = await fetch(server.url + path);
    await res.arrayBuffer();
    const id = res.headers.get('x-request-id') ?? '';
    t.regex(id, UUID, path);
    ids.add(id);
  }
  t.is(ids.size, 4, 'each request has its own id');
});

test('a well-formed id from the request is kept, sent back and given to the handler', async (t) => {
  const server = await serve(new RestBuilder().use(requestId()));
  t.teardown(server.close);
  for (const given of [
    'abc-123',
    '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    'Root=1-67891233-abcdef012345678912345678',
    'a'.repeat(128),
    'x/y+z==',
  ] as const) {
    const res = await fetch(`${server.url}/orders/9`, { headers: { 'x-request-id': given } });
    t.is(res.headers.get('x-request-id'), given);
    t.deepEqual(await res.json(), { id: '9', requestId: given });
  }
});

test('hostile ids are never echoed: too long, spaces, quotes, commas, control characters, non-ASCII bytes, header injection', async (t) => {
  const server = await serve(new RestBuilder().use(requestId()));
  t.teardown(server.close);
  const hostile: Array<string | Buffer> = [
    `X-Request-Id: ${'a'.repeat(129)}`,
    'X-Request-Id: two words',
    'X-Request-Id: "quoted"',
    'X-Request-Id: a,b',
    'X-Request-Id: <script>alert(1)</script>',
    'X-Request-Id: id;injected=1',
    'X-Request-Id: tab\there',
    // (In the middle: uWebSockets.js trims bytes over 0x7f from the end of a value, as if they were spaces.)
    Buffer.concat([Buffer.from('X-Request-Id: caf'), Buffer.from([0xc3, 0xa9]), Buffer.from('-au-lait')]),
  ];
  for (const line of hostile) {
    const { status, headers } = await rawGet(server.port, line);
    const echoed = headers.get('x-request-id');
    t.is(status, 200, String(line));
    t.regex(echoed ?? '', UUID, `${JSON.stringify(String(line))} was replaced by a new id`);
    t.is(headers.has('injected'), false);
  }
  // A POST copies its headers (the route reads no body here, but the framing check does): same rules.
  const res = await fetch(`${server.url}/orders/7`, {
    method: 'POST',
    headers: { 'x-request-id': 'x'.repeat(500) },
    body: 'x',
  });
  t.regex(res.headers.get('x-request-id') ?? '', UUID);
});

test('fromRequest: false ignores the client id; header, maxLength and generate are options', async (t) => {
  let n = 0;
  const server = await serve(new RestBuilder().use(requestId({ fromRequest: false })));
  t.teardown(server.close);
  const res = await fetch(`${server.url}/orders/1`, { headers: { 'x-request-id': 'mine' } });
  t.regex(res.headers.get('x-request-id') ?? '', UUID);

  const custom = await serve(
    new RestBuilder().use(requestId({ header: 'X-Correlation-Id', maxLength: 8, generate: () => `gen-${++n}` })),
  );
  t.teardown(custom.close);
  const kept = await fetch(`${custom.url}/orders/1`, { headers: { 'x-correlation-id': '12345678' } });
  t.is(kept.headers.get('x-correlation-id'), '12345678');
  t.is(kept.headers.get('x-request-id'), null);
  const tooLong = await fetch(`${custom.url}/orders/1`, { headers: { 'x-correlation-id': '123456789' } });
  t.is(tooLong.headers.get('x-correlation-id'), 'gen-1');

  t.throws(() => requestId({ maxLength: 0 }), { message: /maxLength must be a whole number from 1 to 1024/ });
  t.throws(() => requestId({ maxLength: 5000 }), { message: /maxLength/ });
  t.throws(() => requestId({ header: 'X Bad' }), { message: /header must be a header name/ });
});

test('a generator that returns a malformed id fails the request with 500, and sends nothing of it', async (t) => {
  const server = await serve(new RestBuilder().use(requestId({ generate: () => 'evil\r\nSet-Cookie: a=b' })));
  t.teardown(server.close);
  const res = await fetch(`${server.url}/orders/1`);
  t.is(res.status, 500);
  t.is(res.headers.get('set-cookie'), null);
  t.is(res.headers.get('x-request-id'), null);
});

test('the RequestLogger lines and the access log line carry the request id', async (t) => {
  const log = memoryLog();
  const server = await serve(new RestBuilder().logger(log.logger).use(requestId()).logRequests());
  t.teardown(server.close);
  const res = await fetch(`${server.url}/orders/42`, { headers: { 'x-request-id': 'trace-42' } });
  t.is(res.status, 200);
  await res.arrayBuffer();
  const generated = await fetch(`${server.url}/nowhere`);
  await generated.arrayBuffer();
  const lines = log.lines();
  t.like(
    lines.find((l) => l.msg === 'order read'),
    { reqId: 'trace-42', orderId: '42', level: 30 },
  );
  const access = lines.filter((l) => l.msg === 'request');
  t.deepEqual(
    access.map((l) => [l.path, l.status, l.reqId]),
    [
      ['/orders/42', 200, 'trace-42'],
      ['/nowhere', 404, generated.headers.get('x-request-id')],
    ],
  );
});

test('without requestId() the RequestLogger is the app logger, and nothing runs per request', async (t) => {
  const log = memoryLog();
  const app = new RestBuilder().logger(log.logger).register(Orders).build();
  t.is(runtimeOf(app)!.hooks.onRequest, null);
  const server = await listen(app);
  t.teardown(server.close);
  const res = await fetch(`${server.url}/orders/5`);
  t.deepEqual(await res.json(), { id: '5', requestId: null });
  t.is(res.headers.get('x-request-id'), null);
  const line = log.lines().find((l) => l.msg === 'order read')!;
  t.is(line.orderId, '5');
  t.false('reqId' in line);
});

test('a RequestLogger over a logger without child loggers adds the id to each line itself', (t) => {
  const seen: unknown[] = [];
  const plain: Logger = {
    error: (o) => seen.push(o),
    warn: (o) => seen.push(o),
    info: (o) => seen.push(o),
    debug: (o) => seen.push(o),
  };
  const log = new RequestLogger(plain, 'r-1');
  log.info({ a: 1 });
  log.warn('text');
  const err = new Error('boom');
  log.error(err);
  log.child({ user: 'u' }).debug({ b: 2 });
  t.deepEqual(seen, [
    { reqId: 'r-1', a: 1 },
    { reqId: 'r-1', msg: 'text' },
    { reqId: 'r-1', err },
    { reqId: 'r-1', user: 'u', b: 2 },
  ]);
});
