import net from 'node:net';

/** A header as sent: repeated names, odd spellings and raw bytes are the point, so it is a list, not a map. */
export type RawHeader = readonly [name: string, value: string | Buffer];

/** One HTTP/1.1 request, written byte for byte as given (no header is added but Host and, when asked, Content-Length). */
export interface RawRequest {
  method: string;
  /** The request target as it goes on the wire (already percent-encoded where it should be). */
  target: string;
  headers: readonly RawHeader[];
  body?: Buffer;
  /** Add `Content-Length: <body length>` when there is a body (default true; false for framing attacks). */
  contentLength?: boolean;
  /** Bytes written after the request on the same connection (a smuggled or pipelined tail). */
  trailing?: Buffer;
}

export interface RawAnswer {
  status: number;
  /** Lower-case names, in the order received. */
  headers: ReadonlyArray<readonly [string, string]>;
  body: Buffer;
}

export interface RawExchange {
  /** Undefined when the server closed the connection (or stopped answering) without a complete answer. */
  answer?: RawAnswer;
  /** The server closed the connection after (or instead of) answering. */
  closed: boolean;
  /** Bytes that came after the answer: a second answer the client never asked for as a request of its own. */
  extra: Buffer;
  /** No complete answer within the time limit. */
  timedOut: boolean;
}

/** How long a server that announced `Connection: close` gets to close; still open after it counts as left open. */
const CLOSE_WAIT_MS = 2000;

export function headerOf(answer: RawAnswer, name: string): string | undefined {
  const lower = name.toLowerCase();
  return answer.headers.find(([key]) => key === lower)?.[1];
}

export function encodeRequest(request: RawRequest, host: string): Buffer {
  const hasHost = request.headers.some(([name]) => name.toLowerCase() === 'host');
  const lines: Buffer[] = [Buffer.from(`${request.method} ${request.target} HTTP/1.1\r\n`, 'latin1')];
  if (!hasHost) lines.push(Buffer.from(`Host: ${host}\r\n`, 'latin1'));
  for (const [name, value] of request.headers) {
    lines.push(
      Buffer.from(`${name}: `, 'latin1'),
      typeof value === 'string' ? Buffer.from(value, 'utf8') : value,
      Buffer.from('\r\n', 'latin1'),
    );
  }
  if (request.body !== undefined && request.contentLength !== false)
    lines.push(Buffer.from(`Content-Length: ${request.body.length}\r\n`, 'latin1'));
  lines.push(Buffer.from('\r\n', 'latin1'));
  if (request.body !== undefined) lines.push(request.body);
  if (request.trailing !== undefined) lines.push(request.trailing);
  return Buffer.concat(lines);
}

/** Parses one answer from the front of `data`; undefined while incomplete. `ended`: the server closed, so a body without length ends here. */
function parseAnswer(
  data: Buffer,
  headRequest: boolean,
  ended: boolean,
): { answer: RawAnswer; used: number } | undefined {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const lines = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1] ?? NaN);
  if (!Number.isInteger(status)) throw new Error(`not an HTTP answer: ${JSON.stringify(lines[0].slice(0, 80))}`);
  const headers = lines.slice(1).map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
  });
  const start = headEnd + 4;
  const header = (name: string) => headers.find(([key]) => key === name)?.[1];
  if (headRequest || status === 101 || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { answer: { status, headers, body: Buffer.alloc(0) }, used: start };
  }
  if (/chunked/i.test(header('transfer-encoding') ?? '')) {
    const chunks: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = data.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
      if (!Number.isFinite(size)) throw new Error('bad chunk size in the answer');
      if (data.length < lineEnd + 2 + size + 2) return undefined;
      if (size === 0) return { answer: { status, headers, body: Buffer.concat(chunks) }, used: lineEnd + 4 };
      chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  const length = header('content-length');
  if (length !== undefined) {
    const end = start + Number(length);
    return data.length >= end ? { answer: { status, headers, body: data.subarray(start, end) }, used: end } : undefined;
  }
  return ended ? { answer: { status, headers, body: data.subarray(start) }, used: data.length } : undefined;
}

/**
 * A keep-alive HTTP/1.1 connection that sends exact bytes, one request at a time, and reads the answer
 * itself: what fetch cannot do (repeated and conflicting headers, NUL and raw bytes, framing attacks).
 */
export class RawHttpConnection {
  private socket: net.Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(
    readonly host: string,
    readonly port: number,
  ) {}

  /** Sends `request` (on the open connection, or a new one) and waits for its answer, the close, or the time limit. */
  async exchange(request: RawRequest, timeoutMs = 10_000): Promise<RawExchange> {
    const socket = await this.open();
    socket.write(encodeRequest(request, `${this.host}:${this.port}`));
    const headRequest = request.method === 'HEAD';
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.buffered.length > 0 ? parseAnswer(this.buffered, headRequest, this.ended) : undefined;
      if (parsed && parsed.answer.status < 200 && parsed.answer.status !== 101) {
        this.buffered = this.buffered.subarray(parsed.used); // 100 Continue: the final answer follows
        continue;
      }
      if (parsed) {
        this.buffered = this.buffered.subarray(parsed.used);
        if (parsed.answer.status === 101) {
          // A WebSocket opened: what follows is frames, not HTTP. The caller only wanted to know it was accepted.
          this.close();
          return { answer: parsed.answer, closed: false, extra: Buffer.alloc(0), timedOut: false };
        }
        const closeAsked = /close/i.test(headerOf(parsed.answer, 'connection') ?? '');
        // An answer that announces the close: wait for it (2 s at most), so the next request never meets a closing socket.
        const closeDeadline = Math.min(deadline, Date.now() + CLOSE_WAIT_MS);
        if (closeAsked) while (!this.ended && (await this.waitForData(closeDeadline)));
        const extra = this.buffered;
        const closed = this.ended;
        if (closed || extra.length > 0) this.close();
        this.buffered = Buffer.alloc(0);
        return { answer: parsed.answer, closed, extra, timedOut: false };
      }
      if (this.ended) {
        const extra = this.buffered;
        this.close();
        return { closed: true, extra, timedOut: false };
      }
      if (!(await this.waitForData(deadline))) {
        this.close();
        return { closed: false, extra: Buffer.alloc(0), timedOut: true };
      }
    }
  }

  /** One request on a connection of its own, closed after. */
  static async once(host: string, port: number, request: RawRequest, timeoutMs?: number): Promise<RawExchange> {
    const connection = new RawHttpConnection(host, port);
    try {
      return await connection.exchange(request, timeoutMs);
    } finally {
      connection.close();
    }
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
    this.buffered = Buffer.alloc(0);
    this.ended = false;
  }

  private async open(): Promise<net.Socket> {
    if (this.socket && !this.ended) return this.socket;
    this.close();
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.socket !== socket) return;
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.wake?.();
    });
    const end = () => {
      if (this.socket !== socket) return;
      this.ended = true;
      this.wake?.();
    };
    socket.on('end', end);
    socket.on('close', end);
    socket.on('error', end);
    this.socket = socket;
    return socket;
  }

  /** Resolves true on new data or the close, false at the deadline. */
  private waitForData(deadline: number): Promise<boolean> {
    if (this.ended) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.wake = undefined;
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(true);
      };
    });
  }
}
