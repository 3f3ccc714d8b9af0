import type { HttpServerRequest } from 'rest.uws';

export const STREAM_PATH = '/v3/voice/realtime/connect';

/**
 * The WebSocket address handed out by the session request: the configured public base (http -> ws,
 * https -> wss), else the request's Host, `wss` behind a proxy that says `X-Forwarded-Proto: https`.
 */
export function streamingUrl(request: HttpServerRequest, publicBaseUrl: string | undefined, fallbackHost: string): string {
  if (publicBaseUrl) return `${publicBaseUrl.replace(/^http/i, 'ws').replace(/\/+$/, '')}${STREAM_PATH}`;
  const host = request.getHeader('x-forwarded-host') ?? request.getHeader('host') ?? fallbackHost;
  const secure = (request.getHeader('x-forwarded-proto') ?? '').split(',')[0].trim().toLowerCase() === 'https';
  return `${secure ? 'wss' : 'ws'}://${host}${STREAM_PATH}`;
}
