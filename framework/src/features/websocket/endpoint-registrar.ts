import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse, TemplatedApp, us_socket_context_t, WebSocket as UwsWebSocket, WebSocketBehavior } from 'uWebSockets.js';
import { isThenable } from '../../pipeline/context-values';
import { RoutingContext } from '../../context/routing-context';
import type { User } from '../../context/user';
import { handleError } from '../../pipeline/exception-handling';
import { BadRequestException, RegistrationError } from '../../errors/http-errors';
import { HttpServerRequest } from '../../http/request';
import { HttpServerResponse } from '../../http/response';
import { registryGeneration } from '../../io/generation';
import type { Logger } from '../../util/log';
import type { ClassMetadata, Constructor } from '../../metadata/types';
import { compilePathPattern } from '../../routing/path-pattern';
import { pathSegments } from '../../routing/path-segments';
import { registerClassRegistrar, type AppRuntime } from '../../app/app-runtime';
import { loadUws } from '../../adapter/load-uws';
import { judgeFraming, refuseLater } from '../../adapter/request-framing';
import { trackConnection, untrackConnection } from './open-connections';
import { compileUpgrade, type UpgradePipeline } from './upgrade-pipeline';
import { uwsPatternFor } from './uws-pattern';
import { WEBSOCKET_ENDPOINT, type WebSocketEndpointMetadata } from './websocket-decorator';
import { WebSocketCloseException, WebSocketConnection } from './websocket-connection';
import { chooseProtocol, uwsLimits } from './websocket-options';

/** What travels from a successful upgrade to `open`, as the socket's user data. */
interface UpgradeData {
  request: HttpServerRequest;
  user: User | undefined;
  protocol: string;
  args: unknown[] | null;
  connection: WebSocketConnection | null;
}

type Handler = (...args: unknown[]) => unknown;

const HANDLER_NAMES = ['open', 'message', 'drain', 'close', 'ping', 'pong'] as const;

/** uWebSockets.js patterns taken on each app, so two endpoints cannot silently shadow each other. */
const patternsByApp = new WeakMap<object, Map<string, string>>();

registerClassRegistrar({
  name: 'websocket',
  register(rt, endpointClass, instance, classMeta) {
    const meta = classMeta.extensions.get(WEBSOCKET_ENDPOINT) as WebSocketEndpointMetadata | undefined;
    if (meta === undefined) return false;
    registerEndpoint(rt, endpointClass, instance, classMeta, meta);
    return true;
  },
});

function registerEndpoint(rt: AppRuntime, endpointClass: Constructor, instance: object, classMeta: ClassMetadata, meta: WebSocketEndpointMetadata): void {
  const where = `@WebSocket('${meta.path}') ${endpointClass.name}`;
  const app = rt.app as TemplatedApp;
  if (typeof app?.ws !== 'function') throw new RegistrationError(`${where}: the app is not a uWebSockets.js app; WebSocket endpoints need one`, 'RU_ERR_WEBSOCKET_APP');
  const handlers: Partial<Record<(typeof HANDLER_NAMES)[number], Handler>> = {};
  for (const name of HANDLER_NAMES) {
    const fn = (instance as Record<string, unknown>)[name];
    if (typeof fn === 'function') handlers[name] = fn.bind(instance) as Handler;
  }
  if (handlers.open === undefined && handlers.message === undefined) {
    throw new RegistrationError(`${where}: an endpoint needs an open or a message method`, 'RU_ERR_WEBSOCKET_HANDLERS');
  }
  const pattern = compilePathPattern(meta.path, where);
  const uwsPattern = uwsPatternFor(pattern);
  let taken = patternsByApp.get(app);
  if (taken === undefined) patternsByApp.set(app, (taken = new Map()));
  const routeKey = uwsPattern.replace(/:[^/]+/g, ':'); // variable names do not tell routes apart
  const other = taken.get(routeKey);
  if (other !== undefined) {
    throw new RegistrationError(`${where}: its path takes the same uWebSockets.js route (${uwsPattern}) as ${other}; give one of them a distinct static prefix`, 'RU_ERR_WEBSOCKET_CONFLICT');
  }

  const compile = () => compileUpgrade({ endpointClass, instance, classMeta, pattern, settings: rt.settings, components: rt.components });
  let pipeline: UpgradePipeline = compile();
  let generation = registryGeneration.value;
  const logger = (): Logger => rt.logger;

  const failed = (connection: WebSocketConnection, event: string, error: unknown): void => {
    if (error instanceof WebSocketCloseException) {
      connection.close(error.code, error.reason);
      return;
    }
    logger().error({ err: error, endpoint: meta.path, event }, `WebSocket ${event} handler failed${event === 'close' ? '' : '; closing with 1011'}`);
    if (event !== 'close') connection.close(1011, 'Internal error');
  };
  const call = (connection: WebSocketConnection, event: string, run: () => unknown): void => {
    try {
      const out = run();
      if (isThenable(out)) Promise.resolve(out).catch((err) => failed(connection, event, err));
    } catch (err) {
      failed(connection, event, err);
    }
  };
  const connectionOf = (ws: UwsWebSocket<unknown>): WebSocketConnection => (ws.getUserData() as UpgradeData).connection!;

  const behavior: WebSocketBehavior<UpgradeData> = {
    ...uwsLimits(meta.options, loadUws()),
    upgrade: (res, req, context) => {
      if (generation !== registryGeneration.value) {
        generation = registryGeneration.value;
        pipeline = compile();
      }
      upgrade(rt, pipeline, meta, pattern.regex, pattern.paramNames, res, req, context);
    },
    open: (ws) => {
      const data = ws.getUserData();
      const connection = new WebSocketConnection(ws as UwsWebSocket<unknown>, data.request, data.user, data.protocol);
      data.connection = connection;
      trackConnection(app, connection);
      const args = data.args ?? [];
      data.args = null;
      if (pipeline.connectionIndex >= 0) args[pipeline.connectionIndex] = connection;
      if (handlers.open) call(connection, 'open', () => handlers.open!(...args));
    },
    message: (ws, message, isBinary) => {
      const connection = connectionOf(ws as UwsWebSocket<unknown>);
      if (handlers.message === undefined || !connection.isOpen()) return;
      // The ArrayBuffer dies when this callback returns: text is decoded now, bytes are copied.
      const data = isBinary ? Buffer.from(message.slice(0)) : Buffer.from(message).toString('utf8');
      call(connection, 'message', () => handlers.message!(connection, data, isBinary));
    },
    drain: (ws) => {
      const connection = connectionOf(ws as UwsWebSocket<unknown>);
      if (handlers.drain && connection.isOpen()) call(connection, 'drain', () => handlers.drain!(connection));
    },
    close: (ws, code, message) => {
      const connection = (ws.getUserData() as UpgradeData).connection;
      if (connection === null) return;
      connection._closed(code);
      untrackConnection(app, connection);
      const reason = Buffer.from(message).toString('utf8');
      if (handlers.close) call(connection, 'close', () => handlers.close!(connection, code, reason));
    },
  };
  if (handlers.ping) behavior.ping = (ws, message) => { const c = connectionOf(ws as UwsWebSocket<unknown>); call(c, 'ping', () => handlers.ping!(c, Buffer.from(message.slice(0)))); };
  if (handlers.pong) behavior.pong = (ws, message) => { const c = connectionOf(ws as UwsWebSocket<unknown>); call(c, 'pong', () => handlers.pong!(c, Buffer.from(message.slice(0)))); };
  app.ws(uwsPattern, behavior);
  taken.set(routeKey, endpointClass.name);
}

/**
 * One upgrade request: the path is matched exactly, then the pipeline runs (authentication,
 * arguments, validation); success upgrades, failure answers with the exception handlers' HTTP
 * response. Like the HTTP adapter, it reads the request synchronously and attaches onAborted
 * before returning when it has to wait.
 */
function upgrade(rt: AppRuntime, pipeline: UpgradePipeline, meta: WebSocketEndpointMetadata, regex: RegExp, paramNames: readonly string[], res: UwsResponse, req: UwsRequest, context: us_socket_context_t): void {
  const url = req.getUrl();
  let values: string[] | undefined;
  let pathError: unknown;
  try {
    values = regex.exec('/' + pathSegments(url).join('/'))?.slice(1);
  } catch (err) {
    pathError = err;
  }
  if (values === undefined && pathError === undefined) {
    req.setYield(true); // not this endpoint's path after all: the HTTP routes answer
    return;
  }
  const length = req.getHeader('content-length');
  const encoding = req.getHeader('transfer-encoding');
  const key = req.getHeader('sec-websocket-key');
  const offered = req.getHeader('sec-websocket-protocol');
  const extensions = req.getHeader('sec-websocket-extensions');
  const q = req.getQuery();
  const request = new HttpServerRequest(req, res, 'GET', url, q === undefined ? '' : q);
  const response = new HttpServerResponse(res, false);
  response._defaults = rt.defaultHeaders;
  request._response = response;
  const ctx = new RoutingContext(request, response);
  ctx._app = rt.app;
  ctx._route = pipeline.definition;
  request._paramNames = paramNames;
  request._paramValues = values ?? [];

  let live = true;
  const fail = (error: unknown): void | Promise<void> => handleError(ctx, error instanceof Error || (error !== null && typeof error === 'object') ? error : new Error(String(error)), pipeline.routeHandlers, pipeline.globalHandlers, rt.logger);
  // An upgrade whose framing is ambiguous is refused like any request (docs/security.md, Request framing).
  const framingError = length !== '' || encoding !== '' ? judgeFraming(request) : undefined;
  if (framingError !== undefined) {
    refuseLater(res, response, () => fail(framingError));
    return;
  }
  const complete = (): void => {
    if (response.aborted() || response.ended()) return;
    const protocol = chooseProtocol(offered, meta.options.protocols);
    if (protocol === undefined) {
      void fail(new BadRequestException(`None of the offered subprotocols (${offered}) is spoken here; this endpoint speaks ${meta.options.protocols!.join(', ')}`, { code: 'RU_ERR_WEBSOCKET_PROTOCOL' }));
      return;
    }
    // The connection keeps the request: read the address while the upgrade request still has it.
    request.remoteAddress();
    request.detach();
    request._res = null;
    const data: UpgradeData = { request, user: ctx.user(), protocol, args: ctx._args ?? [], connection: null };
    const headers = response.headers();
    if (headers.length > 0) {
      // Headers set by a stage (cookies...) go with the 101, which must then be written first.
      const writeHeaders = () => {
        res.writeStatus('101 Switching Protocols');
        for (const [k, v] of headers) res.writeHeader(k, v);
      };
      if (live) writeHeaders(); // inside the upgrade handler, corked by uWebSockets.js
      else res.cork(writeHeaders);
    }
    // After an await the upgrade itself is made uncorked, on purpose: in uWebSockets.js 20.30,
    // HttpResponse.cork() runs its HTTP clean-up after the callback on memory that has become the
    // WebSocket, and now and then closes it (1006) right after open (uWebSockets#1928; fixed upstream by
    // #1929, in builds that need a newer glibc). The price: one "writes must be made from within a corked
    // callback" line on stderr per asynchronous upgrade. Headers alone are safe to cork.
    res.upgrade(data, key, protocol, extensions, context);
  };

  let pending: void | Promise<void>;
  if (pathError !== undefined) pending = fail(pathError);
  else {
    try {
      const out = pipeline.run(ctx);
      pending = out === undefined ? complete() : out.then(complete, fail);
    } catch (err) {
      pending = fail(err);
    }
  }
  live = false;
  response._live = false;
  if (pending !== undefined && !response.ended()) {
    request.detach();
    res.onAborted(() => response._abort());
  }
}
