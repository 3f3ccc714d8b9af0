import { classMetadata, compilePathPattern, errors } from '../../plugin';
import { checkWebSocketOptions, type WebSocketOptions } from './websocket-options';

/** Metadata key of `@WebSocket` (a class extension). */
export const WEBSOCKET_ENDPOINT = Symbol('rest.uws:websocket-endpoint');

/** What `@WebSocket` records on its class. */
export interface WebSocketEndpointMetadata {
  /** The endpoint's path pattern. */
  path: string;
  /** The endpoint's limits and settings. */
  options: WebSocketOptions;
}

/**
 * Makes a class a WebSocket endpoint at `path` (same path syntax as `@Path`: `/chat/{room}`).
 * Register it like a REST class (`RestBuilder.register`, `RestRouter.register`). Its methods, all
 * optional, are called by name:
 *
 * - `open(connection, ...arguments)`: arguments with `@QueryParam`, `@PathParam`, `@HeaderParam`,
 *   `@CookieParam`, `@Context`... are resolved during the HTTP upgrade, after authentication; a
 *   missing or invalid one answers the upgrade with an HTTP error and no socket is opened. The one
 *   parameter without a decorator receives the `WebSocketConnection`.
 * - `message(connection, data, isBinary)`: `data` is a string for text frames, a Buffer for binary ones.
 * - `drain(connection)`: the send buffer went down after backpressure; send more.
 * - `close(connection, code, reason)`: the connection is gone (no more sends).
 *
 * An error thrown (or rejected) by `open`, `message` or `drain` is logged and closes the socket
 * with 1011; a `WebSocketCloseException` closes it with its own code instead.
 *
 * ```ts
 * @WebSocket('/chat/{room}', { maxPayloadLength: 64 * 1024, idleTimeout: 60 })
 * class ChatEndpoint {
 *   open(connection: WebSocketConnection, @PathParam('room') room: string) { connection.subscribe(room); }
 *   message(connection: WebSocketConnection, data: string | Buffer) { connection.publish(connection.data.room as string, data); }
 * }
 * ```
 */
export function WebSocket(path: string, options: WebSocketOptions = {}): ClassDecorator {
  if (typeof path !== 'string')
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @WebSocket takes a path string, e.g. @WebSocket("/chat/{room}")');
  // Checked now, where the mistake is written, not later at registration.
  const where = `@WebSocket(${JSON.stringify(path)})`;
  compilePathPattern(path, where);
  checkWebSocketOptions(options, where);
  return (target) => {
    classMetadata(target).extensions.set(WEBSOCKET_ENDPOINT, {
      path,
      options: { ...options },
    } satisfies WebSocketEndpointMetadata);
  };
}
