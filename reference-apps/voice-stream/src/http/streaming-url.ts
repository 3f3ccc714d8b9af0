import type { HttpServerRequest } from 'rest.uws';

export const STREAM_PATH = '/v3/voice/realtime/connect';

/** Host[:port] as a browser would send it; anything else is ignored, so a forged Host cannot shape the URL. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The WebSocket address handed out by the session request: the configured public base (http -> ws, https -> wss),
 * else the host and protocol the client asked for (rest.uws `request.host()` and `protocol()`: the Host header and
 * ws, or what a trusted proxy forwarded in X-Forwarded-Host / X-Forwarded-Proto; a client's own forwarding headers
 * count for nothing unless the app trusts it, see --trust-proxy).
 */
export function streamingUrl(
  request: HttpServerRequest,
  publicBaseUrl: string | undefined,
  fallbackHost: string,
): string {
  if (publicBaseUrl) return `${publicBaseUrl.replace(/^http/i, 'ws').replace(/\/+$/, '')}${STREAM_PATH}`;
  const asked = request.host();
  const host = asked !== undefined && HOST.test(asked) ? asked : fallbackHost;
  return `${request.protocol() === 'https' ? 'wss' : 'ws'}://${host}${STREAM_PATH}`;
}

/** The HTTP base URL of this API as the client reached it (same rules as `streamingUrl`), without a trailing slash. */
export function httpBaseUrl(
  request: HttpServerRequest,
  publicBaseUrl: string | undefined,
  fallbackHost: string,
): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/+$/, '');
  const asked = request.host();
  const host = asked !== undefined && HOST.test(asked) ? asked : fallbackHost;
  return `${request.protocol() === 'https' ? 'https' : 'http'}://${host}`;
}
