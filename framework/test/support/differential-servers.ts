import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

/** What a server handed to handlers, per case id: `METHOD kind body` entries in order. */
export type Dispatches = Map<string, string[]>;

/** One dispatched request as recorded by both servers. */
export function dispatchEntry(method: string, kind: string, body: Buffer | undefined): string {
  return `${method.toUpperCase()} ${kind} ${JSON.stringify((body ?? Buffer.alloc(0)).toString('latin1'))}`;
}

export function record(dispatches: Dispatches, id: string, entry: string): void {
  let list = dispatches.get(id);
  if (list === undefined) dispatches.set(id, (list = []));
  list.push(entry);
}

/** Node's own HTTP server (llhttp, strict by default) recording the same way; its handler reads the whole body. */
export async function nodeServer(dispatches: Dispatches): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let recorded = false;
    // A message the parser completed counts, even when bytes after it end the connection before 'end' is
    // emitted (rest.uws runs such a request's handler before it reads on). Body chunks arrive synchronously.
    const done = () => {
      if (recorded || !req.complete) return;
      recorded = true;
      const match = /^\/c\/(\d+)\/([a-z-]+)$/.exec(req.url ?? '');
      if (match) record(dispatches, match[1]!, dispatchEntry(req.method ?? '?', match[2]!, Buffer.concat(chunks)));
    };
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      done();
      res.end('ok');
    });
    req.on('close', done);
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sends the bytes on a fresh connection, then ends it (a FIN): both servers then close the connection once
 * they have read everything, and every handler the bytes could reach has run. Resolves at that close.
 */
export function sendAndEnd(port: number, bytes: Buffer, boundMs = 15_000): Promise<'closed' | 'timeout'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.on('connect', () => socket.end(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('timeout');
    }, boundMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve('closed');
    });
  });
}
