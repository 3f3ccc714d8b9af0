import { Buffer } from 'node:buffer';
import type { WebSocket as UwsWebSocket } from 'uWebSockets.js';
import type { User } from './user';
import type { HttpServerRequest } from '../http/request';
import { errors } from '../errors/factories';

/**
 * What a send did, as uWebSockets.js reports it: `sent`; `backpressure` (queued, the socket's
 * buffer is over its limit: pause until `drain`); `dropped` (not sent: `maxBackpressure` exceeded);
 * `closed` (the connection is gone).
 */
export type SendStatus = 'sent' | 'backpressure' | 'dropped' | 'closed';

const STATUS: readonly SendStatus[] = ['backpressure', 'sent', 'dropped'];

/** Data a message can carry: a string goes as a text frame, bytes as a binary frame. */
export type WebSocketData = string | Buffer | Uint8Array | ArrayBuffer;

const MAX_REASON_BYTES = 123;

/** Error thrown by a WebSocket handler to close its connection with a chosen code (4000-4999 for applications). */
export class WebSocketCloseException extends Error {
  /**
   * @param code the close code sent to the client
   * @param reason the close reason sent to the client (cut to 123 bytes)
   */
  constructor(
    readonly code: number,
    readonly reason = '',
  ) {
    super(reason || `WebSocket closed with ${code}`);
    this.name = 'WebSocketCloseException';
    checkCloseCode(code);
  }
}

/** @internal Key of the adapter's call telling a connection its native socket closed (not exported by index.ts). */
export const kSocketClosed: unique symbol = Symbol('rest.uws.connection.closed');

/**
 * One open WebSocket of a `@WebSocket` endpoint. Valid from `open` until `close`; afterwards sends
 * return `closed` and nothing throws.
 */
export class WebSocketConnection {
  /** Per-connection state for the endpoint's own use. */
  readonly data: Record<string, unknown> = {};
  /** @internal the native socket, null once closed */
  _ws: UwsWebSocket<unknown> | null;
  private _closeCode: number | undefined;

  constructor(
    ws: UwsWebSocket<unknown>,
    /** The upgrade request (headers, query, path parameters, remote address), kept after the upgrade. */
    readonly request: HttpServerRequest,
    /** The user authentication identified during the upgrade, if any. */
    readonly user: User | undefined,
    /** The subprotocol agreed on ('' when none). */
    readonly protocol: string,
  ) {
    this._ws = ws;
  }

  /** Whether the connection is still open. */
  isOpen(): boolean {
    return this._ws !== null;
  }

  /** The close code once closed (undefined while open). */
  closeCode(): number | undefined {
    return this._closeCode;
  }

  /** Sends a string as a text frame or bytes as a binary frame. */
  send(data: WebSocketData, options: { compress?: boolean } = {}): SendStatus {
    const ws = this._ws;
    if (ws === null) return 'closed';
    const binary = typeof data !== 'string';
    return STATUS[ws.send(data as string | ArrayBuffer | Uint8Array, binary, options.compress === true)] ?? 'dropped';
  }

  /** Sends a value as JSON in a text frame. */
  sendJson(value: unknown, options: { compress?: boolean } = {}): SendStatus {
    return this.send(JSON.stringify(value), options);
  }

  /** Bytes waiting to be sent (backpressure); 0 once closed. Pause sending while it is high and resume on `drain`. */
  getBufferedAmount(): number {
    return this._ws === null ? 0 : this._ws.getBufferedAmount();
  }

  /** Sends several messages in one system call. */
  cork(fn: () => void): void {
    if (this._ws === null) return;
    this._ws.cork(fn);
  }

  /** Sends a ping (answered by the client's pong). */
  ping(data?: WebSocketData): SendStatus {
    if (this._ws === null) return 'closed';
    return STATUS[this._ws.ping(data as string | ArrayBuffer | Uint8Array | undefined)] ?? 'dropped';
  }

  /** Subscribes to a topic of the app's publish/subscribe (exact topic names). */
  subscribe(topic: string): boolean {
    return this._ws?.subscribe(topic) ?? false;
  }

  /** Leaves a topic; false when the connection was not subscribed. */
  unsubscribe(topic: string): boolean {
    return this._ws?.unsubscribe(topic) ?? false;
  }

  /** Whether the connection is subscribed to `topic`. */
  isSubscribed(topic: string): boolean {
    return this._ws?.isSubscribed(topic) ?? false;
  }

  /** The topics the connection is subscribed to. */
  getTopics(): string[] {
    return this._ws === null ? [] : this._ws.getTopics();
  }

  /** Sends to every subscriber of `topic` except this connection. */
  publish(topic: string, data: WebSocketData, options: { compress?: boolean } = {}): boolean {
    if (this._ws === null) return false;
    return this._ws.publish(
      topic,
      data as string | ArrayBuffer | Uint8Array,
      typeof data !== 'string',
      options.compress === true,
    );
  }

  /** The client's address as text. */
  remoteAddress(): string {
    return this.request.remoteAddress();
  }

  /**
   * Closes gracefully with a close frame: `code` 1000 (normal) by default, 1001 going away, 1008
   * policy violation, 1011 server error, 4000-4999 for applications. The reason is cut to 123 bytes.
   */
  close(code = 1000, reason = ''): void {
    const ws = this._ws;
    if (ws === null) return;
    checkCloseCode(code);
    ws.end(code, truncateReason(reason));
  }

  /** Drops the connection at once, without a close frame. */
  terminate(): void {
    const ws = this._ws;
    if (ws === null) return;
    ws.close();
  }

  /** @internal the native socket closed: no call may reach it any more */
  [kSocketClosed](code: number): void {
    this._ws = null;
    this._closeCode = code;
  }
}

/** Codes a server may send (RFC 6455 7.4): 1000-1003, 1007-1014, 3000-4999. */
function checkCloseCode(code: number): void {
  const ok =
    Number.isInteger(code) &&
    ((code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999));
  if (!ok)
    throw errors.RU_ERR_CLOSE_CODE(
      `rest.uws: ${code} is not a close code a server may send (1000-1003, 1007-1014, 3000-4999)`,
    );
}

function truncateReason(reason: string): string {
  if (Buffer.byteLength(reason) <= MAX_REASON_BYTES) return reason;
  let out = reason;
  while (Buffer.byteLength(out) > MAX_REASON_BYTES) out = out.slice(0, -1);
  return out;
}
