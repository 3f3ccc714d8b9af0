import type { ClassMetadata, Constructor } from '../metadata/types';
import type { PathPattern } from '../routing/path-pattern';

/**
 * Per-endpoint settings of a WebSocket endpoint. Unset values keep uWebSockets.js's defaults
 * (shown in brackets).
 */
export interface WebSocketOptions {
  /** Largest message accepted, in bytes [16 KiB]; uWebSockets.js drops a connection that sends a larger one without a close frame (the client sees 1006, the `close` handler gets 1006 "Received too big message"). */
  maxPayloadLength?: number;
  /** Seconds without any message before the connection is closed; 0 disables; otherwise at least 8 [120]. */
  idleTimeout?: number;
  /**
   * permessage-deflate: `false` [default], `true` or `'shared'` (shared compressor and decompressor,
   * no memory per socket), `'dedicated'` (32 KiB sliding windows per socket each way: better ratio, more memory),
   * or a number combining uWebSockets.js's `*_COMPRESSOR`/`*_DECOMPRESSOR` constants.
   */
  compression?: boolean | 'shared' | 'dedicated' | number;
  /** Bytes a socket may have buffered for sending before messages are dropped [64 KiB]. */
  maxBackpressure?: number;
  /** Close the socket (instead of dropping the message) when a send passes `maxBackpressure` [false]. */
  closeOnBackpressureLimit?: boolean;
  /** Minutes after which a connection is closed whatever happens; 0 disables, at most 239 [0]. */
  maxLifetime?: number;
  /** Send pings so that `idleTimeout` does not close a quiet but healthy connection [true]. */
  sendPingsAutomatically?: boolean;
  /**
   * Subprotocols this endpoint speaks, preferred first. The first one the client offers (in the
   * client's order) is selected; a client offering protocols of which none is spoken gets 400.
   */
  protocols?: readonly string[];
}

/** A WebSocket handler method bound to its endpoint instance. */
export type WebSocketHandler = (...args: unknown[]) => unknown;

/** The names of the handler methods a WebSocket endpoint may have. */
export type WebSocketHandlerName = 'open' | 'message' | 'drain' | 'close' | 'ping' | 'pong';

/**
 * A WebSocket endpoint as a plugin declares it (transport-neutral). The app compiles its upgrade from
 * the same stages as an HTTP route; the adapter gives it a uWebSockets.js route.
 */
export interface WebSocketRoute {
  /** Where it was declared, for messages (`@WebSocket('/chat') ChatEndpoint`). */
  readonly where: string;
  /** The endpoint class, its instance and its decorators' metadata (the upgrade's arguments come from `open`). */
  readonly endpointClass: Constructor;
  /** The endpoint instance its handlers are bound to. */
  readonly instance: object;
  /** @internal the class's decorators' records (the upgrade's arguments come from `open`) */
  readonly classMeta: ClassMetadata;
  /** The endpoint's path pattern. */
  readonly pattern: PathPattern;
  /** uWebSockets.js route pattern that catches the path (`/chat/:room`); the pattern's regex decides. */
  readonly uwsPattern: string;
  /** The endpoint's handler methods, bound to its instance. */
  readonly handlers: Readonly<Partial<Record<WebSocketHandlerName, WebSocketHandler>>>;
  /** The endpoint's limits and subprotocols. */
  readonly options: WebSocketOptions;
}
