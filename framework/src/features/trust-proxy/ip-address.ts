import { isIP, SocketAddress } from 'node:net';

/**
 * An IP address from a forwarding header, in the form `remoteAddress()` gives: IPv4 as it is, IPv4-mapped IPv6 as
 * plain IPv4 (as the peer's address is shown), other IPv6 in canonical form (`2001:db8::1`). Undefined for
 * anything else: `unknown`, an obfuscated identifier (`_hidden`), a zone id, garbage.
 */
export function canonicalAddress(text: string): string | undefined {
  const family = text.length <= 45 ? isIP(text) : 0;
  if (family === 4) return text;
  if (family !== 6 || text.includes('%')) return undefined;
  const canonical = new SocketAddress({ address: text, family: 'ipv6' }).address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(canonical);
  return mapped !== null ? mapped[1] : canonical;
}

/** An address with its port, as proxies may write it: `1.2.3.4:80`, `[2001:db8::1]:443`, `[2001:db8::1]`. */
export function addressWithoutPort(text: string): string {
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return text;
    const rest = text.slice(end + 1);
    return rest === '' || /^:\d{1,5}$/.test(rest) ? text.slice(1, end) : text;
  }
  const colon = text.indexOf(':');
  // One colon: IPv4 with a port; more: a bare IPv6 address.
  if (colon > 0 && colon === text.lastIndexOf(':') && /^\d{1,5}$/.test(text.slice(colon + 1)))
    return text.slice(0, colon);
  return text;
}
