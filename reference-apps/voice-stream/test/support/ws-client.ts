import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';

export interface Frame {
  readonly data: string | Buffer;
  readonly isBinary: boolean;
}

/** A real WebSocket client (the `ws` package) with awaitable frames and close. */
export interface StreamClient {
  readonly socket: WebSocket;
  readonly frames: Frame[];
  next(timeoutMs?: number): Promise<Frame>;
  readonly closed: Promise<{ code: number; reason: string }>;
}

export function connect(url: string): Promise<StreamClient> {
  const socket = new WebSocket(url);
  const frames: Frame[] = [];
  const queue: Frame[] = [];
  const waiting: Array<(frame: Frame) => void> = [];
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    const frame = { data: isBinary ? data : data.toString('utf8'), isBinary };
    frames.push(frame);
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else queue.push(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    socket.once('open', () =>
      resolve({
        socket,
        frames,
        closed,
        next: (timeoutMs = 10_000) =>
          new Promise<Frame>((resolveFrame, rejectFrame) => {
            const queued = queue.shift();
            if (queued) return resolveFrame(queued);
            const timer = setTimeout(() => rejectFrame(new Error(`no frame within ${timeoutMs} ms`)), timeoutMs);
            waiting.push((frame) => {
              clearTimeout(timer);
              resolveFrame(frame);
            });
          }),
      }),
    );
    socket.once('unexpected-response', (_request, response: IncomingMessage) =>
      reject(new Error(`upgrade refused with ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

/** Attempts an upgrade that should be refused; resolves with the HTTP answer. */
export function refusedUpgrade(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    socket.once('error', (error) => reject(error));
  });
}
