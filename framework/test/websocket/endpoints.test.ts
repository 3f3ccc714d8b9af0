import test from 'ava';
import {
  Authenticate,
  BodyParam,
  BearerAuthenticationProvider,
  Context,
  HeaderParam,
  PathParam,
  QueryParam,
  RestBuilder,
  RestRouter,
  RolesAllowed,
  User,
  WebSocket,
  WebSocketCloseException,
  WebSocketConnection,
  closeAllWebSockets,
  loadUws,
  Max,
  Min,
  type Logger,
} from '../../src/index';
import * as net from 'node:net';
import { listen } from '../support/server';
import { connect, refusedUpgrade } from './ws-client';

/** A logger that keeps what it is given, to assert on what the framework logs. */
function recordingLogger(): Logger & { lines: Array<{ level: string; obj: any; msg?: string }> } {
  const lines: Array<{ level: string; obj: any; msg?: string }> = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

const wsUrl = (port: number, path: string) => `ws://127.0.0.1:${port}${path}`;

@WebSocket('/echo/{room}')
class EchoEndpoint {
  open(
    connection: WebSocketConnection,
    @PathParam('room') room: string,
    @QueryParam('name') name: string,
    @HeaderParam('x-client') client: string,
  ) {
    connection.data.room = room;
    connection.sendJson({ hello: name, room, client });
  }

  message(connection: WebSocketConnection, data: string | Buffer, isBinary: boolean) {
    if (isBinary) connection.send(Buffer.concat([Buffer.from('bin:'), data as Buffer]));
    else connection.send(`text:${data as string}:${typeof data}`);
  }
}

test('text and binary frames are told apart; open gets path, query and header arguments from the upgrade', async (t) => {
  const server = await listen(new RestBuilder().register(EchoEndpoint).build());
  t.teardown(server.close);
  const client = await connect(wsUrl(server.port, '/echo/lobby?name=ada'), { headers: { 'x-client': 'tests' } });
  t.deepEqual(JSON.parse((await client.next()).data as string), { hello: 'ada', room: 'lobby', client: 'tests' });

  client.socket.send('hi');
  const text = await client.next();
  t.false(text.isBinary);
  t.is(text.data, 'text:hi:string');

  client.socket.send(Buffer.from([0, 1, 255]));
  const bin = await client.next();
  t.true(bin.isBinary);
  t.deepEqual([...(bin.data as Buffer)], [...Buffer.from('bin:'), 0, 1, 255]);
  client.socket.close(1000);
  t.is((await client.closed).code, 1000);
});

test('an upgrade missing a required argument is answered 400 and never becomes a socket', async (t) => {
  const server = await listen(new RestBuilder().register(EchoEndpoint).build());
  t.teardown(server.close);
  const refused = await refusedUpgrade(wsUrl(server.port, '/echo/lobby'), {
    accept: 'application/json',
    'x-client': 'tests',
  });
  t.is(refused.status, 400);
  t.is(JSON.parse(refused.body).message, 'Missing @QueryParam("name") for: WebSocket /echo/{room}');
});

test('a plain GET on the endpoint path is not an upgrade: the HTTP routes answer (404 here)', async (t) => {
  const server = await listen(new RestBuilder().register(EchoEndpoint).build());
  t.teardown(server.close);
  const res = await fetch(`${server.url}/echo/lobby?name=x`);
  t.is(res.status, 404);
});

@WebSocket('/secure')
@Authenticate(
  BearerAuthenticationProvider.fromTokens({
    'token-ada': new User('ada', ['member']),
    'token-bob': new User('bob', ['guest']),
  }),
)
@RolesAllowed('member')
class SecureEndpoint {
  open(connection: WebSocketConnection, @Context() user: User) {
    connection.send(`welcome ${user.name} (${connection.user?.name})`);
  }
}

test('authentication runs on the upgrade: 401 without credentials, 403 without the role, a socket with them', async (t) => {
  const server = await listen(new RestBuilder().register(SecureEndpoint).build());
  t.teardown(server.close);
  const anonymous = await refusedUpgrade(wsUrl(server.port, '/secure'));
  t.is(anonymous.status, 401);
  t.is(anonymous.headers['www-authenticate'], 'Bearer realm="api"');
  const guest = await refusedUpgrade(wsUrl(server.port, '/secure'), { authorization: 'Bearer token-bob' });
  t.is(guest.status, 403);
  const member = await connect(wsUrl(server.port, '/secure'), { headers: { authorization: 'Bearer token-ada' } });
  t.is((await member.next()).data, 'welcome ada (ada)');
  member.socket.close();
});

class Tenant {
  constructor(readonly id: string) {}
}

@WebSocket('/tenant')
class TenantEndpoint {
  open(@Context() tenant: Tenant, connection: WebSocketConnection) {
    connection.send(`tenant ${tenant.id}`);
  }
  message(connection: WebSocketConnection) {
    connection.send(`from ${connection.remoteAddress()}`);
  }
}

test('an asynchronous context provider delays the upgrade; unknown tenants are refused', async (t) => {
  const app = new RestBuilder()
    .addProvider(Tenant, async (request) => {
      await new Promise((r) => setTimeout(r, 20));
      const id = request.getHeader('x-tenant');
      return id === 'acme' ? new Tenant(id) : null;
    })
    .register(TenantEndpoint)
    .build();
  const server = await listen(app);
  t.teardown(server.close);
  const ok = await connect(wsUrl(server.port, '/tenant'), { headers: { 'x-tenant': 'acme' } });
  t.is((await ok.next()).data, 'tenant acme');
  // The client's address outlives the upgrade request, even one completed after an await.
  ok.socket.send('where am I');
  t.is((await ok.next()).data, 'from 127.0.0.1');
  ok.socket.close();
  const refused = await refusedUpgrade(wsUrl(server.port, '/tenant'), {
    'x-tenant': 'other',
    accept: 'application/json',
  });
  t.is(refused.status, 400);
  t.regex(JSON.parse(refused.body).message, /Can't provide @Context of type: Tenant/);
});

@WebSocket('/faulty')
class FaultyEndpoint {
  async message(connection: WebSocketConnection, data: string) {
    if (data === 'sync') throw new Error('sync failure with a secret');
    if (data === 'async') {
      await Promise.resolve();
      throw new Error('async failure');
    }
    if (data === 'policy') throw new WebSocketCloseException(4001, 'bad message');
    connection.send(`ok ${data}`);
  }
}

test('an error in a handler closes that socket with 1011 and is logged; the server keeps serving', async (t) => {
  const logger = recordingLogger();
  const server = await listen(new RestBuilder().logger(logger).register(FaultyEndpoint).build());
  t.teardown(server.close);
  for (const kind of ['sync', 'async']) {
    const client = await connect(wsUrl(server.port, '/faulty'));
    client.socket.send(kind);
    const closed = await client.closed;
    t.is(closed.code, 1011);
    t.is(closed.reason, 'Internal error', 'the error message is not sent to the client');
  }
  t.is(logger.lines.filter((l) => l.level === 'error' && l.obj.event === 'message').length, 2);
  t.regex(logger.lines[0]!.obj.err.message, /failure/);

  const policy = await connect(wsUrl(server.port, '/faulty'));
  policy.socket.send('policy');
  t.deepEqual(await policy.closed, { code: 4001, reason: 'bad message' });

  const healthy = await connect(wsUrl(server.port, '/faulty'));
  healthy.socket.send('x');
  t.is((await healthy.next()).data, 'ok x');
  healthy.socket.close();
});

@WebSocket('/small', { maxPayloadLength: 1024 })
class SmallEndpoint {
  message(connection: WebSocketConnection, data: string) {
    connection.send(`got ${data.length}`);
  }
}

test('maxPayloadLength: a message within the limit is delivered, a larger one closes the connection', async (t) => {
  const server = await listen(new RestBuilder().register(SmallEndpoint).build());
  t.teardown(server.close);
  const client = await connect(wsUrl(server.port, '/small'));
  client.socket.send('a'.repeat(1000));
  t.is((await client.next()).data, 'got 1000');
  client.socket.send('a'.repeat(5000));
  const closed = await client.closed;
  t.not(closed.code, 1000);
  t.true([1006, 1009].includes(closed.code), `closed with ${closed.code}`);
});

@WebSocket('/compressed', { compression: true })
class CompressedEndpoint {
  message(connection: WebSocketConnection, data: string) {
    connection.send(data.repeat(3));
  }
}

test('compression: permessage-deflate is negotiated when the endpoint enables it, and not otherwise', async (t) => {
  const server = await listen(new RestBuilder().register(CompressedEndpoint, SmallEndpoint).build());
  t.teardown(server.close);
  const on = await connect(wsUrl(server.port, '/compressed'), { perMessageDeflate: true });
  t.regex(on.socket.extensions, /permessage-deflate/);
  on.socket.send('abc');
  t.is((await on.next()).data, 'abcabcabc');
  on.socket.close();
  const off = await connect(wsUrl(server.port, '/small'), { perMessageDeflate: true });
  t.is(off.socket.extensions, '');
  off.socket.close();
});

@WebSocket('/flood', { maxBackpressure: 4 * 1024 * 1024 })
class FloodEndpoint {
  open(connection: WebSocketConnection) {
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    // Send until uWebSockets.js reports backpressure: the client is not reading.
    while (sent < 2000) {
      sent++;
      if (connection.send(chunk) !== 'sent') break;
    }
    connection.data.sent = sent;
    connection.data.buffered = connection.getBufferedAmount();
  }

  drain(connection: WebSocketConnection) {
    if (connection.data.reported) return;
    if (connection.getBufferedAmount() > 0) return;
    connection.data.reported = true;
    connection.sendJson({
      sent: connection.data.sent,
      bufferedAtPause: connection.data.buffered,
      bufferedNow: connection.getBufferedAmount(),
    });
  }
}

test('backpressure: sends report it when the client does not read, getBufferedAmount shows it, drain fires once it empties', async (t) => {
  const server = await listen(new RestBuilder().register(FloodEndpoint).build());
  t.teardown(server.close);
  const client = await connect(wsUrl(server.port, '/flood'));
  let report: any;
  for (;;) {
    const m = await client.next(10_000);
    if (!m.isBinary) {
      report = JSON.parse(m.data as string);
      break;
    }
  }
  t.true(report.sent < 2000, 'the server saw backpressure before sending everything');
  t.true(report.bufferedAtPause > 0);
  t.is(report.bufferedNow, 0);
  client.socket.close();
});

@WebSocket('/chat/{room}', { protocols: ['chat.v2', 'chat.v1'] })
class ChatEndpoint {
  open(connection: WebSocketConnection, @PathParam('room') room: string) {
    connection.subscribe(room);
    connection.send(`protocol ${connection.protocol}`);
  }

  message(connection: WebSocketConnection, data: string) {
    connection.publish(connection.getTopics()[0]!, data);
  }
}

test('subprotocols are negotiated; publish reaches the other subscribers of a topic', async (t) => {
  const server = await listen(new RestBuilder().register(ChatEndpoint).build());
  t.teardown(server.close);
  const a = await connect(wsUrl(server.port, '/chat/r1'), { protocols: ['chat.v1'] });
  t.is(a.socket.protocol, 'chat.v1');
  t.is((await a.next()).data, 'protocol chat.v1');
  const b = await connect(wsUrl(server.port, '/chat/r1'), { protocols: ['chat.v3', 'chat.v2'] });
  t.is((await b.next()).data, 'protocol chat.v2');
  const other = await connect(wsUrl(server.port, '/chat/r2'), { protocols: ['chat.v2'] });
  t.is((await other.next()).data, 'protocol chat.v2');
  a.socket.send('hello room');
  t.is((await b.next()).data, 'hello room');
  await t.throwsAsync(other.next(200));
  const refused = await refusedUpgrade(wsUrl(server.port, '/chat/r1'), { 'sec-websocket-protocol': 'chat.v9' });
  t.is(refused.status, 400);
  for (const c of [a, b, other]) c.socket.close();
});

@WebSocket('/items/{id:\\d+}')
class ItemEndpoint {
  open(connection: WebSocketConnection, @PathParam('id') id: number) {
    connection.send(`item ${id + 1}`);
  }
}

test('regex path variables are checked: a non-matching path is not this endpoint (404)', async (t) => {
  const server = await listen(new RestBuilder().register(ItemEndpoint).build());
  t.teardown(server.close);
  const client = await connect(wsUrl(server.port, '/items/41'));
  t.is((await client.next()).data, 'item 42');
  client.socket.close();
  const refused = await refusedUpgrade(wsUrl(server.port, '/items/abc'));
  t.is(refused.status, 404);
});

@WebSocket('/events')
class EventsEndpoint {
  readonly closes: Array<{ code: number; reason: string }> = [];
  open(connection: WebSocketConnection) {
    connection.send('ready');
  }
  close(_connection: WebSocketConnection, code: number, reason: string) {
    this.closes.push({ code, reason });
  }
}

test('RestRouter.register works for endpoints; closeAllWebSockets closes every socket with 1001 and close handlers run', async (t) => {
  const app = loadUws().App();
  const endpoint = new EventsEndpoint();
  RestRouter.register(app, endpoint);
  const server = await listen(app);
  t.teardown(server.close);
  const clients = await Promise.all([connect(wsUrl(server.port, '/events')), connect(wsUrl(server.port, '/events'))]);
  for (const c of clients) t.is((await c.next()).data, 'ready');
  t.is(closeAllWebSockets(app), 2);
  for (const c of clients) t.deepEqual(await c.closed, { code: 1001, reason: 'Server shutting down' });
  t.deepEqual(endpoint.closes, [
    { code: 1001, reason: 'Server shutting down' },
    { code: 1001, reason: 'Server shutting down' },
  ]);
  t.is(closeAllWebSockets(app), 0);
});

test('registration checks: bad options, two undecorated parameters, a body argument, two endpoints on one route', (t) => {
  t.throws(() => WebSocket('/x', { idleTimeout: 3 }), {
    message: /idleTimeout must be 0 \(off\) or at least 8 seconds/,
  });
  t.throws(() => WebSocket('/x', { maxPayloadLength: -1 }), { message: /maxPayloadLength must be a whole number/ });
  t.throws(() => WebSocket('/x', { maxBackpresure: 1 } as any), { message: /unknown option "maxBackpresure"/ });

  @WebSocket('/two')
  class TwoUndecorated {
    open(_a: WebSocketConnection, _b: WebSocketConnection) {}
  }
  t.throws(() => new RestBuilder().register(TwoUndecorated).build(), {
    message: /parameters 0 and 1 have no decorator/,
  });

  @WebSocket('/body')
  class WithBody {
    open(_c: WebSocketConnection, @BodyParam() _body: string) {}
  }
  t.throws(() => new RestBuilder().register(WithBody).build(), { message: /a WebSocket upgrade has no body/ });

  @WebSocket('/a/{x}')
  class A {
    message() {}
  }
  @WebSocket('/a/{y}')
  class B {
    message() {}
  }
  t.throws(() => new RestBuilder().register(A, B).build(), {
    message: /same uWebSockets.js route \(\/a\/:y\) as A|same uWebSockets.js route/,
  });

  @WebSocket('/nothing')
  class Nothing {}
  t.throws(() => new RestBuilder().register(Nothing).build(), { message: /needs an open or a message method/ });
});

@WebSocket('/bounded')
class BoundedEndpoint {
  open(connection: WebSocketConnection, @QueryParam('level') @Min(1) @Max(5) level: number) {
    connection.send(`level ${level}`);
  }
}

test('validation runs on the upgrade arguments: a violated constraint is a 400, never a socket', async (t) => {
  const server = await listen(new RestBuilder().register(BoundedEndpoint).build());
  t.teardown(server.close);
  const ok = await connect(wsUrl(server.port, '/bounded?level=3'));
  t.is((await ok.next()).data, 'level 3');
  ok.socket.close();
  const refused = await refusedUpgrade(wsUrl(server.port, '/bounded?level=9'), { accept: 'application/json' });
  t.is(refused.status, 400);
  t.regex(refused.body, /level/);
});

class SlowTenant {}

@WebSocket('/slow-upgrade')
class SlowUpgradeEndpoint {
  open(connection: WebSocketConnection, @Context() _tenant: SlowTenant) {
    connection.send('opened');
  }
}

test('a client that leaves during an asynchronous upgrade is forgotten; the server keeps serving', async (t) => {
  const logger = recordingLogger();
  const app = new RestBuilder()
    .logger(logger)
    .addProvider(SlowTenant, async () => {
      await new Promise((r) => setTimeout(r, 200));
      return new SlowTenant();
    })
    .register(SlowUpgradeEndpoint)
    .build();
  const server = await listen(app);
  t.teardown(server.close);
  const raw = net.connect(server.port, '127.0.0.1');
  await new Promise((r) => raw.once('connect', r));
  raw.write(
    'GET /slow-upgrade HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
  );
  await new Promise((r) => setTimeout(r, 50));
  raw.destroy();
  await new Promise((r) => setTimeout(r, 300));
  const client = await connect(wsUrl(server.port, '/slow-upgrade'));
  t.is((await client.next()).data, 'opened');
  client.socket.close();
  t.deepEqual(
    logger.lines.filter((l) => l.level === 'error'),
    [],
  );
});
