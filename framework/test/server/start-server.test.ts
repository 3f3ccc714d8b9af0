import test from 'ava';
import * as http from 'node:http';
import {
  Context,
  GET,
  HttpServerResponse,
  loadUws,
  Path,
  PathParam,
  RestBuilder,
  startServer,
  WebSocket,
  WebSocketConnection,
} from '../../src/index';
import { runtimeOf } from '../../src/adapter/uws-adapter';
import { connect } from '../websocket/ws-client';

@Path('/')
class Slow {
  @GET
  @Path('wait/{ms}')
  async wait(@PathParam('ms') ms: number) {
    await new Promise((r) => setTimeout(r, ms));
    return { waited: ms };
  }
}

@WebSocket('/ws')
class Live {
  open(connection: WebSocketConnection) {
    connection.send('hi');
  }
}

/** A GET on a keep-alive connection, with the response's Connection header. */
function keepAliveGet(
  agent: http.Agent,
  port: number,
  path: string,
): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      })
      .on('error', reject);
  });
}

test('startServer: shutdown lets in-flight requests finish on keep-alive connections, closes them after, closes WebSockets with 1001', async (t) => {
  const server = await startServer(new RestBuilder().register(Slow, Live), { port: 0, host: '127.0.0.1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  t.is((await keepAliveGet(agent, server.port, '/wait/1')).status, 200);
  const ws = await connect(`ws://127.0.0.1:${server.port}/ws`);
  t.is((await ws.next()).data, 'hi');
  const pending = keepAliveGet(agent, server.port, '/wait/300');
  await new Promise((r) => setTimeout(r, 100));
  const report = await server.shutdown(2000);
  t.deepEqual(report, { inFlight: 1, unfinished: 0, webSockets: 1 });
  const answered = await pending;
  t.is(answered.status, 200);
  t.is(JSON.parse(answered.body).waited, 300);
  t.is(answered.connection, 'close', 'the answer closes its keep-alive connection');
  t.is((await ws.closed).code, 1001);
  await t.throwsAsync(fetch(`http://127.0.0.1:${server.port}/wait/1`));
  t.is(await server.shutdown(), report, 'a second call returns the same result');
});

test('startServer: shutdown counts exactly the requests still open, after many answered ones and one its client abandoned', async (t) => {
  // Held requests wait for the test to let them go; the quick ones between them are answered at once.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrivals = 0;
  let arrived!: () => void;
  const allArrived = new Promise<void>((resolve) => (arrived = resolve));
  let abandoned!: () => void;
  const abandonSeen = new Promise<void>((resolve) => (abandoned = resolve));
  @Path('/')
  class Gated {
    @GET
    @Path('held/{n}')
    async held(@PathParam('n') n: number, @Context() response: HttpServerResponse) {
      if (n === 0) response.onAborted(() => abandoned());
      if (++arrivals === 3) arrived();
      await gate;
      return { n };
    }
    @GET
    @Path('quick')
    quick() {
      return { quick: true };
    }
  }
  const server = await startServer(new RestBuilder().register(Gated), { port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${server.port}`;
  const client = new AbortController();
  const gone = fetch(`${base}/held/0`, { signal: client.signal }).catch(() => 'aborted');
  const held = [fetch(`${base}/held/1`), fetch(`${base}/held/2`)];
  await allArrived;
  for (let i = 0; i < 300; i++) t.is((await fetch(`${base}/quick`)).status, 200);
  client.abort();
  t.is(await gone, 'aborted');
  await abandonSeen;
  const stopping = server.shutdown(10_000);
  release();
  t.deepEqual(await stopping, { inFlight: 2, unfinished: 0, webSockets: 0 });
  for (const [i, answer] of (await Promise.all(held)).entries()) t.deepEqual(await answer.json(), { n: i + 1 });
});

test('startServer: a plain uWebSockets.js app is served as it is and stops at once', async (t) => {
  const app = loadUws()
    .App()
    .get('/*', (res) => void res.end('plain'));
  const server = await startServer(app, { port: 0, host: '127.0.0.1' });
  t.is(await (await fetch(`http://127.0.0.1:${server.port}/x`)).text(), 'plain');
  t.deepEqual(await server.shutdown(), { inFlight: 0, unfinished: 0, webSockets: 0 });
});

test('startServer: a port taken by another server is an error, a bad port is refused', async (t) => {
  const first = await startServer(new RestBuilder().register(Slow), { port: 0, host: '127.0.0.1' });
  t.teardown(() => void first.shutdown());
  const second = loadUws().App();
  // uWebSockets.js shares ports between its own sockets (SO_REUSEPORT); a Node server holding one is exclusive.
  const node = http.createServer();
  await new Promise<void>((r) => node.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => node.close());
  const taken = (node.address() as { port: number }).port;
  await t.throwsAsync(startServer(second, { port: taken, host: '127.0.0.1' }), {
    message: /cannot listen on 127.0.0.1:\d+/,
  });
  t.throws(() => startServer(loadUws().App(), { port: 70000 }), {
    message: /port must be a whole number from 0 to 65535/,
  });
});

test("startServer counts requests in flight without compiling the app's routes again (that would slow every request of a built app)", async (t) => {
  // The shutdown starts once the request is in its handler (a fixed wait lost the race on a loaded CI machine).
  let arrived!: () => void;
  const inHandler = new Promise<void>((resolve) => (arrived = resolve));
  @Path('/')
  class Held {
    @GET
    @Path('held')
    async held() {
      arrived();
      await new Promise((r) => setTimeout(r, 300));
      return { held: true };
    }
  }
  const app = new RestBuilder().register(Held).build();
  const compiledBefore = runtimeOf(app)!
    .routes()
    .map((holder) => holder.compiled);
  const server = await startServer(app, { port: 0, host: '127.0.0.1' });
  t.deepEqual(
    runtimeOf(app)!
      .routes()
      .map((holder) => holder.compiled),
    compiledBefore,
    'the same compiled routes serve after startServer',
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const slow = keepAliveGet(agent, server.port, '/held');
  await inHandler;
  const report = await server.shutdown(5000);
  t.is(report.inFlight, 1, 'the request in flight was counted');
  t.is((await slow).status, 200, 'and it finished before the shutdown did');
});
