import type { OriginResolver } from '../../plugin';
import { hostOf, listEntries, parseForwarded, parseXForwardedFor, protocolOf, type Hop } from './forwarding-headers';

/** Which headers the trusted proxies set: `X-Forwarded-For/-Proto/-Host` or RFC 7239 `Forwarded`. */
export type ForwardingHeaders = 'x-forwarded' | 'forwarded';

/**
 * Walks from the connection's peer towards the client: while the address at hand is a trusted proxy, the hop it
 * recorded (the last element of the header, then the one before...) names the next address, and its protocol and
 * host. The first address that is no trusted proxy is the client. A hop that cannot be read (no IP address, a
 * syntax error) ends the walk where it is: nothing past it is believed.
 */
export function originResolver(
  trusted: (address: string, hop: number) => boolean,
  headers: ForwardingHeaders,
): OriginResolver {
  return (header, direct) => {
    if (direct.address === '' || !trusted(direct.address, 0)) return direct;
    const hops = headers === 'forwarded' ? forwardedHops(header('forwarded')) : xForwardedHops(header);
    let origin = direct;
    for (let k = hops.length - 1, distance = 0; k >= 0; k--) {
      const hop = hops[k];
      if (hop === undefined || hop.for === undefined) break;
      origin = { address: hop.for, protocol: hop.proto ?? origin.protocol, host: hop.host ?? origin.host };
      distance++;
      if (!trusted(hop.for, distance)) break;
    }
    return origin;
  };
}

function forwardedHops(value: string | undefined): Array<Hop | undefined> {
  return value === undefined || value === '' ? [] : parseForwarded(value);
}

/**
 * `X-Forwarded-For` entries with the protocol and host of `X-Forwarded-Proto`/`-Host`: entry by entry when each
 * proxy appended to those too (as many entries as addresses); otherwise their last entry, which the nearest proxy
 * set, and only for the hop nearest to it (the headers then say nothing about hops further out).
 */
function xForwardedHops(header: (name: string) => string | undefined): Hop[] {
  const value = header('x-forwarded-for');
  if (value === undefined || value === '') return [];
  const addresses = parseXForwardedFor(value);
  const protos = listEntries(header('x-forwarded-proto'));
  const hosts = listEntries(header('x-forwarded-host'));
  const last = addresses.length - 1;
  const at = (list: string[], k: number): string | undefined =>
    list.length === addresses.length ? list[k] : k === last ? list[list.length - 1] : undefined;
  return addresses.map((address, k) => ({
    for: address,
    proto: protocolOf(at(protos, k)),
    host: hostOf(at(hosts, k)),
  }));
}
