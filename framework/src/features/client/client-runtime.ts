/**
 * The part of every generated client that does the work, written into the generated file as it is (the client
 * imports nothing: no rest.uws, no decorators, no uWebSockets.js). It uses only what browsers and Node share:
 * `fetch`, `URL`, `Headers`, `FormData` and a `WebSocket` class; its types compile with the DOM library or with
 * @types/node alone (no `BodyInit`, which only the DOM library declares).
 */
export const CLIENT_RUNTIME = `
// ---- Runtime: fetch and WebSocket, no dependencies ----------------------------------------------------------------

/** A WebSocket class: the browser's (and Node 22's) global one, or the \`ws\` package's in Node 20. */
export type WebSocketClass = new (url: string, protocols?: string | string[], options?: { headers?: Record<string, string> }) => WebSocketLike;

/** What the client uses of a WebSocket (the browser's and \`ws\`'s have it). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: any) => void): void;
}

/** Options of \`createClient\`. */
export interface ClientOptions {
  /** The server: \`https://api.example.com\` (a path after it is kept: \`https://example.com/api\`). */
  baseUrl: string;
  /** Headers sent with every request and upgrade (\`Authorization\`...), or a function giving them each time. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The fetch to use (default \`globalThis.fetch\`). */
  fetch?: (input: URL, init: RequestInit) => Promise<Response>;
  /** The WebSocket class (default \`globalThis.WebSocket\`; in Node 20, \`import WebSocket from 'ws'\`). */
  WebSocket?: WebSocketClass;
}

/** One documented answer: its status, whether it is a success, its body, and the response. */
export interface Answer<S extends number, Ok extends boolean, D> {
  readonly status: S;
  readonly ok: Ok;
  readonly data: D;
  readonly headers: Headers;
  readonly response: Response;
}

type BodyKind = '' | 'json' | 'text' | 'bytes' | 'form' | 'multipart';
type Values = Record<string, unknown> | undefined;
interface CallArgs {
  path?: Values;
  query?: Values;
  headers?: Values;
  cookies?: Values;
  body?: unknown;
}

async function headersOf(options: ClientOptions, args: CallArgs): Promise<Headers> {
  const base = typeof options.headers === 'function' ? await options.headers() : options.headers;
  const headers = new Headers(base);
  for (const [name, value] of Object.entries(args.headers ?? {}))
    if (value !== undefined && value !== null) headers.set(name, String(value));
  const cookies = Object.entries(args.cookies ?? {}).filter(([, v]) => v !== undefined && v !== null);
  if (cookies.length > 0)
    headers.append('cookie', cookies.map(([n, v]) => \`\${n}=\${encodeURIComponent(String(v))}\`).join('; '));
  return headers;
}

function urlOf(baseUrl: string, template: string, args: CallArgs): URL {
  const path = template.replace(/\\{([^}]+)\\}/g, (_, name: string) => {
    const value = args.path?.[name];
    if (value === undefined || value === null) throw new TypeError(\`\${template}: no value for the path parameter \${name}\`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(baseUrl.replace(/\\/+$/, '') + path);
  for (const [name, value] of Object.entries(args.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url;
}

function bodyOf(kind: BodyKind, body: unknown, headers: Headers): RequestInit['body'] {
  if (kind === '' || body === undefined) return undefined;
  const type = (t: string) => {
    if (!headers.has('content-type')) headers.set('content-type', t);
  };
  if (kind === 'json') {
    type('application/json');
    return JSON.stringify(body);
  }
  if (kind === 'text') {
    type('text/plain; charset=utf-8');
    return String(body);
  }
  if (kind === 'form') {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
    }
    return form;
  }
  if (kind === 'multipart') {
    const form = new FormData();
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value])
        form.append(name, item instanceof Blob ? item : String(item));
    }
    return form;
  }
  type('application/octet-stream');
  return body as RequestInit['body'];
}

async function dataOf(response: Response, method: string): Promise<unknown> {
  if (method === 'HEAD' || response.status === 204 || response.status === 205 || response.status === 304) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (/[/+]json\\b/i.test(type)) {
    const text = await response.text();
    return text === '' ? undefined : JSON.parse(text);
  }
  if (/^text\\//i.test(type)) return response.text();
  const bytes = new Uint8Array(await response.arrayBuffer());
  return bytes.length === 0 ? undefined : bytes;
}

/** One HTTP call: the documented answer it got, whatever its status (a network failure rejects). */
async function call(options: ClientOptions, method: string, template: string, kind: BodyKind, args: CallArgs = {}): Promise<any> {
  const headers = await headersOf(options, args);
  const url = urlOf(options.baseUrl, template, args);
  if (!headers.has('accept')) headers.set('accept', 'application/json, text/plain;q=0.9, */*;q=0.8');
  const body = bodyOf(kind, args.body, headers);
  const response = await (options.fetch ?? globalThis.fetch)(url, { method, headers, body });
  const data = await dataOf(response, method);
  return { status: response.status, ok: response.ok, data, headers: response.headers, response };
}

/** A connection to a WebSocket endpoint: JSON messages in and out, typed by the endpoint's declarations. */
export interface TypedSocket<In, Out> {
  /** The underlying WebSocket. */
  readonly socket: WebSocketLike;
  /** Resolves when the socket is open; rejects when it closes (or fails) first, with the close code. */
  readonly opened: Promise<void>;
  /** Resolves when the socket is closed, by either side (1006: cut without a close frame). */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Sends one message (as a JSON text frame). */
  send(message: Out): void;
  /** The next message the server sends; rejects when the socket closes first. */
  next(): Promise<In>;
  /** Calls \`listener\` with every message from now on (the messages \`next()\` waits for are given to it first). */
  onMessage(listener: (message: In) => void): void;
  /** Closes with a close frame (default 1000) and resolves with how it closed. */
  close(code?: number, reason?: string): Promise<{ code: number; reason: string }>;
}

/** A closed socket's code and reason, as an error (\`opened\` and \`next()\` reject with it). */
export class SocketClosed extends Error {
  constructor(readonly code: number, readonly reason: string) {
    super(\`WebSocket closed: \${code}\${reason ? ' ' + reason : ''}\`);
  }
}

async function connect(options: ClientOptions, template: string, args: CallArgs & { protocols?: string[] } = {}): Promise<TypedSocket<any, any>> {
  const Socket = options.WebSocket ?? (globalThis as unknown as { WebSocket?: WebSocketClass }).WebSocket;
  if (Socket === undefined) throw new TypeError('No WebSocket class: pass createClient({ WebSocket }) (in Node 20, the ws package)');
  const url = urlOf(options.baseUrl, template, args);
  url.protocol = url.protocol === 'https:' ? 'wss:' : url.protocol === 'http:' ? 'ws:' : url.protocol;
  const headers: Record<string, string> = {};
  (await headersOf(options, args)).forEach((value, name) => {
    headers[name] = value;
  });
  const socket = new Socket(url.toString(), args.protocols, Object.keys(headers).length > 0 ? { headers } : undefined);
  const queue: unknown[] = [];
  const waiting: Array<{ resolve(m: unknown): void; reject(e: unknown): void }> = [];
  let listener: ((m: unknown) => void) | undefined;
  let ended: { code: number; reason: string } | undefined;
  let markOpen!: () => void;
  let markFailed!: (e: unknown) => void;
  const opened = new Promise<void>((resolve, reject) => {
    markOpen = resolve;
    markFailed = reject;
  });
  opened.catch(() => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener('close', (event: { code: number; reason: string }) => {
      ended = { code: event.code, reason: String(event.reason ?? '') };
      const error = new SocketClosed(ended.code, ended.reason);
      markFailed(error);
      for (const w of waiting.splice(0)) w.reject(error);
      resolve(ended);
    });
  });
  socket.addEventListener('open', () => markOpen());
  socket.addEventListener('message', (event: { data: unknown }) => {
    const text = typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data as ArrayBuffer);
    const message = JSON.parse(text);
    const w = waiting.shift();
    if (w !== undefined) w.resolve(message);
    else if (listener !== undefined) listener(message);
    else queue.push(message);
  });
  return {
    socket,
    opened,
    closed,
    send(message) {
      socket.send(JSON.stringify(message));
    },
    next() {
      if (queue.length > 0) return Promise.resolve(queue.shift());
      if (ended !== undefined) return Promise.reject(new SocketClosed(ended.code, ended.reason));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    onMessage(fn) {
      listener = fn;
      for (const m of queue.splice(0)) fn(m);
    },
    close(code = 1000, reason = '') {
      if (ended === undefined) socket.close(code, reason);
      return closed;
    },
  };
}
`;
