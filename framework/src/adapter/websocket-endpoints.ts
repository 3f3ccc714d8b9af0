import { Buffer } from 'node:buffer';
import type {
  HttpRequest as UwsRequest,
  HttpResponse as UwsResponse,
  TemplatedApp,
  us_socket_context_t,
  WebSocket as UwsWebSocket,
  WebSocketBehavior,
} from 'uWebSockets.js';
import type { AppRuntime } from '../app/app-runtime';
import type { User } from '../context/user';
import type { HttpServerRequest } from '../http/request';
import { kSocketClosed, WebSocketCloseException, WebSocketConnection } from '../context/websocket-connection';
import { isThenable } from '../pipeline/context-values';
import { type MessageTrace, messageChannel, subscribed } from '../pipeline/diagnostics';
import type { WebSocketEndpoint } from '../pipeline/compile-upgrade';
import { pathSegments } from '../routing/path-segments';
import { loadUws } from './load-uws';
import { failRoute, handleUpgrade, type Transport } from '../pipeline/lifecycle';
import { openExchange } from './request-setup';
import { trackConnection, untrackConnection } from './open-connections';
import { chooseProtocol, uwsLimits } from './websocket-limits';
import { kParamNames, kParamValues, kReleaseNative, kUpgraded } from '../http/internal';
import { errors } from '../errors/factories';

/** What travels from a successful upgrade to `open`, as the socket's user data. */
interface UpgradeData {
  request: HttpServerRequest;
  user: User | undefined;
  protocol: string;
  args: unknown[] | null;
  connection: WebSocketConnection | null;
}

/** uWebSockets.js patterns taken on each app, so two endpoints cannot silently shadow each other. */
const patternsByApp = new WeakMap<object, Map<string, string>>();

/** What the lifecycle needs of uWebSockets.js (adapter/uws-adapter.ts gives it). */
type UwsTransport = Transport<UwsResponse, UwsRequest, AppRuntime>;

/** Gives a WebSocket endpoint of the runtime its uWebSockets.js route. */
export function addWebSocketRoute(rt: AppRuntime, io: UwsTransport, endpoint: WebSocketEndpoint): void {
  const { route } = endpoint;
  const { where, handlers, uwsPattern } = route;
  const app = rt.app as TemplatedApp;
  if (typeof app?.ws !== 'function')
    throw errors.RU_ERR_WEBSOCKET_APP(`${where}: the app is not a uWebSockets.js app; WebSocket endpoints need one`);
  let taken = patternsByApp.get(app);
  if (taken === undefined) patternsByApp.set(app, (taken = new Map()));
  const routeKey = uwsPattern.replace(/:[^/]+/g, ':'); // variable names do not tell routes apart
  const other = taken.get(routeKey);
  if (other !== undefined) {
    throw errors.RU_ERR_WEBSOCKET_CONFLICT(
      `${where}: its path takes the same uWebSockets.js route (${uwsPattern}) as ${other}; give one of them a distinct static prefix`,
    );
  }

  const failed = (connection: WebSocketConnection, event: string, error: unknown): void => {
    if (error instanceof WebSocketCloseException) {
      connection.close(error.code, error.reason);
      return;
    }
    rt.logger.error(
      { err: error, endpoint: route.pattern.source, event },
      `WebSocket ${event} handler failed${event === 'close' ? '' : '; closing with 1011'}`,
    );
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
  /** `message`, published on the message channel (only while it has a subscriber). */
  const tracedMessage = (connection: WebSocketConnection, data: string | Buffer, isBinary: boolean): void => {
    const trace: MessageTrace = { app, connection, route: endpoint.upgrade.stages.definition, data, isBinary };
    messageChannel.start.runStores(trace, () => {
      let result: unknown;
      try {
        result = handlers.message!(connection, data, isBinary);
      } catch (error) {
        trace.error = error;
        messageChannel.error.publish(trace);
        messageChannel.end.publish(trace);
        failed(connection, 'message', error);
        return;
      }
      if (!isThenable(result)) {
        trace.result = result;
        messageChannel.end.publish(trace);
        return;
      }
      trace.async = true;
      messageChannel.end.publish(trace);
      Promise.resolve(result).then(
        (value) => {
          trace.result = value;
          messageChannel.asyncStart.publish(trace);
          messageChannel.asyncEnd.publish(trace);
        },
        (error: unknown) => {
          trace.error = error;
          messageChannel.error.publish(trace);
          messageChannel.asyncStart.publish(trace);
          messageChannel.asyncEnd.publish(trace);
          failed(connection, 'message', error);
        },
      );
    });
  };
  const connectionOf = (ws: UwsWebSocket<unknown>): WebSocketConnection =>
    (ws.getUserData() as UpgradeData).connection!;

  const behavior: WebSocketBehavior<UpgradeData> = {
    ...uwsLimits(route.options, loadUws()),
    upgrade: (res, req, context) => {
      rt.refreshIfStale();
      upgrade(rt, io, endpoint, res, req, context);
    },
    open: (ws) => {
      const data = ws.getUserData();
      const connection = new WebSocketConnection(ws as UwsWebSocket<unknown>, data.request, data.user, data.protocol);
      data.connection = connection;
      trackConnection(app, connection);
      const args = data.args ?? [];
      data.args = null;
      if (endpoint.upgrade.connectionIndex >= 0) args[endpoint.upgrade.connectionIndex] = connection;
      if (handlers.open) call(connection, 'open', () => handlers.open!(...args));
    },
    message: (ws, message, isBinary) => {
      const connection = connectionOf(ws as UwsWebSocket<unknown>);
      if (handlers.message === undefined || !connection.isOpen()) return;
      // The ArrayBuffer dies when this callback returns: text is decoded now, bytes are copied.
      const data = isBinary ? Buffer.from(message.slice(0)) : Buffer.from(message).toString('utf8');
      if (subscribed(messageChannel)) tracedMessage(connection, data, isBinary);
      else call(connection, 'message', () => handlers.message!(connection, data, isBinary));
    },
    drain: (ws) => {
      const connection = connectionOf(ws as UwsWebSocket<unknown>);
      if (handlers.drain && connection.isOpen()) call(connection, 'drain', () => handlers.drain!(connection));
    },
    close: (ws, code, message) => {
      const connection = (ws.getUserData() as UpgradeData).connection;
      if (connection === null) return;
      connection[kSocketClosed](code);
      untrackConnection(app, connection);
      const reason = Buffer.from(message).toString('utf8');
      if (handlers.close) call(connection, 'close', () => handlers.close!(connection, code, reason));
    },
  };
  if (handlers.ping)
    behavior.ping = (ws, message) => {
      const c = connectionOf(ws as UwsWebSocket<unknown>);
      call(c, 'ping', () => handlers.ping!(c, Buffer.from(message.slice(0))));
    };
  if (handlers.pong)
    behavior.pong = (ws, message) => {
      const c = connectionOf(ws as UwsWebSocket<unknown>);
      call(c, 'pong', () => handlers.pong!(c, Buffer.from(message.slice(0))));
    };
  app.ws(uwsPattern, behavior);
  taken.set(routeKey, route.endpointClass.name);
}

/**
 * One upgrade request: the path is matched exactly (else the HTTP routes answer), then the lifecycle runs the
 * endpoint's compiled upgrade (pipeline/lifecycle.ts, `handleUpgrade`): success upgrades here, a failure is answered
 * with the exception handlers' HTTP response. Like the HTTP adapter, it reads the request synchronously and attaches
 * onAborted before returning when it has to wait.
 */
function upgrade(
  rt: AppRuntime,
  io: UwsTransport,
  endpoint: WebSocketEndpoint,
  res: UwsResponse,
  req: UwsRequest,
  context: us_socket_context_t,
): void {
  const { route } = endpoint;
  const url = req.getUrl();
  let values: string[] | undefined;
  let pathError: unknown;
  try {
    values = route.pattern.regex.exec('/' + pathSegments(url).join('/'))?.slice(1);
  } catch (err) {
    pathError = err;
  }
  if (values === undefined && pathError === undefined) {
    req.setYield(true); // not this endpoint's path after all: the HTTP routes answer
    return;
  }
  const key = req.getHeader('sec-websocket-key');
  const offered = req.getHeader('sec-websocket-protocol');
  const extensions = req.getHeader('sec-websocket-extensions');
  const q = req.getQuery();
  const ctx = openExchange(rt, res, req, 'GET', url, q === undefined ? '' : q);
  const { request, response } = ctx;
  request[kParamNames] = route.pattern.paramNames;
  request[kParamValues] = values ?? [];

  let live = true;
  const stages = endpoint.upgrade.stages;
  const open = (args: unknown[]): void => {
    if (response.aborted() || response.ended()) return;
    const protocol = chooseProtocol(offered, route.options.protocols);
    if (protocol === undefined) {
      void failRoute(
        stages,
        ctx,
        errors.RU_ERR_WEBSOCKET_PROTOCOL(
          `None of the offered subprotocols (${offered}) is spoken here; this endpoint speaks ${route.options.protocols!.join(', ')}`,
        ),
      );
      return;
    }
    // The connection keeps the request: read the address while the upgrade request still has it.
    request.remoteAddress();
    request.detach();
    request[kReleaseNative]();
    const data: UpgradeData = { request, user: ctx.user(), protocol, args, connection: null };
    const headers = response.headers();
    if (headers.length > 0) {
      // Headers set by a stage (cookies...) go with the 101, which must then be written first.
      const writeHeaders = () => {
        res.writeStatus('101 Switching Protocols');
        for (const [k, v] of headers) res.writeHeader(k, v);
      };
      if (live)
        writeHeaders(); // inside the upgrade handler, corked by uWebSockets.js
      else res.cork(writeHeaders);
    }
    // After an await the upgrade itself is made uncorked, on purpose: in uWebSockets.js 20.30,
    // HttpResponse.cork() runs its HTTP clean-up after the callback on memory that has become the
    // WebSocket, and now and then closes it (1006) right after open (uWebSockets#1928; fixed upstream by
    // #1929, in builds that need a newer glibc). The price: one "writes must be made from within a corked
    // callback" line on stderr per asynchronous upgrade. Headers alone are safe to cork.
    res.upgrade(data, key, protocol, extensions, context);
    // The answer was the 101: the app's response hooks hear of it (status 101) as of any other answer.
    response[kUpgraded]();
  };
  handleUpgrade(rt, io, res, req, ctx, stages, pathError, open);
  live = false;
}
