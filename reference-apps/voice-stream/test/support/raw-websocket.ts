import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** WebSocket opcodes (RFC 6455 section 5.2). */
export const Opcode = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export interface FrameOptions {
  readonly opcode: number;
  readonly payload?: Buffer;
  readonly fin?: boolean;
  /** RSV1-3 bits (0-7); set without a negotiated extension they are a protocol error. */
  readonly rsv?: number;
  /** Clients must mask; false sends an unmasked (invalid) client frame. */
  readonly masked?: boolean;
  /** Length written in the header, when it should lie about the payload (truncated frames). */
  readonly declaredLength?: number;
}

/** One client frame, byte for byte, valid or deliberately not. */
export function buildFrame(options: FrameOptions): Buffer {
  const payload = options.payload ?? Buffer.alloc(0);
  const length = options.declaredLength ?? payload.length;
  const masked = options.masked ?? true;
  const first = ((options.fin ?? true) ? 0x80 : 0) | ((options.rsv ?? 0) << 4) | (options.opcode & 0x0f);
  let header: Buffer;
  if (length < 126) header = Buffer.from([first, (masked ? 0x80 : 0) | length]);
  else if (length < 65536) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = (masked ? 0x80 : 0) | 126;
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = (masked ? 0x80 : 0) | 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  if (!masked) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload);
  for (let index = 0; index < body.length; index += 1) body[index] ^= mask[index % 4];
  return Buffer.concat([header, mask, body]);
}

/** A frame the server sent (servers never mask). */
export interface ServerFrame {
  readonly opcode: number;
  readonly payload: Buffer;
}

/** How the connection ended, as seen from the raw client. */
export interface RawOutcome {
  /** Code of the server's close frame; undefined when the TCP connection ended without one. */
  readonly closeCode: number | undefined;
  readonly closeReason: string;
  /** Data frames received before the end. */
  readonly frames: ServerFrame[];
  /** Milliseconds from the outcome's start to the TCP end. */
  readonly elapsedMs: number;
}

/** A WebSocket spoken by hand over TCP, to send what no well-behaved client library would. */
export class RawWebSocket {
  private buffer = Buffer.alloc(0);
  readonly frames: ServerFrame[] = [];
  private closeFrame: ServerFrame | undefined;
  private readonly ended: Promise<void>;
  private readingPaused = false;

  private constructor(
    readonly socket: net.Socket,
    leftover: Buffer,
  ) {
    this.ended = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.onData(leftover);
  }

  /** Performs the HTTP upgrade on `url` (ws://host:port/path?query); rejects unless the answer is 101. */
  static connect(url: string): Promise<RawWebSocket> {
    const target = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(target.port), target.hostname);
      socket.on('error', () => undefined); // resets are an outcome, read through `close`
      let answer = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        answer = Buffer.concat([answer, chunk]);
        const end = answer.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onData);
        const head = answer.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101')) {
          socket.destroy();
          reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
          return;
        }
        resolve(new RawWebSocket(socket, answer.subarray(end + 4)));
      };
      socket.on('data', onData);
      socket.once('connect', () =>
        socket.write(
          `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        ),
      );
      socket.once('close', () => reject(new Error('connection closed during the upgrade')));
    });
  }

  /** Writes raw bytes (frames, parts of frames, garbage); resolves once handed to the kernel. */
  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.write(bytes, () => resolve());
    });
  }

  send(options: FrameOptions): Promise<void> {
    return this.write(buildFrame(options));
  }

  /** Stops reading from the socket (a client that does not read: the server's output backs up). */
  pauseReading(): void {
    this.readingPaused = true;
    this.socket.pause();
  }

  resumeReading(): void {
    this.readingPaused = false;
    this.socket.resume();
  }

  get isPaused(): boolean {
    return this.readingPaused;
  }

  /** Waits for the TCP connection to end (at most `timeoutMs`, then fails) and reports how. */
  async outcome(timeoutMs = 10_000): Promise<RawOutcome> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const result = await Promise.race([this.ended, timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') {
      this.socket.destroy();
      throw new Error(`the server did not close the connection within ${timeoutMs} ms`);
    }
    const close = this.closeFrame;
    return {
      closeCode: close && close.payload.length >= 2 ? close.payload.readUInt16BE(0) : undefined,
      closeReason: close && close.payload.length > 2 ? close.payload.subarray(2).toString('utf8') : '',
      frames: this.frames,
      elapsedMs: Date.now() - started,
    };
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.buffer.length < 2) return;
      const opcode = this.buffer[0] & 0x0f;
      let length = this.buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      const frame = { opcode, payload: Buffer.from(this.buffer.subarray(offset, offset + length)) };
      this.buffer = this.buffer.subarray(offset + length);
      if (opcode === Opcode.close) this.closeFrame = frame;
      else this.frames.push(frame);
    }
  }
}
