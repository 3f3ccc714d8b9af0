import test from 'ava';
import * as net from 'node:net';
import { RestBuilder, WebSocket, WebSocketConnection } from '../../src/index';
import { listen } from '../support/server';
import { connect } from './ws-client';

// docs/security.md, WebSocket abuse: an endpoint's idleTimeout ends a connection whose client stopped talking
// (it answers no ping and sends nothing), so silent sockets cannot pile up; a client that answers the server's
// pings stays connected however long it is quiet.

@WebSocket('/quiet', { idleTimeout: 8 })
class QuietEndpoint {
  message(connection: WebSocketConnection, data: string) {
    connection.send(data);
  }
}

/** Upgrades over a raw socket, then never reads a frame or answers a ping; resolves with the socket once upgraded. */
function silentClient(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () =>
      socket.write(
        'GET /quiet HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    );
    socket.once('data', (head) => {
      if (!head.toString('latin1').startsWith('HTTP/1.1 101'))
        reject(new Error(`not upgraded: ${head.toString('latin1').split('\r\n')[0]}`));
      else resolve(socket);
    });
  });
}

test('idleTimeout: a client that answers no ping is disconnected after the idle time; one that answers stays', async (t) => {
  t.timeout(60_000);
  const server = await listen(new RestBuilder().register(QuietEndpoint).build());
  t.teardown(server.close);
  const polite = await connect(`ws://127.0.0.1:${server.port}/quiet`);
  t.teardown(() => polite.socket.terminate());
  let politeClosed = false;
  void polite.closed.then(() => (politeClosed = true));

  const started = Date.now();
  const silent = await silentClient(server.port);
  const gone = await new Promise<number>((resolve) => {
    silent.on('data', () => undefined); // pings are received and not answered
    silent.on('error', () => undefined);
    silent.once('close', () => resolve(Date.now() - started));
  });
  // uWebSockets.js pings at the idle time and closes when nothing came back.
  t.true(gone >= 7_000, `closed after ${gone} ms, before the idle time (8 s)`);
  t.true(gone < 25_000, `closed after ${gone} ms, long after the idle time (8 s)`);

  // The client that answered the same pings (ws answers them itself) is still connected and served.
  t.false(politeClosed, 'a client answering pings is not disconnected');
  polite.socket.send('still here');
  t.is((await polite.next()).data, 'still here');
});
