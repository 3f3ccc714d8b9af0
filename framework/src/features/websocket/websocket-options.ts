import { errors, type WebSocketOptions } from '../../plugin';

export type { WebSocketOptions };

const KNOWN = new Set([
  'maxPayloadLength',
  'idleTimeout',
  'compression',
  'maxBackpressure',
  'closeOnBackpressureLimit',
  'maxLifetime',
  'sendPingsAutomatically',
  'protocols',
]);

/**
 * Checks the options where they are declared: uWebSockets.js aborts the whole process on some bad
 * values (an idleTimeout between 1 and 7), so nothing unchecked may reach it.
 */
export function checkWebSocketOptions(options: WebSocketOptions, where: string): void {
  const fail = (why: string): never => {
    throw errors.RU_ERR_WEBSOCKET_OPTIONS(`${where}: ${why}`);
  };
  if (options === null || typeof options !== 'object') fail('options must be an object');
  for (const key of Object.keys(options))
    if (!KNOWN.has(key)) fail(`unknown option ${JSON.stringify(key)} (known: ${[...KNOWN].join(', ')})`);
  const wholeNumber = (name: keyof WebSocketOptions, min: number, max = 2 ** 31 - 1) => {
    const v = options[name];
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      fail(`${name} must be a whole number from ${min} to ${max}, got ${String(v)}`);
  };
  wholeNumber('maxPayloadLength', 1);
  wholeNumber('maxBackpressure', 1);
  wholeNumber('idleTimeout', 0, 65535);
  if (options.idleTimeout !== undefined && options.idleTimeout > 0 && options.idleTimeout < 8)
    fail(`idleTimeout must be 0 (off) or at least 8 seconds, got ${options.idleTimeout}`);
  wholeNumber('maxLifetime', 0, 239);
  for (const flag of ['closeOnBackpressureLimit', 'sendPingsAutomatically'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') fail(`${flag} must be true or false`);
  }
  const c = options.compression;
  if (
    c !== undefined &&
    typeof c !== 'boolean' &&
    c !== 'shared' &&
    c !== 'dedicated' &&
    !(typeof c === 'number' && Number.isInteger(c) && c >= 0)
  ) {
    fail(
      `compression must be true, false, 'shared', 'dedicated' or a uWebSockets.js compression constant, got ${JSON.stringify(c)}`,
    );
  }
  if (options.protocols !== undefined) {
    if (!Array.isArray(options.protocols) || options.protocols.length === 0)
      fail('protocols must be a non-empty list of subprotocol names');
    for (const p of options.protocols)
      if (typeof p !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(p))
        fail(`invalid subprotocol name ${JSON.stringify(p)}`);
  }
}
