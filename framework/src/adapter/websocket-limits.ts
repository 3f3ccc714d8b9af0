import type { CompressOptions, WebSocketBehavior } from 'uWebSockets.js';
import type { WebSocketOptions } from '../pipeline/websocket-route';
import type { UwsModule } from './load-uws';

type UwsLimits = Pick<
  WebSocketBehavior<unknown>,
  | 'maxPayloadLength'
  | 'idleTimeout'
  | 'compression'
  | 'maxBackpressure'
  | 'closeOnBackpressureLimit'
  | 'maxLifetime'
  | 'sendPingsAutomatically'
>;

/** The uWebSockets.js behaviour fields for the options (only those set). */
export function uwsLimits(options: WebSocketOptions, uws: UwsModule): UwsLimits {
  const out: UwsLimits = {};
  if (options.maxPayloadLength !== undefined) out.maxPayloadLength = options.maxPayloadLength;
  if (options.idleTimeout !== undefined) out.idleTimeout = options.idleTimeout;
  if (options.maxBackpressure !== undefined) out.maxBackpressure = options.maxBackpressure;
  // v20.30's typings say number, v20.57's boolean; both native sides read a boolean.
  if (options.closeOnBackpressureLimit !== undefined)
    Object.assign(out, { closeOnBackpressureLimit: options.closeOnBackpressureLimit });
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
