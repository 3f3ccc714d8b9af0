/**
 * connectWebSocket: a @WebSocket endpoint tested over a real socket in one call, refused upgrades as errors that hold
 * the answer, several clients on one server, and close codes either way.
 */
import test from 'ava';
import {
  Authenticate,
  BearerAuthenticationProvider,
  Context,
  PathParam,
  QueryParam,
  RestBuilder,
  RolesAllowed,
  User,
  WebSocket,
  WebSocketCloseException,
  WebSocketConnection,
  WebSocketUpgradeRefused,
  connectWebSocket,
  startServer,
} from '../../src/index';

@WebSocket('/echo', { maxPayloadLength: 128 * 1024 })
class Echo {
  open(connection: WebSocketConnection, @QueryParam('name', { optional: true }) name: string | undefined) {
    connection.sendJson({ hello: name ?? 'anonymous' });
  }

  message(connection: WebSocketConnection, data: string | Buffer, isBinary: boolean) {
    if (isBinary) connection.send(Buffer.concat([Buffer.from('bin:'), data as Buffer]));
    else if (data === 'bye') throw new WebSocketCloseException(4001, 'asked to leave');
    else connection.send(`echo:${data as string}`);
  }
}

@WebSocket('/rooms/{room}')
@Authenticate(
  BearerAuthenticationProvider.fromTokens({
    'token-ada': new User('ada', ['member']),
    'token-bob': new User('bob', ['member']),
  }),
)
@RolesAllowed('member')
class Rooms {
  open(connection: WebSocketConnection, @PathParam('room') room: string, @Context() user: User) {
    connection.data.room = room;
    connection.subscribe(room);
    connection.send(`joined ${room} as ${user.name}`);
  }

  message(connection: WebSocketConnection, data: string | Buffer) {
    connection.publish(connection.data.room as string, `${connection.user?.name}: ${data as string}`);
  }
}

const app = () => new RestBuilder().register(Echo, Rooms);

test('one call serves the app and connects: text, JSON and binary messages, then a clean close', async (t) => {
  const ws = await connectWebSocket(app(), '/echo?name=ada');
  t.deepEqual((await ws.next()).json(), { hello: 'ada' });
  ws.send('hi');
  t.is((await ws.next()).data, 'echo:hi');
  ws.send(Buffer.from([0, 1, 255]));
  const binary = await ws.next();
  t.true(binary.isBinary);
  t.deepEqual([...(binary.data as Buffer)], [...Buffer.from('bin:'), 0, 1, 255]);
  // A message over 64 KiB takes the 8-byte length form.
  const long = 'x'.repeat(70_000);
  ws.send(long);
  t.is((await ws.next()).data, `echo:${long}`);
  t.deepEqual(await ws.close(1000, 'done'), { code: 1000, reason: 'done' });
});

test('the server closing the socket: closed says with which code, and next() rejects', async (t) => {
  const ws = await connectWebSocket(app(), '/echo');
  await ws.next();
  ws.send('bye');
  t.deepEqual(await ws.closed, { code: 4001, reason: 'asked to leave' });
  await t.throwsAsync(ws.next(), { message: 'the WebSocket closed (4001 asked to leave)' });
});

test('a refused upgrade rejects with its status, headers and body', async (t) => {
  const refused = await t.throwsAsync(connectWebSocket(app(), '/rooms/lobby'), { instanceOf: WebSocketUpgradeRefused });
  t.is(refused!.statusCode, 401);
  t.is(refused!.code, 'RU_ERR_WEBSOCKET_REFUSED');
  t.is(refused!.headers['www-authenticate'], 'Bearer realm="api"');
  t.is(refused!.json().code, 'RU_ERR_NO_CREDENTIALS');
});

test('several clients on one started server: what one publishes, the others in the room receive', async (t) => {
  const server = await startServer(app(), { port: 0, host: '127.0.0.1' });
  t.teardown(() => server.shutdown());
  const ada = await connectWebSocket(server, '/rooms/lobby', { headers: { authorization: 'Bearer token-ada' } });
  const bob = await connectWebSocket(server, '/rooms/lobby', { headers: { authorization: 'Bearer token-bob' } });
  t.is((await ada.next()).data, 'joined lobby as ada');
  t.is((await bob.next()).data, 'joined lobby as bob');
  ada.send('hello');
  t.is((await bob.next()).data, 'ada: hello');
  await ada.close();
  await bob.close();
  // The server is still up for a third client: closing a client does not stop a server it did not start.
  const again = await connectWebSocket(`ws://127.0.0.1:${server.port}`, '/echo');
  t.deepEqual((await again.next()).json(), { hello: 'anonymous' });
  await again.close();
});

test('the request log has a line for each upgrade: 101 when it opened, the refusal status when not', async (t) => {
  const lines: Array<{ obj: any; msg?: string }> = [];
  const at = (obj: unknown, msg?: string) => void lines.push({ obj, msg });
  const logger = { error: at, warn: at, info: at, debug: at };
  const server = await startServer(app().logger(logger).logRequests(), { port: 0, host: '127.0.0.1' });
  t.teardown(() => server.shutdown());
  const ws = await connectWebSocket(server, '/echo');
  await ws.next();
  await ws.close();
  await t.throwsAsync(connectWebSocket(server, '/rooms/lobby'), { instanceOf: WebSocketUpgradeRefused });
  t.deepEqual(
    lines.filter((l) => l.msg === 'request').map((l) => [l.obj.method, l.obj.path, l.obj.status]),
    [
      ['GET', '/echo', 101],
      ['GET', '/rooms/lobby', 401],
    ],
  );
});
