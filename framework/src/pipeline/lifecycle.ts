import type { RoutingContext } from '../context/routing-context';
import { kParamNames, kParamValues } from '../http/internal';
import type { HttpServerRequest } from '../http/request';
import type { HttpServerResponse } from '../http/response';
import { Response } from '../http/response-entity';
import { HTTP_METHODS, type HttpMethod } from '../metadata/types';
import type { MethodMismatch, Router, RouteMatch } from '../routing/router';
import { isThenable, type ValueResolver } from './context-values';
import { handleError, normalizeError } from './exception-handling';
import type { Exchange } from './exchange';
import type { CompiledRoute } from './route-compiler';
import { errors } from '../errors/factories';
import {
  handlerChannel,
  type HandlerTrace,
  type RequestTrace,
  requestChannel,
  subscribed,
  tracingActive,
  upgradeChannel,
} from './diagnostics';

/**
 * The lifecycle of a request: what happens to it, and in what order, for HTTP routes and WebSocket upgrades alike.
 * Read from top to bottom; what each stage does in depth lives in the file named beside it.
 *
 * The transport (adapter/, uWebSockets.js) takes the request and opens its exchange: the framework's request and
 * response, with the app's send and response hooks attached to the response (adapter/request-setup.ts). Then:
 *
 *   handleRequest, an HTTP request:
 *     1. frame check      a body whose length is ambiguous: 400, connection closed (adapter/request-framing.ts);
 *                         a method no route can have: 404 or 405, closed; a chunked body the app refuses: 411
 *     2. request hooks    the app's onRequest hooks, before routing: one may answer the request itself
 *     3. route match      the router (routing/): 404, or 405 with Allow (app/not-found.ts)
 *     4. body             read whole, or streamed to the app's body streamer (uploads), up to the limit: 413
 *     5. routes           the routes of the path, in @RouteOrder, the next only while the response is untouched
 *   runRoute, one route, compiled at registration (route-compiler.ts: a stage the route does not need is null):
 *     6. route send hooks set on the response (they run at step 13)
 *     7. onMatch hooks    cheap refusals first (rate limits)
 *     8. providers        the app's request providers push their values into the context
 *     9. onRequest hooks  security: authentication, authorization
 *    10. negotiation      @Produces against Accept: 406 (io/media-type.ts; the route keeps its choice per Accept)
 *    11. arguments        each argument read and converted (arguments.ts, body-argument.ts, context-values.ts)
 *    12. beforeHandler    validation, given the arguments
 *    13. handler          the method
 *    14. result           written by the route's writer (result-writer.ts); as the head is written, the response runs
 *                         the app's onSend hooks, then the route's (compression) (http/response.ts)
 *    15. onResponse       the route's onResponse hooks (events), whatever the answer was
 *    16. response hooks   the app's onResponse hooks, once the response ended or the client left (http/response.ts)
 *     errors              from any stage: the app's onError hooks, then the first matching handler: the route's
 *                         @CatchWith, the app's, the plugins', the built-in one (exception-handling.ts); then 15
 *
 *   handleUpgrade, a WebSocket upgrade: 6, 1, 2; the transport matched the endpoint's path (3); no body (4); 7 to 12
 *   with `open`'s parameters as the arguments; then the 101 in place of 13 and 14 (the transport upgrades, `open`
 *   runs once the socket is), or, on any error, a refusal answered as a route's errors are; 16 for either.
 *
 * Every stage returns a promise only when it really waits: a synchronous route runs without one, inside the
 * transport's callback.
 *
 * Tracing (diagnostics.ts): `handleRequest` and `handleUpgrade` ask once whether a tracing channel has a subscriber;
 * without one they run as above and nothing is allocated. With one, the request runs inside the request (or upgrade)
 * channel's `start.runStores`, its exchange holds the message (`trace`), the handler (13) runs inside the handler
 * channel's, errors on their way to the handlers are published, and the answer's end publishes `asyncEnd`.
 */

/** A route as the chain of a path holds it (the app's registry adds its source). */
export interface ChainedRoute {
  readonly compiled: CompiledRoute;
  /** The path variables' names, in pattern order. */
  readonly paramNames: readonly string[];
}

/** What the lifecycle needs of its app (app/AppRuntime gives it). */
export interface LifecycleApp {
  readonly router: Router<ChainedRoute>;
  /** The app's request hooks composed (null: none); true when one answered. */
  readonly hooks: { readonly onRequest: ((ctx: RoutingContext) => boolean) | null };
  /** Whether any route reads bodies (the body step is skipped entirely otherwise). */
  readonly needsBodies: boolean;
  /** The app (or the global settings) refuses chunked bodies (`bodyHandler({ chunkedBodies: false })`). */
  refusesChunked(): boolean;
  notFound(ctx: RoutingContext): void | Promise<void>;
  methodNotAllowed(ctx: RoutingContext, allowed: readonly string[]): void | Promise<void>;
  /** Answers an error raised outside any route through the app's exception handlers. */
  fail(ctx: RoutingContext, error: unknown): void | Promise<void>;
}

/** A request's framing headers as the transport reads them ('' when absent), and the refusal when ambiguous. */
export interface Framing {
  readonly length: string;
  readonly encoding: string;
  readonly error: unknown;
}

/** What the lifecycle needs of the transport (adapter/uws-adapter.ts gives it for uWebSockets.js). */
export interface Transport<Res, Req, A extends LifecycleApp> {
  /** Reads and judges the framing headers (all of a request's headers when it may carry a body). */
  framing(req: Req, request: HttpServerRequest, method: HttpMethod): Framing;
  /** Answers with `answer` once nothing sent after the request can reach a route, then closes the connection. */
  refuseLater(res: Res, response: HttpServerResponse, answer: () => unknown): void;
  /** Reads the body (its declared length, '' when chunked), then runs the routes (`runChain`); 413 past the limit. */
  readBody(app: A, res: Res, ctx: Exchange, routes: readonly ChainedRoute[], length: string): void;
  /** The transport's callback returns; `pending`: the answer is still to come. */
  leave(res: Res, ctx: Exchange, pending: boolean): void;
}

const ROUTABLE: ReadonlySet<string> = new Set(HTTP_METHODS);

/** One HTTP request, from the transport's callback (`known`: the transport's own router matched it already). */
export function handleRequest<Res, Req, A extends LifecycleApp>(
  app: A,
  io: Transport<Res, Req, A>,
  res: Res,
  req: Req,
  ctx: Exchange,
  method: HttpMethod,
  url: string,
  known: RouteMatch<ChainedRoute> | undefined,
): void {
  if (tracingActive()) {
    traced(requestChannel, ctx, method, url, undefined, () => runRequest(app, io, res, req, ctx, method, url, known));
    return;
  }
  runRequest(app, io, res, req, ctx, method, url, known);
}

/**
 * Runs a request (`run`) traced on `channel`: inside `start.runStores`, `end` as the transport's callback returns,
 * `asyncStart`/`asyncEnd` once the answer ended or the client left.
 */
function traced(
  channel: typeof requestChannel,
  ctx: Exchange,
  method: string,
  url: string,
  route: RequestTrace['route'],
  run: () => void,
): void {
  const trace: RequestTrace = { app: ctx.app, ctx, method, url, route };
  ctx.trace = trace;
  const response = ctx.response;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    if (response.aborted()) trace.aborted = true;
    channel.asyncStart.publish(trace);
    channel.asyncEnd.publish(trace);
  };
  channel.start.runStores(trace, () => {
    try {
      run();
    } finally {
      channel.end.publish(trace);
      // After `end`: an answer given synchronously ends the trace at once.
      response.onEnd(finish).onAborted(finish);
    }
  });
}

function runRequest<Res, Req, A extends LifecycleApp>(
  app: A,
  io: Transport<Res, Req, A>,
  res: Res,
  req: Req,
  ctx: Exchange,
  method: HttpMethod,
  url: string,
  known: RouteMatch<ChainedRoute> | undefined,
): void {
  const { request, response } = ctx;
  // 1. Frame check, before any plugin: an ambiguous request is refused and its connection closed, whatever a hook
  // would do.
  const { length, encoding, error } = io.framing(req, request, method);
  if (error !== undefined) {
    io.refuseLater(res, response, () => app.fail(ctx, error));
    return;
  }
  // A method no route can have is answered as routing answers it, and its connection closed, so nothing pipelined
  // behind it runs.
  if (known === undefined && !ROUTABLE.has(method)) {
    request.detach();
    io.refuseLater(res, response, () => answerUnroutable(app, ctx, method, url));
    return;
  }
  if (encoding !== '' && app.refusesChunked()) {
    request.detach();
    const refusal = errors.RU_ERR_CHUNKED_REFUSED(
      'Bodies sent with Transfer-Encoding: chunked are not accepted here; send a Content-Length',
    );
    io.refuseLater(res, response, () => app.fail(ctx, refusal));
    return;
  }
  // 2. The app's request hooks.
  if (answeredByRequestHooks(app, io, res, ctx)) return;
  // 3. Route match.
  let pending: void | Promise<void> = undefined;
  let match: RouteMatch<ChainedRoute> | MethodMismatch | null | undefined;
  try {
    match = known ?? app.router.find(method, url);
  } catch (err) {
    pending = app.fail(ctx, err); // a path that cannot be decoded
  }
  if (match === null) pending = app.notFound(ctx);
  else if (match !== undefined && 'allowed' in match) pending = app.methodNotAllowed(ctx, match.allowed);
  else if (match !== undefined) {
    request[kParamValues] = match.values;
    const routes = match.slot.routes;
    // 4. The body, when the request has one and a route reads it: the routes run once it is in.
    if ((encoding !== '' || (length !== '' && length !== '0')) && app.needsBodies && needsBody(routes)) {
      io.readBody(app, res, ctx, routes, length);
      return;
    }
    // 5. The routes.
    pending = runChain(routes, ctx);
  }
  io.leave(res, ctx, pending !== undefined);
}

/** The app's request hooks, before routing; true when one answered (a hook that throws answers with its error). */
function answeredByRequestHooks<Res, Req, A extends LifecycleApp>(
  app: A,
  io: Transport<Res, Req, A>,
  res: Res,
  ctx: Exchange,
): boolean {
  const onRequest = app.hooks.onRequest;
  if (onRequest === null) return false;
  let answered: boolean;
  try {
    answered = onRequest(ctx);
  } catch (err) {
    void app.fail(ctx, err);
    answered = true;
  }
  if (answered) io.leave(res, ctx, !ctx.response.ended());
  return answered;
}

function answerUnroutable(app: LifecycleApp, ctx: Exchange, method: HttpMethod, url: string): void | Promise<void> {
  let match: RouteMatch<ChainedRoute> | MethodMismatch | null;
  try {
    match = app.router.find(method, url);
  } catch (err) {
    return app.fail(ctx, err);
  }
  return match !== null && 'allowed' in match ? app.methodNotAllowed(ctx, match.allowed) : app.notFound(ctx);
}

function needsBody(routes: readonly ChainedRoute[]): boolean {
  for (let i = 0; i < routes.length; i++) if (routes[i]!.compiled.needsBody) return true;
  return false;
}

/** 5. The routes of one path in order, each while the response stays untouched; none answered: 204. */
export function runChain(routes: readonly ChainedRoute[], ctx: Exchange, from = 0): void | Promise<void> {
  for (let i = from; i < routes.length; i++) {
    const route = routes[i]!;
    ctx.request[kParamNames] = route.paramNames;
    const out = runRoute(route.compiled, ctx);
    if (out !== undefined) return out.then(() => continueChain(routes, ctx, i + 1));
    if (ctx.response.ended() || ctx.response.headersSent()) return;
  }
  finishChain(ctx);
}

function continueChain(routes: readonly ChainedRoute[], ctx: Exchange, next: number): void | Promise<void> {
  if (ctx.response.ended() || ctx.response.aborted()) return;
  if (ctx.response.headersSent()) {
    ctx.response.end();
    return;
  }
  return runChain(routes, ctx, next);
}

function finishChain(ctx: Exchange): void {
  const response = ctx.response;
  if (response.ended()) return;
  if (!response.headersSent() && !response.statusWasSet()) response.setStatusCode(204);
  response.end();
}

/** One route's whole run, stages 6 to 15; never throws (errors go to the exception handlers). */
function runRoute(route: CompiledRoute, ctx: Exchange): void | Promise<void> {
  // 6. The route's send hooks: every answer of the route meets them, its errors' included.
  ctx.enter(route.definition, route.send);
  let out: void | Promise<void>;
  try {
    out = runStages(route, ctx, ON_MATCH);
  } catch (error) {
    return failRoute(route, ctx, error);
  }
  if (out !== undefined)
    return out.then(
      () => responded(route, ctx),
      (error) => failRoute(route, ctx, error),
    );
  if (route.onResponse !== null) return responded(route, ctx);
}

// Where `runStages` starts (or resumes, once a stage that waited is done).
const ON_MATCH = 0;
const PROVIDE = 1;
const ON_REQUEST = 2;
const ARGUMENTS = 3;
const VALIDATE = 4;
const HANDLE = 5;
const WRITE = 6;

/**
 * Stages 7 to 14 from `from` on: synchronously while they are synchronous; after one that waited, from the next.
 * Stops once a stage has ended the response (a plugin answered). An upgrade (no method) stops after validation.
 */
function runStages(route: CompiledRoute, ctx: Exchange, from: number): void | Promise<void> {
  let out: void | Promise<void>;
  // 7. onMatch hooks (rate limits).
  if (from <= ON_MATCH && route.onMatch !== null) {
    if ((out = route.onMatch(ctx)) !== undefined) return resume(out, route, ctx, PROVIDE);
    if (ctx.response.ended()) return;
  }
  // 8. The app's request providers.
  if (from <= PROVIDE && route.provide !== null) {
    if ((out = route.provide(ctx)) !== undefined) return resume(out, route, ctx, ON_REQUEST);
    if (ctx.response.ended()) return;
  }
  // 9. onRequest hooks (security).
  if (from <= ON_REQUEST && route.onRequest !== null) {
    if ((out = route.onRequest(ctx)) !== undefined) return resume(out, route, ctx, ARGUMENTS);
    if (ctx.response.ended()) return;
  }
  if (from <= ARGUMENTS) {
    // 10. Negotiation, before the method runs (a 406 has no side effects).
    if (route.negotiate !== null) ctx.contentType = negotiated(route, ctx);
    // 11. The arguments.
    if (route.arguments.length > 0 && (out = readArguments(route.arguments, ctx)) !== undefined)
      return resume(out, route, ctx, VALIDATE);
    if (ctx.response.ended()) return;
  }
  // 12. beforeHandler hooks (validation).
  if (from <= VALIDATE && route.beforeHandler !== null) {
    if ((out = route.beforeHandler(ctx)) !== undefined) return resume(out, route, ctx, HANDLE);
    if (ctx.response.ended()) return;
  }
  // 13. The handler: the method (an upgrade has none: the transport upgrades).
  if (from <= HANDLE) {
    if (route.method === null) return;
    const result = ctx.trace === null ? invoke(route, ctx.args) : tracedInvoke(route, ctx);
    if (isThenable(result)) {
      return Promise.resolve(result).then((value) => {
        ctx.result = value;
        return ctx.response.ended() ? undefined : runStages(route, ctx, WRITE);
      });
    }
    ctx.result = result;
    if (ctx.response.ended()) return;
  }
  // 14. The result, written.
  return route.write!(ctx);
}

function resume(waited: Promise<void>, route: CompiledRoute, ctx: Exchange, next: number): Promise<void> {
  return waited.then(() => (ctx.response.ended() ? undefined : runStages(route, ctx, next)));
}

/** The media type answered: the first of the route's `@Produces` the client accepts (an empty Accept takes any). */
function negotiated(route: CompiledRoute, ctx: Exchange): string {
  const chosen = route.negotiate!(ctx.request.headerOrEmpty('accept'));
  if (chosen === undefined) {
    throw errors.RU_ERR_NOT_ACCEPTABLE(
      `None of the acceptable media types is produced by ${route.routeText}; it produces ${route.produces!.join(', ')}`,
    );
  }
  return chosen;
}

/**
 * Reads the method's arguments: each resolver in order, synchronously while they are synchronous. A null resolver
 * leaves its place empty (the WebSocket connection, given later). The first failing argument in order decides the
 * error, also when an earlier one is still waiting.
 */
function readArguments(resolvers: ReadonlyArray<ValueResolver | null>, ctx: Exchange): void | Promise<void> {
  const argc = resolvers.length;
  const args = new Array(argc);
  let pending = false;
  for (let i = 0; i < argc; i++) {
    const resolve = resolvers[i];
    let v: unknown;
    try {
      v = resolve === null ? null : resolve!(ctx);
    } catch (error) {
      // An earlier argument may still be waiting (an async provider): settle it first, so its rejection is never
      // left unhandled and the first failing argument, in order, decides.
      if (!pending) throw error;
      args.length = i;
      return settleInOrder(args).then(() => {
        throw error;
      });
    }
    if (isThenable(v)) pending = true;
    args[i] = v;
  }
  ctx.args = args;
  if (pending) return settleInOrder(args).then((resolved) => void (ctx.args = resolved));
}

/** Waits for every argument; rejects with the first failure in argument order (not in time order). */
function settleInOrder(values: unknown[]): Promise<unknown[]> {
  return Promise.allSettled(values).then((results) => {
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    return results.map((r) => (r as PromiseFulfilledResult<unknown>).value);
  });
}

/** 13, traced: the method inside the handler channel's `start.runStores`; its promise's settling is published. */
function tracedInvoke(route: CompiledRoute, ctx: Exchange): unknown {
  if (!subscribed(handlerChannel)) return invoke(route, ctx.args);
  const trace: HandlerTrace = { ctx, route: route.definition, args: ctx.args ?? [] };
  return handlerChannel.start.runStores(trace, () => {
    let result: unknown;
    try {
      result = invoke(route, ctx.args);
    } catch (error) {
      trace.error = error;
      handlerChannel.error.publish(trace);
      throw error;
    } finally {
      handlerChannel.end.publish(trace);
    }
    if (!isThenable(result)) {
      trace.result = result;
      return result;
    }
    return Promise.resolve(result).then(
      (value) => {
        trace.result = value;
        handlerChannel.asyncStart.publish(trace);
        handlerChannel.asyncEnd.publish(trace);
        return value;
      },
      (error: unknown) => {
        trace.error = error;
        handlerChannel.error.publish(trace);
        handlerChannel.asyncStart.publish(trace);
        handlerChannel.asyncEnd.publish(trace);
        throw error;
      },
    );
  });
}

function invoke(route: CompiledRoute, args: unknown[] | null): unknown {
  const method = route.method!;
  const instance = route.instance;
  const argc = route.arguments.length;
  if (argc === 0) return method.call(instance);
  if (argc === 1) return method.call(instance, args![0]);
  return method.apply(instance, args!);
}

/** 15. The route's onResponse hooks, after an answer: given the method's entity. */
function responded(route: CompiledRoute, ctx: Exchange): void | Promise<void> {
  if (route.onResponse === null) return;
  const result = ctx.result;
  return route.onResponse(ctx, result instanceof Response ? result.entity : result, undefined);
}

/** Errors: the exception handlers answer (the route's first), then the route's onResponse hooks hear of it. */
export function failRoute(route: CompiledRoute, ctx: Exchange, error: unknown): void | Promise<void> {
  if (ctx.trace !== null) publishError(ctx.trace, error);
  const handled = handleError(ctx, normalizeError(error), route.handlers, route.errors.errors);
  const onResponse = route.onResponse;
  if (onResponse === null) return handled;
  if (isThenable(handled)) return handled.then(() => onResponse(ctx, undefined, error));
  return onResponse(ctx, undefined, error);
}

/** An error on its way to the exception handlers, told to the request's (or upgrade's) channel. */
export function publishError(trace: RequestTrace, error: unknown): void {
  trace.error = error;
  (trace.route === undefined ? requestChannel : upgradeChannel).error.publish(trace);
}

/**
 * A WebSocket upgrade (`upgrade`: the endpoint's compiled stages), its path matched by the transport (`pathError`:
 * a path that cannot be decoded). `open` upgrades with `open`'s arguments, unless a stage answered.
 */
export function handleUpgrade<Res, Req, A extends LifecycleApp>(
  app: A,
  io: Transport<Res, Req, A>,
  res: Res,
  req: Req,
  ctx: Exchange,
  upgrade: CompiledRoute,
  pathError: unknown,
  open: (args: unknown[]) => void,
): void {
  if (tracingActive()) {
    const url = ctx.request.path();
    traced(upgradeChannel, ctx, 'GET', url, upgrade.definition, () =>
      runUpgrade(app, io, res, req, ctx, upgrade, pathError, open),
    );
    return;
  }
  runUpgrade(app, io, res, req, ctx, upgrade, pathError, open);
}

function runUpgrade<Res, Req, A extends LifecycleApp>(
  app: A,
  io: Transport<Res, Req, A>,
  res: Res,
  req: Req,
  ctx: Exchange,
  upgrade: CompiledRoute,
  pathError: unknown,
  open: (args: unknown[]) => void,
): void {
  // 6. The endpoint's send hooks: a refusal is an answer like a route's (a 101 has no body, and none run).
  ctx.enter(upgrade.definition, upgrade.send);
  // 1. Frame check.
  const { error } = io.framing(req, ctx.request, 'GET');
  if (error !== undefined) {
    io.refuseLater(res, ctx.response, () => failRoute(upgrade, ctx, error));
    return;
  }
  // 2. The app's request hooks.
  if (answeredByRequestHooks(app, io, res, ctx)) return;
  let pending: void | Promise<void>;
  if (pathError !== undefined) pending = failRoute(upgrade, ctx, pathError);
  else {
    const upgraded = () => open(ctx.args ?? []);
    try {
      // 7 to 12; then the upgrade.
      const out = runStages(upgrade, ctx, ON_MATCH);
      pending = out === undefined ? upgraded() : out.then(upgraded, (err) => failRoute(upgrade, ctx, err));
    } catch (err) {
      pending = failRoute(upgrade, ctx, err);
    }
  }
  io.leave(res, ctx, pending !== undefined);
}
