import { Buffer } from 'node:buffer';
import { isIPv4, isIPv6 } from 'node:net';

/** What `inject` collected from the framework, as the client would have seen it. */
export interface FakeExchangeResult {
  status: number;
  statusMessage: string;
  headers: Array<[string, string]>;
  body: Buffer;
  closed: boolean;
}

/**
 * A stand-in for uWebSockets.js's HttpRequest: the same methods, backed by plain values.
 * Like the real one, it refuses use once the handler returned (so tests catch adapter mistakes).
 */
export class FakeUwsRequest {
  valid = true;
  constructor(
    private readonly method: string,
    private readonly url: string,
    private readonly query: string | undefined,
    private readonly headers: Array<[string, string]>,
  ) {}
  private check(): void {
    if (!this.valid) throw new Error('Invalid access of stack-allocated uWS.HttpRequest after the handler returned');
  }
  getMethod(): string {
    this.check();
    return this.method.toLowerCase();
  }
  getCaseSensitiveMethod(): string {
    this.check();
    return this.method;
  }
  getUrl(): string {
    this.check();
    return this.url;
  }
  getQuery(key?: string): string | undefined {
    this.check();
    if (key === undefined) return this.query;
    const params = new URLSearchParams(this.query ?? '');
    return params.get(key) ?? undefined;
  }
  getHeader(key: unknown): string {
    this.check();
    // Like uWebSockets.js, the key may be a string or bytes.
    const name = asText(key);
    const values = this.headers.filter(([k]) => k === name).map(([, v]) => v);
    return values.join(', ');
  }
  forEach(cb: (key: string, value: string) => void): void {
    this.check();
    for (const [k, v] of this.headers) cb(k, v);
  }
  getParameter(): string {
    return '';
  }
  setYield(): this {
    return this;
  }
}

/** A stand-in for uWebSockets.js's HttpResponse that records what is written. */
export class FakeUwsResponse {
  private statusLine = '200 OK';
  private readonly headers: Array<[string, string]> = [];
  private readonly chunks: Buffer[] = [];
  private abortHandler: (() => void) | null = null;
  private dataHandler: ((chunk: ArrayBuffer, isLast: boolean) => void) | null = null;
  private finished = false;
  private aborted = false;
  private closed = false;
  private resolveDone!: (r: FakeExchangeResult) => void;
  private resolveHead!: () => void;
  readonly done: Promise<FakeExchangeResult>;
  /** Resolves once the head is complete: at the first body bytes, or when the answer ends or is aborted. */
  readonly headWritten: Promise<void>;
  /** Hears each body chunk as it is written (the streaming test helpers read events from it). */
  onChunk: ((chunk: Buffer) => void) | null = null;

  constructor(
    readonly isHead: boolean,
    private readonly remoteAddress = '127.0.0.1',
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.headWritten = new Promise((resolve) => (this.resolveHead = resolve));
  }

  /** The status and headers written so far, with the body bytes so far. */
  snapshot(): FakeExchangeResult {
    return { ...this.statusOf(), headers: this.headers, body: Buffer.concat(this.chunks), closed: this.closed };
  }

  private push(chunk: unknown): void {
    const bytes = toBuffer(chunk);
    this.chunks.push(bytes);
    this.resolveHead();
    if (bytes.length > 0) this.onChunk?.(bytes);
  }

  private check(): void {
    if (this.aborted || this.finished)
      throw new Error('Invalid access of discarded (invalid, deleted) uWS.HttpResponse/SSLHttpResponse.');
  }
  writeStatus(status: unknown): this {
    this.check();
    // uWebSockets.js writes the text as it is after `HTTP/1.1 `: lines after the first are headers on the wire (the
    // framework composes a usual answer's head that way, http/default-head.ts).
    const [line, ...headers] = asText(status).split('\r\n');
    this.statusLine = line!;
    for (const header of headers) {
      const colon = header.indexOf(':');
      this.headers.push([header.slice(0, colon), header.slice(colon + 1).trimStart()]);
    }
    return this;
  }
  writeHeader(key: unknown, value: unknown): this {
    this.check();
    this.headers.push([asText(key), asText(value)]);
    return this;
  }
  write(chunk: unknown): boolean {
    this.check();
    this.push(chunk);
    return true;
  }
  end(body?: unknown, closeConnection?: boolean): this {
    this.check();
    // Like uWebSockets.js 20.30, a HEAD answer's body is sent too if given: the framework must hold it back.
    if (body !== undefined) this.push(body);
    this.finish(closeConnection === true);
    return this;
  }
  endWithoutBody(_length?: number, closeConnection?: boolean): this {
    this.check();
    this.finish(closeConnection === true);
    return this;
  }
  tryEnd(chunk: unknown, totalSize: number): [boolean, boolean] {
    this.check();
    this.push(chunk);
    const written = this.chunks.reduce((n, c) => n + c.length, 0);
    if (written >= totalSize) this.finish(false);
    return [true, written >= totalSize];
  }
  getWriteOffset(): number {
    this.check();
    return this.chunks.reduce((n, c) => n + c.length, 0);
  }
  onWritable(): this {
    return this;
  }
  close(): this {
    this.check();
    this.closed = true;
    this.finish(true);
    return this;
  }
  cork(cb: () => void): this {
    this.check();
    cb();
    return this;
  }
  onAborted(handler: () => void): this {
    this.abortHandler = handler;
    return this;
  }
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): this {
    this.dataHandler = handler;
    return this;
  }
  pause(): void {}
  resume(): void {}
  getRemoteAddressAsText(): ArrayBuffer {
    this.check();
    return new TextEncoder().encode(this.remoteAddress).buffer as ArrayBuffer;
  }
  /** Bytes as uWebSockets.js gives them: 4 for IPv4, 16 for IPv6 (parsed with Node's own rules). */
  getRemoteAddress(): ArrayBuffer {
    this.check();
    return addressBytes(this.remoteAddress).buffer as ArrayBuffer;
  }

  /** Feeds the request body as the network would, in chunks. */
  deliver(body: Buffer | undefined, chunkSize = 64 * 1024): void {
    if (!this.dataHandler || this.finished || this.aborted) return;
    if (!body || body.length === 0) {
      this.dataHandler(new ArrayBuffer(0), true);
      return;
    }
    for (let offset = 0; offset < body.length && !this.finished && !this.aborted; offset += chunkSize) {
      const part = body.subarray(offset, offset + chunkSize);
      const ab = part.buffer.slice(part.byteOffset, part.byteOffset + part.length) as ArrayBuffer;
      this.dataHandler(ab, offset + chunkSize >= body.length);
    }
  }

  /** Simulates the client going away. */
  abort(): void {
    if (this.finished || this.aborted) return;
    this.aborted = true;
    this.resolveHead();
    this.abortHandler?.();
    this.resolveDone({
      status: 0,
      statusMessage: 'aborted',
      headers: this.headers,
      body: Buffer.concat(this.chunks),
      closed: true,
    });
  }

  private statusOf(): { status: number; statusMessage: string } {
    const space = this.statusLine.indexOf(' ');
    return {
      status: Number(space < 0 ? this.statusLine : this.statusLine.slice(0, space)),
      statusMessage: space < 0 ? '' : this.statusLine.slice(space + 1),
    };
  }

  private finish(close: boolean): void {
    this.finished = true;
    this.resolveHead();
    this.resolveDone({
      ...this.statusOf(),
      headers: this.headers,
      body: Buffer.concat(this.chunks),
      closed: close || this.closed,
    });
  }
}

/** A text argument as uWebSockets.js reads it: a string, or bytes taken as UTF-8. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : toBuffer(value).toString('utf8');
}

function toBuffer(chunk: unknown): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof ArrayBuffer) return Buffer.from(chunk.slice(0));
  if (ArrayBuffer.isView(chunk))
    return Buffer.from(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength));
  return Buffer.from(String(chunk));
}

function addressBytes(text: string): Uint8Array {
  if (isIPv4(text)) return Uint8Array.from(text.split('.').map(Number));
  if (!isIPv6(text)) return new Uint8Array(0);
  // Expand `::` and an embedded IPv4 tail into eight 16-bit groups.
  const [head, tail = ''] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (isIPv4(g) ? ipv4Groups(g) : [parseInt(g, 16)]));
  const left = groups(head!);
  const right = text.includes('::') ? groups(tail) : [];
  const all = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 255;
  });
  return out;
}

function ipv4Groups(v4: string): number[] {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d];
}
