/** Host[:port] as a browser would send it; anything else is ignored so a forged Host cannot shape our links. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Base of the absolute links in an answer (pagination): the configured public URL when set, otherwise the host and
 * protocol the client asked for (rest.uws `request.host()` and `protocol()`: the Host header and http, or what a
 * trusted proxy forwarded in X-Forwarded-Host / X-Forwarded-Proto; a client's own forwarding headers count for
 * nothing unless the app trusts it).
 */
export function requestBaseUrl(
  configured: string | undefined,
  host: string | undefined,
  protocol: string,
  fallback: string,
): string {
  if (configured) return configured.replace(/\/+$/, '');
  if (!host || !HOST.test(host)) return fallback;
  return `${protocol === 'https' ? 'https' : 'http'}://${host}`;
}
