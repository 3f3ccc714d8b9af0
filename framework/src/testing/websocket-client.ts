import { Buffer } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import type { TemplatedApp } from 'uWebSockets.js';
import type { RestBuilder } from '../builder/rest-builder';
import { CODE, errors } from '../errors/factories';
import { type Server, startServer } from '../server/start-server';
import { clientFrame, closePayload, type Frame, FrameReader, Opcode } from './websocket-frames';

/** A message the server sent. */
export interface WebSocketMessage {
  /** A string for a text message, bytes for a binary one. */
  data: string | Buffer;
  /** A binary message (a text one otherwise). */
  isBinary: boolean;
  /** The message as UTF-8 text. */
  text(): string;
  /** The message parsed as JSON (throws when it is not JSON). */
  json<T = any>(): T;
}

/** How the connection ended. */
export interface WebSocketClosed {
  /** The close code (1006 when the connection was cut without a close frame). */
  code: number;
  /** The reason the closing side gave ('' when none). */
  reason: string;
}

/** Options of `connectWebSocket`. */
export interface WebSocketClientOptions {
  /** Headers of the upgrade request (Authorization, Cookie, Origin...). */
  headers?: Record<string, string>;
  /** Subprotocols to offer (Sec-WebSocket-Protocol). */
  protocols?: string[];
}

/** A WebSocket connected to a test server. */
export interface TestWebSocket {
  /** The subprotocol the server chose ('' when none). */
  readonly protocol: string;
  /** The headers of the server's 101 answer. */
  readonly headers: http.IncomingHttpHeaders;
  /** Sends a text message (a string) or a binary one (bytes). */
  send(data: string | Buffer | Uint8Array): void;
  /** The next message; rejects, with the close code and reason, when the connection closes first. */
  next(): Promise<WebSocketMessage>;
  /**
   * Closes with a close frame and resolves with the server's answer to it; stops the server when
   * `connectWebSocket` started it.
   */
  close(code?: number, reason?: string): Promise<WebSocketClosed>;
  /** Resolves when the connection is closed, by either side (and the server `connectWebSocket` started is stopped). */
  readonly closed: Promise<WebSocketClosed>;
}

/** The upgrade was answered with an HTTP response instead of 101: its status, headers and body. */
export class WebSocketUpgradeRefused extends Error {
  /** `RU_ERR_WEBSOCKET_REFUSED`. */
  readonly code = CODE.RU_ERR_WEBSOCKET_REFUSED;
  /** The answer's status. */
  readonly statusCode: number;
  /** The answer's headers. */
  readonly headers: http.IncomingHttpHeaders;
  /** The answer's body, as text. */
  readonly body: string;

  constructor(statusCode: number, headers: http.IncomingHttpHeaders, body: string) {
    super(`the WebSocket upgrade was refused with ${statusCode}: ${body.slice(0, 200)}`);
    this.name = 'WebSocketUpgradeRefused';
    this.statusCode = statusCode;
    this.headers = headers;
    this.body = body;
  }

  /** The body parsed as JSON. */
  json<T = any>(): T {
    return JSON.parse(this.body);
  }
}

/** Where to connect: an app or builder (served on a free port for this client), a listening server, or a URL. */
export type WebSocketTarget = RestBuilder | TemplatedApp | Pick<Server, 'host' | 'port'> | string;

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * Opens a WebSocket over a real socket to a `@WebSocket` endpoint, in one call: given an app (or its builder) it
 * starts it on 127.0.0.1 with a free port, and closing the client stops that server. Given a running `Server` (from
 * `startServer(app, { port: 0 })`), several clients share it. A refused upgrade (401, 403, 400) rejects with a
 * `WebSocketUpgradeRefused` that holds the answer.
 *
 * ```ts
 * const ws = await connectWebSocket(buildApp(), '/echo');
 * ws.send('hello');
 * assert.equal((await ws.next()).data, 'hello');
 * await ws.close();
 * ```
 */
export async function connectWebSocket(
  target: WebSocketTarget,
  path: string,
  options: WebSocketClientOptions = {},
): Promise<TestWebSocket> {
  let owned: Server | undefined;
  let base: URL;
  if (typeof target === 'string') base = new URL(target.replace(/^ws(s?):/, 'http$1:'));
  else if (isServer(target)) base = serverUrl(target);
  else {
    owned = await startServer(target as RestBuilder | TemplatedApp, { port: 0, host: '127.0.0.1' });
    base = serverUrl(owned);
  }
  try {
    const client = await open(new URL(path, base), options);
    if (owned !== undefined) {
      const server = owned;
      const stopped = client.closed.then(async (closed) => {
        await server.shutdown();
        return closed;
      });
      return { ...client, closed: stopped, close: (code, reason) => client.close(code, reason).then(() => stopped) };
    }
    return client;
  } catch (err) {
    await owned?.shutdown();
    throw err;
  }
}

function isServer(target: object): target is Pick<Server, 'host' | 'port'> {
  return typeof (target as Server).port === 'number' && typeof (target as Server).shutdown === 'function';
}

function serverUrl(server: Pick<Server, 'host' | 'port'>): URL {
  const host =
    server.host === '0.0.0.0' || server.host === '' ? '127.0.0.1' : server.host === '::' ? '[::1]' : server.host;
  return new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${server.port}`);
}

function open(url: URL, options: WebSocketClientOptions): Promise<TestWebSocket> {
  const key = randomBytes(16).toString('base64');
  const headers: Record<string, string> = {
    ...options.headers,
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Key': key,
    'Sec-WebSocket-Version': '13',
  };
  if (options.protocols !== undefined && options.protocols.length > 0)
    headers['Sec-WebSocket-Protocol'] = options.protocols.join(', ');
  return new Promise((resolve, reject) => {
    const request = http.request(url, { headers, agent: false });
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () =>
        reject(
          new WebSocketUpgradeRefused(
            response.statusCode ?? 0,
            response.headers,
            Buffer.concat(chunks).toString('utf8'),
          ),
        ),
      );
    });
    request.once('upgrade', (response, socket, head) => {
      const expected = createHash('sha1')
        .update(key + GUID)
        .digest('base64');
      if (response.headers['sec-websocket-accept'] !== expected) {
        socket.destroy();
        reject(errors.RU_ERR_WEBSOCKET_CLIENT('the server answered the upgrade with a wrong Sec-WebSocket-Accept'));
        return;
      }
      resolve(connection(socket, response, head));
    });
    request.end();
  });
}

function connection(socket: Socket, response: http.IncomingMessage, head: Buffer): TestWebSocket {
  socket.setNoDelay(true);
  const reader = new FrameReader();
  const queue: WebSocketMessage[] = [];
  const waiting: Array<{ resolve(m: WebSocketMessage): void; reject(e: Error): void }> = [];
  let closeSent = false;
  let result: WebSocketClosed | undefined;
  let settle!: (closed: WebSocketClosed) => void;
  const closed = new Promise<WebSocketClosed>((resolve) => (settle = resolve));
  const finish = (outcome: WebSocketClosed) => {
    if (result !== undefined) return;
    result = outcome;
    const error = errors.RU_ERR_WEBSOCKET_CLIENT(
      `the WebSocket closed (${outcome.code}${outcome.reason ? ` ${outcome.reason}` : ''})`,
    );
    for (const w of waiting.splice(0)) w.reject(error);
    socket.end();
    settle(outcome);
  };
  const write = (opcode: Opcode, payload: Buffer) => {
    if (!socket.destroyed) socket.write(clientFrame(opcode, payload));
  };
  const onFrame = (frame: Frame) => {
    switch (frame.opcode) {
      case Opcode.Text:
      case Opcode.Binary: {
        const isBinary = frame.opcode === Opcode.Binary;
        const text = () => frame.payload.toString('utf8');
        const message: WebSocketMessage = {
          data: isBinary ? frame.payload : text(),
          isBinary,
          text,
          json: () => JSON.parse(text()),
        };
        const waiter = waiting.shift();
        if (waiter !== undefined) waiter.resolve(message);
        else queue.push(message);
        return;
      }
      case Opcode.Ping:
        write(Opcode.Pong, frame.payload);
        return;
      case Opcode.Close: {
        const code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
        const reason = frame.payload.subarray(2).toString('utf8');
        // Answer the server's close with the same code, as RFC 6455 asks.
        if (!closeSent) write(Opcode.Close, frame.payload.subarray(0, 2));
        closeSent = true;
        finish({ code, reason });
        return;
      }
    }
  };
  const onData = (chunk: Buffer) => {
    for (const frame of reader.push(chunk)) onFrame(frame);
  };
  socket.on('data', onData);
  socket.once('close', () => finish({ code: 1006, reason: '' }));
  socket.on('error', () => undefined); // the close that follows says how it ended
  if (head.length > 0) onData(head);

  return {
    protocol: (response.headers['sec-websocket-protocol'] as string | undefined) ?? '',
    headers: response.headers,
    closed,
    send(data) {
      if (result !== undefined || closeSent) throw errors.RU_ERR_WEBSOCKET_CLIENT('the WebSocket is closed');
      if (typeof data === 'string') write(Opcode.Text, Buffer.from(data));
      else write(Opcode.Binary, Buffer.from(data));
    },
    next() {
      const message = queue.shift();
      if (message !== undefined) return Promise.resolve(message);
      if (result !== undefined)
        return Promise.reject(
          errors.RU_ERR_WEBSOCKET_CLIENT(
            `the WebSocket closed (${result.code}${result.reason ? ` ${result.reason}` : ''})`,
          ),
        );
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    close(code = 1000, reason = '') {
      if (result === undefined && !closeSent) {
        closeSent = true;
        write(Opcode.Close, closePayload(code, reason));
      }
      return closed;
    },
  };
}
