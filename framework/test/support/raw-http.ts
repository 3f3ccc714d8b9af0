import * as net from 'node:net';

/** Sends bytes as they are on a fresh socket and collects what comes back until the server closes or `timeoutMs` passes. */
export function rawRequest(
  port: number,
  payload: string | Buffer | Array<string | Buffer>,
  timeoutMs = 1000,
  gapMs = 0,
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const parts = Array.isArray(payload) ? payload : [payload];
    socket.on('connect', async () => {
      for (const p of parts) {
        if (socket.destroyed) break;
        socket.write(p);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      finish();
    });
    const timer = setTimeout(finish, timeoutMs);
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed });
    }
  });
}

/** A raw connection whose end is a signal: `closed` resolves when the server closes it (or after `boundMs`, with false). */
export interface RawConnection {
  /** Everything received so far, as latin1 text. */
  text(): string;
  /** Resolves true when the server closed the connection, false when `boundMs` passed first. */
  closed: Promise<boolean>;
  /** Resolves once the payload was handed to the kernel (on loopback, the server has it). */
  sent: Promise<void>;
  /** Whether the connection is still open. */
  isOpen(): boolean;
  /** Resolves once the received text satisfies `test` (or rejects when the connection closes first). */
  received(test: (text: string) => boolean): Promise<string>;
  write(bytes: string | Buffer): void;
  /** Stops reading (the server's answers back up), until `resume`. */
  pause(): void;
  resume(): void;
  destroy(): void;
}

/** Opens a connection, sends `payload`, and collects what comes back. */
export function openRaw(port: number, payload: string | Buffer, boundMs = 5000): RawConnection {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  const waiters: Array<() => void> = [];
  let isClosed = false;
  socket.on('error', () => {});
  const sent = new Promise<void>((resolve) => socket.on('connect', () => socket.write(payload, () => resolve())));
  socket.on('data', (d) => {
    chunks.push(d);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, boundMs);
    socket.on('close', () => {
      isClosed = true;
      clearTimeout(timer);
      for (const w of waiters.splice(0)) w();
      resolve(true);
    });
  });
  const text = () => Buffer.concat(chunks).toString('latin1');
  return {
    text,
    closed,
    sent,
    isOpen: () => !isClosed && !socket.destroyed,
    received: (test) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (test(text())) resolve(text());
          else if (isClosed) reject(new Error(`connection closed; received ${JSON.stringify(text().slice(0, 200))}`));
          else waiters.push(check);
        };
        check();
      }),
    write: (bytes) => socket.write(bytes),
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    destroy: () => socket.destroy(),
  };
}
