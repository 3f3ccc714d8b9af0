import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';

export interface Received {
  data: string | Buffer;
  isBinary: boolean;
}

/** A real WebSocket client (the `ws` package) with awaitable messages and close. */
export interface TestClient {
  socket: WebSocket;
  next(timeoutMs?: number): Promise<Received>;
  closed: Promise<{ code: number; reason: string }>;
}

export function connect(
  url: string,
  options: WebSocket.ClientOptions & { protocols?: string[] } = {},
): Promise<TestClient> {
  const { protocols, ...rest } = options;
  const socket = new WebSocket(url, protocols, rest);
  const queue: Received[] = [];
  const waiting: Array<(m: Received) => void> = [];
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    const m = { data: isBinary ? data : data.toString('utf8'), isBinary };
    const w = waiting.shift();
    if (w) w(m);
    else queue.push(m);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    socket.once('open', () =>
      resolve({
        socket,
        closed,
        next: (timeoutMs = 3000) =>
          new Promise<Received>((res, rej) => {
            const m = queue.shift();
            if (m) return res(m);
            const timer = setTimeout(() => rej(new Error('no message within ' + timeoutMs + ' ms')), timeoutMs);
            waiting.push((x) => {
              clearTimeout(timer);
              res(x);
            });
          }),
      }),
    );
    socket.once('unexpected-response', (_req, res: IncomingMessage) =>
      reject(new Error(`upgrade refused with ${res.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

/** Attempts an upgrade expected to be refused; resolves with the HTTP answer (`raw`: its body as sent, not decompressed). */
export function refusedUpgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; raw: Buffer; headers: IncomingMessage['headers'] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_req, res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, body: raw.toString('utf8'), raw, headers: res.headers });
      });
    });
    socket.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}
