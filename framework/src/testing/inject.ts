import { Buffer } from 'node:buffer';
import type { TemplatedApp } from 'uWebSockets.js';
import { dispatch, runtimeOf } from '../adapter/uws-adapter';
import type { RestBuilder } from '../builder/rest-builder';
import { errors } from '../errors/factories';
import { type FakeExchangeResult, FakeUwsRequest, FakeUwsResponse } from './fake-uws';

/** A request for `inject`. */
export interface InjectOptions {
  /** The HTTP method (default GET). */
  method?: string;
  /** Path with optional query: `/users/1?fields=a,b`. */
  url: string;
  /** Request headers; an array sends the header once per value. */
  headers?: Record<string, string | string[]>;
  /** A string or bytes are sent as they are; anything else as JSON (with its Content-Type). */
  body?: unknown;
  /** Client address the request appears to come from. */
  remoteAddress?: string;
}

/** What `inject` received. */
export interface InjectResponse {
  /** The status code. */
  statusCode: number;
  /** The reason phrase. */
  statusMessage: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Every header as sent, in order. */
  rawHeaders: Array<[string, string]>;
  /** The body as UTF-8 text. */
  body: string;
  /** The body bytes. */
  rawBody: Buffer;
  /** The body parsed as JSON (throws when it is not JSON). */
  json<T = any>(): T;
}

/**
 * Sends a request through an app's routes without opening a port (like Fastify's inject): the same
 * adapter code runs, against stand-ins for uWebSockets.js's request and response. Resolves when the answer
 * ends: for an event stream that the server does not end, read it with `injectEvents` instead.
 */
export async function inject(
  target: TemplatedApp | RestBuilder,
  options: InjectOptions | string,
): Promise<InjectResponse> {
  return injectedResponse(await sendInjected(target, options).done);
}

/**
 * Dispatches the request through the app; the returned stand-in response records the answer as it is written.
 * @internal shared by `inject` and `injectEvents`
 */
export function sendInjected(target: TemplatedApp | RestBuilder, options: InjectOptions | string): FakeUwsResponse {
  const opts: InjectOptions = typeof options === 'string' ? { url: options } : options;
  const app =
    typeof (target as RestBuilder).build === 'function' && typeof (target as TemplatedApp).listen !== 'function'
      ? (target as RestBuilder).build()
      : (target as TemplatedApp);
  const runtime = runtimeOf(app);
  if (!runtime)
    throw errors.RU_ERR_NOT_AN_APP(
      'inject: this app has no rest.uws routes (register classes with RestRouter.register or RestBuilder first)',
    );

  const method = (opts.method ?? 'GET').toUpperCase();
  const q = opts.url.indexOf('?');
  const path = q < 0 ? opts.url : opts.url.slice(0, q);
  const query = q < 0 ? undefined : opts.url.slice(q + 1);
  const headers: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(opts.headers ?? {}))
    for (const one of Array.isArray(v) ? v : [v]) headers.push([k.toLowerCase(), one]);
  let body: Buffer | undefined;
  if (opts.body !== undefined) {
    if (typeof opts.body === 'string') body = Buffer.from(opts.body);
    else if (Buffer.isBuffer(opts.body) || opts.body instanceof Uint8Array) body = Buffer.from(opts.body);
    else {
      body = Buffer.from(JSON.stringify(opts.body));
      if (!headers.some(([k]) => k === 'content-type')) headers.push(['content-type', 'application/json']);
    }
    if (!headers.some(([k]) => k === 'content-length' || k === 'transfer-encoding'))
      headers.push(['content-length', String(body.length)]);
  }

  const req = new FakeUwsRequest(method, path, query, headers);
  const res = new FakeUwsResponse(method === 'HEAD', opts.remoteAddress);
  dispatch(runtime, res as any, req as any);
  req.valid = false;
  res.deliver(body);
  return res;
}

/** What the client saw, as `inject` gives it. @internal */
export function injectedResponse(result: FakeExchangeResult): InjectResponse {
  const flat: Record<string, string> = {};
  for (const [k, v] of result.headers) {
    const key = k.toLowerCase();
    flat[key] = flat[key] === undefined ? v : `${flat[key]}, ${v}`;
  }
  const text = result.body.toString('utf8');
  return {
    statusCode: result.status,
    statusMessage: result.statusMessage,
    headers: flat,
    rawHeaders: result.headers,
    body: text,
    rawBody: result.body,
    json: () => JSON.parse(text),
  };
}
