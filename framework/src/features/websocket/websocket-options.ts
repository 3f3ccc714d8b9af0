import type { CompressOptions, WebSocketBehavior } from 'uWebSockets.js';
import { RegistrationError } from '../../errors/http-errors';
import type { UwsModule } from '../../adapter/load-uws';

/**
 * Per-endpoint settings of a `@WebSocket` class. Unset values keep uWebSockets.js's defaults
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

type UwsLimits = Pick<WebSocketBehavior<unknown>, 'maxPayloadLength' | 'idleTimeout' | 'compression' | 'maxBackpressure' | 'closeOnBackpressureLimit' | 'maxLifetime' | 'sendPingsAutomatically'>;

const KNOWN = new Set(['maxPayloadLength', 'idleTimeout', 'compression', 'maxBackpressure', 'closeOnBackpressureLimit', 'maxLifetime', 'sendPingsAutomatically', 'protocols']);

/**
 * Checks the options where they are declared: uWebSockets.js aborts the whole process on some bad
 * values (an idleTimeout between 1 and 7), so nothing unchecked may reach it.
 */
export function checkWebSocketOptions(options: WebSocketOptions, where: string): void {
  const fail = (why: string): never => {
    throw new RegistrationError(`${where}: ${why}`, 'RU_ERR_WEBSOCKET_OPTIONS');
  };
  if (options === null || typeof options !== 'object') fail('options must be an object');
  for (const key of Object.keys(options)) if (!KNOWN.has(key)) fail(`unknown option ${JSON.stringify(key)} (known: ${[...KNOWN].join(', ')})`);
  const wholeNumber = (name: keyof WebSocketOptions, min: number, max = 2 ** 31 - 1) => {
    const v = options[name];
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(`${name} must be a whole number from ${min} to ${max}, got ${String(v)}`);
  };
  wholeNumber('maxPayloadLength', 1);
  wholeNumber('maxBackpressure', 1);
  wholeNumber('idleTimeout', 0, 65535);
  if (options.idleTimeout !== undefined && options.idleTimeout > 0 && options.idleTimeout < 8) fail(`idleTimeout must be 0 (off) or at least 8 seconds, got ${options.idleTimeout}`);
  wholeNumber('maxLifetime', 0, 239);
  for (const flag of ['closeOnBackpressureLimit', 'sendPingsAutomatically'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') fail(`${flag} must be true or false`);
  }
  const c = options.compression;
  if (c !== undefined && typeof c !== 'boolean' && c !== 'shared' && c !== 'dedicated' && !(typeof c === 'number' && Number.isInteger(c) && c >= 0)) {
    fail(`compression must be true, false, 'shared', 'dedicated' or a uWebSockets.js compression constant, got ${JSON.stringify(c)}`);
  }
  if (options.protocols !== undefined) {
    if (!Array.isArray(options.protocols) || options.protocols.length === 0) fail('protocols must be a non-empty list of subprotocol names');
    for (const p of options.protocols) if (typeof p !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(p)) fail(`invalid subprotocol name ${JSON.stringify(p)}`);
  }
}

/** The uWebSockets.js behaviour fields for the options (only those set). */
export function uwsLimits(options: WebSocketOptions, uws: UwsModule): UwsLimits {
  const out: UwsLimits = {};
  if (options.maxPayloadLength !== undefined) out.maxPayloadLength = options.maxPayloadLength;
  if (options.idleTimeout !== undefined) out.idleTimeout = options.idleTimeout;
  if (options.maxBackpressure !== undefined) out.maxBackpressure = options.maxBackpressure;
  // v20.30's typings say number, v20.57's boolean; both native sides read a boolean.
  if (options.closeOnBackpressureLimit !== undefined) Object.assign(out, { closeOnBackpressureLimit: options.closeOnBackpressureLimit });
  if (options.maxLifetime !== undefined) out.maxLifetime = options.maxLifetime;
  if (options.sendPingsAutomatically !== undefined) out.sendPingsAutomatically = options.sendPingsAutomatically;
  if (options.compression !== undefined) out.compression = compressionFlags(options.compression, uws);
  return out;
}

function compressionFlags(c: NonNullable<WebSocketOptions['compression']>, uws: UwsModule): CompressOptions {
  if (typeof c === 'number') return c;
  if (c === false) return uws.DISABLED;
  if (c === 'dedicated') return uws.DEDICATED_COMPRESSOR_32KB | uws.DEDICATED_DECOMPRESSOR;
  return uws.SHARED_COMPRESSOR | uws.SHARED_DECOMPRESSOR;
}

/** The subprotocol to answer with: the client's first offer the endpoint speaks; '' when the client offered none. */
export function chooseProtocol(offered: string, spoken: readonly string[] | undefined): string | undefined {
  if (offered.trim() === '') return '';
  if (spoken === undefined) return '';
  for (const p of offered.split(',')) {
    const name = p.trim();
    if (spoken.includes(name)) return name;
  }
  return undefined;
}
