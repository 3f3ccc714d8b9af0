import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import WebSocketClient from 'ws';
import {
  BadRequestException,
  BufferedDestination,
  createLogger,
  GET,
  loadUws,
  Path,
  PathParam,
  requestId,
  RestBuilder,
  RestRouter,
  type Logger,
  WebSocket,
  type WebSocketConnection,
} from '../../src/index';
import { runtimeOf } from '../../src/adapter/uws-adapter';
import { listen } from '../support/server';

function recordingLogger(): Logger & { lines: Array<{ level: string; obj: any; msg?: string }> } {
  const lines: Array<{ level: string; obj: any; msg?: string }> = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

@Path('/')
class Pages {
  @GET
  @Path('hello')
  hello() {
    return { hello: 'world' };
  }

  @GET
  @Path('slow/{ms}')
  async slow(@PathParam('ms') ms: number) {
    await new Promise((r) => setTimeout(r, ms));
    return 'late';
  }

  @GET
  @Path('bad')
  bad(): string {
    throw new BadRequestException('nope');
  }
}

test('one line per request with method, path, status and duration, at the chosen level', async (t) => {
  const logger = recordingLogger();
  const server = await listen(new RestBuilder().logger(logger).logRequests({ level: 'debug' }).register(Pages).build());
  t.teardown(server.close);
  const sent = performance.now();
  t.is((await fetch(`${server.url}/hello?x=1`)).status, 200);
  const seenByClientMs = performance.now() - sent;
  t.is((await fetch(`${server.url}/slow/60`)).status, 200);
  t.is((await fetch(`${server.url}/bad`)).status, 400);
  t.is((await fetch(`${server.url}/missing`)).status, 404);
  const requests = logger.lines.filter((l) => l.msg === 'request');
  t.deepEqual(
    requests.map((l) => [l.level, l.obj.method, l.obj.path, l.obj.status]),
    [
      ['debug', 'GET', '/hello', 200],
      ['debug', 'GET', '/slow/60', 200],
      ['debug', 'GET', '/bad', 400],
      ['debug', 'GET', '/missing', 404],
    ],
  );
  t.true(requests[1]!.obj.durationMs >= 55, `the slow request took ${requests[1]!.obj.durationMs} ms`);
  // The server's duration is of the request alone: never more than the client waited for the answer (a bound that
  // holds on a loaded machine, where a fixed number of milliseconds does not).
  t.true(
    requests[0]!.obj.durationMs <= seenByClientMs,
    `${requests[0]!.obj.durationMs} ms logged, ${seenByClientMs} ms seen by the client`,
  );
});

@WebSocket('/live')
class Live {
  open(connection: WebSocketConnection) {
    connection.send('hello');
  }
}

test('a WebSocket upgrade has its request line too, with status 101', async (t) => {
  const logger = recordingLogger();
  const server = await listen(new RestBuilder().logger(logger).logRequests().register(Live).register(Pages).build());
  t.teardown(server.close);
  const ws = new WebSocketClient(`${server.url.replace(/^http/, 'ws')}/live`);
  t.teardown(() => ws.terminate());
  await new Promise((resolve, reject) => {
    ws.once('message', resolve);
    ws.once('error', reject);
  });
  t.is((await fetch(`${server.url}/live`)).status, 404);
  const requests = logger.lines.filter((l) => l.msg === 'request' && l.obj.path === '/live');
  t.deepEqual(
    requests.map((l) => [l.obj.method, l.obj.status]),
    [
      ['GET', 101],
      ['GET', 404],
    ],
  );
});

test('request lines carry no credentials: not the Authorization or Cookie headers, not the query string', async (t) => {
  const logger = recordingLogger();
  const server = await listen(new RestBuilder().logger(logger).logRequests({ level: 'debug' }).register(Pages).build());
  t.teardown(server.close);
  const res = await fetch(`${server.url}/hello?token=secret-in-query`, {
    headers: {
      authorization: 'Bearer secret-in-header',
      cookie: 'session=secret-in-cookie',
      'x-api-key': 'secret-in-key',
    },
  });
  t.is(res.status, 200);
  const requests = logger.lines.filter((l) => l.msg === 'request');
  t.is(requests.length, 1);
  t.deepEqual(Object.keys(requests[0]!.obj).sort(), ['durationMs', 'method', 'path', 'status']);
  t.false(JSON.stringify(logger.lines).includes('secret-in'));
});

test('a request whose client leaves first is logged as aborted', async (t) => {
  const logger = recordingLogger();
  const server = await listen(new RestBuilder().logger(logger).logRequests().register(Pages).build());
  t.teardown(server.close);
  const controller = new AbortController();
  const pending = fetch(`${server.url}/slow/3000`, { signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  await t.throwsAsync(
    pending.catch((err: unknown) => Promise.reject(new Error(String(err)))),
    { message: /abort/i },
  );
  // The server learns of the abort when the socket closes: wait for the line rather than guess a delay.
  while (!logger.lines.some((l) => l.msg === 'request')) await new Promise((r) => setTimeout(r, 20));
  const line = logger.lines.find((l) => l.msg === 'request');
  t.is(line?.obj.aborted, true);
  t.is(line?.obj.path, '/slow/3000');
});

test('off unless asked, and off when the logger has the level disabled: no hook on the request path', (t) => {
  t.is(runtimeOf(new RestBuilder().register(Pages).build())!.hooks.onRequest, null);
  const quiet = createLogger({ level: 'warn' });
  t.is(
    runtimeOf(new RestBuilder().logger(quiet).logRequests({ level: 'info' }).register(Pages).build())!.hooks.onRequest,
    null,
  );
  t.not(
    runtimeOf(new RestBuilder().logger(quiet).logRequests({ level: 'warn' }).register(Pages).build())!.hooks.onRequest,
    null,
  );
  t.is(
    runtimeOf(new RestBuilder().logRequests(true).logRequests(false).register(Pages).build())!.hooks.onRequest,
    null,
  );
  t.throws(() => new RestBuilder().logRequests({ level: 'verbose' as any }), {
    message: /level must be error, warn, info or debug/,
  });
});

test('with pino: JSON lines on the destination', async (t) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-log-')), 'requests.log');
  const destination = pino.destination({ dest: file, sync: true });
  const logger = createLogger({ level: 'info' }, destination);
  const server = await listen(new RestBuilder().logger(logger).logRequests().register(Pages).build());
  t.teardown(server.close);
  await fetch(`${server.url}/hello`);
  const lines = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.is(lines.length, 1);
  t.like(lines[0], { level: 30, msg: 'request', method: 'GET', path: '/hello', status: 200 });
  t.is(typeof lines[0].durationMs, 'number');
});

test("createLogger's buffered destination: each request's line is the one pino writes, request id and all", async (t) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-log-')), 'requests.log');
  const logger = createLogger({ level: 'info', name: 'api' }, new BufferedDestination({ dest: file }));
  const server = await listen(new RestBuilder().logger(logger).use(requestId()).logRequests().register(Pages).build());
  t.teardown(server.close);
  const sent: Array<[string, string]> = [
    ['/hello', 'trace-1'],
    ['/caf%C3%A9/%22quoted%22', 'trace-2'],
    ['/bad', 'trace-3'],
  ];
  for (const [url, id] of sent)
    await (await fetch(`${server.url}${url}`, { headers: { 'x-request-id': id } })).arrayBuffer();
  await new Promise<void>((resolve, reject) => logger.flush((err?: Error) => (err ? reject(err) : resolve())));
  const lines = fs.readFileSync(file, 'utf8').split(/(?<=\n)/);
  t.is(lines.length, 3);
  // pino's own line for the same fields, at the same time: byte for byte what the server wrote.
  const expected = lines.map((text) => {
    const line = JSON.parse(text);
    let own = '';
    pino(
      { level: 'info', name: 'api', timestamp: () => `,"time":${line.time}` },
      { write: (l: string) => void (own = l) },
    ).info(
      { method: line.method, path: line.path, status: line.status, durationMs: line.durationMs, reqId: line.reqId },
      'request',
    );
    return own;
  });
  t.deepEqual(lines, expected);
  t.deepEqual(
    lines.map((l) => JSON.parse(l)).map((l) => [l.name, l.path, l.status, l.reqId]),
    [
      ['api', '/hello', 200, 'trace-1'],
      ['api', '/caf%C3%A9/%22quoted%22', 404, 'trace-2'],
      ['api', '/bad', 400, 'trace-3'],
    ],
  );
});

test.serial('RestRouter.logRequests applies to apps registered with RestRouter', async (t) => {
  const logger = recordingLogger();
  RestRouter.logRequests({ level: 'info', logger });
  t.teardown(() => RestRouter.logRequests(false));
  const app = RestRouter.register(loadUws().App(), Pages);
  const server = await listen(app);
  t.teardown(server.close);
  await fetch(`${server.url}/hello`);
  t.like(logger.lines[0], { level: 'info', msg: 'request', obj: { path: '/hello', status: 200 } });
});

test('remoteAddress: true adds the client address, also for a route that answers after an await', async (t) => {
  const logger = recordingLogger();
  const server = await listen(
    new RestBuilder().logger(logger).logRequests({ remoteAddress: true }).register(Pages).build(),
  );
  t.teardown(server.close);
  await (await fetch(`${server.url}/hello`)).text();
  await (await fetch(`${server.url}/slow/5`)).text();
  const lines = logger.lines.filter((l) => l.msg === 'request').map((l) => [l.obj.path, l.obj.remoteAddress]);
  t.deepEqual(lines, [
    ['/hello', '127.0.0.1'],
    ['/slow/5', '127.0.0.1'],
  ]);
});
