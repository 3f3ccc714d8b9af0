/** Host[:port] as a browser would send it; anything else is ignored so a forged Host cannot shape our links. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Base of the absolute links in an answer (pagination): the configured public URL when set,
 * otherwise the request's own Host (X-Forwarded-Proto decides http or https behind a proxy).
 */
export function requestBaseUrl(configured: string | undefined, host: string | undefined, forwardedProto: string | undefined, fallback: string): string {
  if (configured) return configured.replace(/\/+$/, '');
  if (!host || !HOST.test(host)) return fallback;
  const proto = forwardedProto?.split(',')[0].trim().toLowerCase() === 'https' ? 'https' : 'http';
  return `${proto}://${host}`;
}
