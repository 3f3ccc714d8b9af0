import {
  compilePathPattern,
  errors,
  type RestPlugin,
  type WebSocketHandler,
  type WebSocketHandlerName,
} from '../../plugin';
import { uwsPatternFor } from './uws-pattern';
import { WEBSOCKET_ENDPOINT, type WebSocketEndpointMetadata } from './websocket-decorator';

const HANDLER_NAMES: readonly WebSocketHandlerName[] = ['open', 'message', 'drain', 'close', 'ping', 'pong'];

/**
 * WebSocket endpoints (`@WebSocket` classes, registered like REST classes): each becomes a WebSocket
 * route of the app, whose upgrade runs the same stages as an HTTP route (providers, security, arguments,
 * validation, exception handlers).
 */
export const webSocketPlugin: RestPlugin = {
  name: 'websocket',
  setup(app) {
    app.classHandler((scope) => {
      const meta = scope.metadata.extensions.get(WEBSOCKET_ENDPOINT) as WebSocketEndpointMetadata | undefined;
      if (meta === undefined) return false;
      const where = `@WebSocket('${meta.path}') ${scope.resourceClass.name}`;
      const handlers: Partial<Record<WebSocketHandlerName, WebSocketHandler>> = {};
      for (const name of HANDLER_NAMES) {
        const fn = (scope.instance as Record<string, unknown>)[name];
        if (typeof fn === 'function') handlers[name] = fn.bind(scope.instance) as WebSocketHandler;
      }
      if (handlers.open === undefined && handlers.message === undefined) {
        throw errors.RU_ERR_WEBSOCKET_HANDLERS(`${where}: an endpoint needs an open or a message method`);
      }
      const pattern = compilePathPattern(meta.path, where);
      app.webSocket({
        where,
        endpointClass: scope.resourceClass,
        instance: scope.instance,
        classMeta: scope.metadata,
        pattern,
        uwsPattern: uwsPatternFor(pattern),
        handlers,
        options: meta.options,
      });
      return true;
    });
  },
};
