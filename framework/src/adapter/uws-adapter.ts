import { Buffer } from 'node:buffer';
import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse, TemplatedApp } from 'uWebSockets.js';
import type { Exchange } from '../pipeline/exchange';
import type { HttpMethod } from '../metadata/types';
import type { AppRuntime, RouteHolder } from '../app/app-runtime';
import type { RouteMatch } from '../routing/router';
import { copyChunk } from './copy-chunk';
import { NativeRoutes } from './native-routes';
import { addWebSocketRoute } from './websocket-endpoints';
import type { BodyConsumer } from '../pipeline/plugin';
import { type Framing, handleRequest, runChain, type Transport } from '../pipeline/lifecycle';
import { leaveCallback, openExchange } from './request-setup';
import { judgeFraming, refuseLater } from './request-framing';
import { kAbort, kBody, kLive, kParamNames } from '../http/internal';
import { REFUSED_BODY_DRAIN_BYTES, RefusedBody } from './refused-body';
import { keptBytes } from '../http/header-bytes';
import { errors } from '../errors/factories';

/**
 * The only place that speaks uWebSockets.js's request protocol: read the request synchronously, attach
 * onAborted/onData before returning, hand the framework objects that outlive the callback. What happens to the
 * request, and in what order, is the lifecycle's (pipeline/lifecycle.ts); this file gives it uWebSockets.js.
 */

/** The framing headers' names as bytes, from the table of kept header texts (a string key costs uWebSockets.js a copy). */
const CONTENT_LENGTH = keptBytes('content-length');
const TRANSFER_ENCODING = keptBytes('transfer-encoding');

/**
 * uWebSockets.js's method names. v20.57 hands over any method token ("junkGET" included), v20.30 closes on those it
 * does not know: the lifecycle answers a method no route can have as routing does, and closes its connection.
 */
const METHODS: Record<string, HttpMethod> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  delete: 'DELETE',
  patch: 'PATCH',
  head: 'HEAD',
  options: 'OPTIONS',
  trace: 'TRACE',
};

const runtimeOfApp = new WeakMap<object, AppRuntime>();

/** The runtime attached to an app, if any. */
export function runtimeOf(app: object): AppRuntime | undefined {
  return runtimeOfApp.get(app);
}

/** Routes every request of `app` through `runtime` (once per app). */
export function attachRuntime(app: TemplatedApp, runtime: AppRuntime): void {
  if (runtimeOfApp.has(app)) return;
  runtimeOfApp.set(app, runtime);
  // WebSocket routes first: uWebSockets.js then tries them before the catch-all.
  for (const endpoint of runtime.webSocketEndpoints()) addWebSocketRoute(runtime, UWS, endpoint);
  runtime.onWebSocketAdded = (endpoint) => addWebSocketRoute(runtime, UWS, endpoint);
  app.any('/*', (res, req) => dispatch(runtime, res, req));
  // Native routes mirror the router's rules where it says it matches as uWebSockets.js does (the built-in routers,
  // property-tested); any other router decides every request alone.
  if (runtime.router.matchesLikeUws !== true) return;
  const native = new NativeRoutes(
    app,
    (res, req, method, url, match) => serve(runtime, res, req, method, url, match),
    (res, req) => dispatch(runtime, res, req),
  );
  for (const slot of runtime.router.slots()) native.add(slot);
  runtime.onSlotAdded = (slot) => native.add(slot);
}

/** Handles one request; exported for the test client, which drives it with fake uWS objects. */
export function dispatch(rt: AppRuntime, res: UwsResponse, req: UwsRequest): void {
  const raw = req.getMethod();
  serve(rt, res, req, METHODS[raw] ?? (raw.toUpperCase() as HttpMethod), req.getUrl(), undefined);
}

/** A request taken by uWebSockets.js, handed to the lifecycle (pipeline/lifecycle.ts). */
function serve(
  rt: AppRuntime,
  res: UwsResponse,
  req: UwsRequest,
  method: HttpMethod,
  url: string,
  known: RouteMatch<RouteHolder> | undefined,
): void {
  rt.refreshIfStale();
  handleRequest(rt, UWS, res, req, openExchange(rt, res, req, method, url), method, url, known);
}

/** No framing header: the judgement of every request without a body, shared. */
const UNFRAMED: Framing = { length: '', encoding: '', error: undefined };

/** What the lifecycle needs of uWebSockets.js. */
const UWS: Transport<UwsResponse, UwsRequest, AppRuntime> = {
  /**
   * All headers are judged when a request announces a body. Body methods have all their headers copied and judged in
   * any case (an empty first header would hide the next ones from native reads), and take the framing headers from
   * that copy; other methods keep their headers uncopied unless two native reads show a framing header.
   */
  framing(req, request, method) {
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') return judgeFraming(request);
    if (req.getHeader(CONTENT_LENGTH) === '' && req.getHeader(TRANSFER_ENCODING) === '') return UNFRAMED;
    return judgeFraming(request);
  },
  refuseLater,
  readBody,
  leave: leaveCallback,
};

/**
 * Buffers the body up to the app's limit, then runs the routes. A declared length over the limit is
 * refused at once (413) without reading the rest, and so is a body that grows past it; the connection
 * is closed after those answers since the unread rest cannot be skipped safely.
 */
function readBody(
  rt: AppRuntime,
  res: UwsResponse,
  ctx: Exchange,
  routes: readonly RouteHolder[],
  declared: string,
): void {
  const { request, response } = ctx;
  // The routes' path variables are readable while a body streamer decides (the routes of a slot share one pattern).
  request[kParamNames] = routes[0]!.paramNames;
  const streamer = rt.hooks.bodyStreamer;
  const stream = streamer !== null ? streamer(ctx, routes) : undefined;
  // A streamed body has its consumer's limit (a route's @FileBody may take more than the app's maxBodySize).
  const limit = stream?.limit ?? rt.bodyLimit;
  if (declared !== '' && !(Number(declared) <= limit)) {
    stream?.abort();
    const tooLarge = errors.RU_ERR_PAYLOAD_TOO_LARGE(
      `Request body of ${declared} bytes exceeds the limit of ${limit} bytes`,
    );
    if (Number(declared) <= REFUSED_BODY_DRAIN_BYTES) {
      // Answered once the client sent it all (read and dropped), so that it reads the 413 instead of a reset.
      response[kLive] = false;
      const refusal = new RefusedBody(response, () => rt.fail(ctx, tooLarge));
      res.onAborted(() => {
        refusal.cancel();
        response[kAbort]();
      });
      res.onData((chunk, isLast) => refusal.take(chunk.byteLength, isLast));
      return;
    }
    response.closeConnectionAfter();
    const pending = rt.fail(ctx, tooLarge);
    response[kLive] = false;
    if (pending !== undefined && !response.ended()) res.onAborted(() => response[kAbort]());
    return;
  }
  response[kLive] = false;
  if (stream !== undefined) {
    streamBody(rt, res, ctx, routes, stream);
    return;
  }
  let chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  // Set once the body grew past the limit: the rest is read and dropped (within bounds) before the 413.
  let refusal: RefusedBody | undefined;
  res.onAborted(() => {
    refusal?.cancel();
    response[kAbort]();
  });
  res.onData((chunk, isLast) => {
    if (refusal !== undefined) return refusal.take(chunk.byteLength, isLast);
    if (done) return;
    size += chunk.byteLength;
    if (size > limit) {
      done = true;
      chunks = [];
      const tooLarge = errors.RU_ERR_PAYLOAD_TOO_LARGE(`Request body exceeds the limit of ${limit} bytes`);
      refusal = new RefusedBody(response, () => rt.fail(ctx, tooLarge));
      refusal.take(0, isLast);
      return;
    }
    // uWebSockets.js neuters the chunk when this callback returns: copy it.
    if (chunk.byteLength > 0) chunks.push(copyChunk(chunk));
    if (!isLast) return;
    done = true;
    request[kBody] = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    chunks = [];
    response[kLive] = true;
    try {
      void runChain(routes, ctx);
    } catch (err) {
      void rt.fail(ctx, err);
    } finally {
      response[kLive] = false;
    }
  });
}

/** Feeds the body to a streaming consumer (uploads); same limits and abort rules as buffering. */
function streamBody(
  rt: AppRuntime,
  res: UwsResponse,
  ctx: Exchange,
  routes: readonly RouteHolder[],
  consumer: BodyConsumer,
): void {
  const { response } = ctx;
  let done = false;
  let size = 0;
  // Set when the consumer refused the body (too many files, a malformed part) or it grew past the limit: the
  // rest is read and dropped (within bounds) before the answer, so that a client still sending reads it.
  let refusal: RefusedBody | undefined;
  res.onAborted(() => {
    response[kAbort]();
    if (refusal !== undefined) refusal.cancel();
    else if (!done) consumer.abort();
    done = true;
  });
  // uWebSockets.js pauses a body's reading (a build without pause/resume: the consumer takes the body as it comes).
  if (consumer.takeFlow !== undefined && typeof res.pause === 'function' && typeof res.resume === 'function') {
    const open = () => !response.aborted() && !response.ended();
    consumer.takeFlow({ pause: () => void (open() && res.pause()), resume: () => void (open() && res.resume()) });
  }
  const refuse = (error: unknown, isLast: boolean) => {
    done = true;
    refusal = new RefusedBody(response, () => rt.fail(ctx, error));
    refusal.take(0, isLast);
  };
  res.onData((chunk, isLast) => {
    if (refusal !== undefined) return refusal.take(chunk.byteLength, isLast);
    if (done) return;
    size += chunk.byteLength;
    if (size > consumer.limit) {
      consumer.abort();
      refuse(errors.RU_ERR_PAYLOAD_TOO_LARGE(`Request body exceeds the limit of ${consumer.limit} bytes`), isLast);
      return;
    }
    try {
      if (chunk.byteLength > 0) consumer.write(copyChunk(chunk));
      if (!isLast) return;
      done = true;
      const ended = consumer.end();
      // Tell the consumer when the request is over (routes, writer, events), so it can release the body's files.
      const settle = (out: void | Promise<void>) => {
        if (out === undefined) consumer.finished?.();
        else
          out.then(
            () => consumer.finished?.(),
            () => consumer.finished?.(),
          );
      };
      const run = () => settle(response.aborted() ? undefined : runChain(routes, ctx));
      if (ended !== undefined && typeof (ended as Promise<void>).then === 'function')
        (ended as Promise<void>).then(run, (err) => settle(rt.fail(ctx, err)));
      else run();
    } catch (err) {
      consumer.abort();
      if (!isLast) {
        refuse(err, false);
        return;
      }
      done = true; // the whole body is read: the connection can carry on after the answer
      void rt.fail(ctx, err);
    }
  });
}
