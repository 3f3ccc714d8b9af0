import { BlockList, isIP } from 'node:net';
import { errors } from '../../plugin';

/**
 * Which proxies are trusted: a number of hops (the peer and the next `n - 1` proxies), addresses and ranges
 * (`10.0.0.0/8`, `2001:db8::/32`, `203.0.113.7`, or `loopback`, `linklocal`, `uniquelocal`), or a function of
 * an address and its distance in hops (0 is the peer).
 */
export type TrustSetting = number | string | readonly string[] | ((address: string, hop: number) => boolean);

/** The named ranges (Express's names): loopback, link-local and unique-local (private) addresses. */
const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** The trust setting as a function, checked now: a mistake fails at startup, never per request. */
export function trustFunction(setting: TrustSetting): (address: string, hop: number) => boolean {
  if (typeof setting === 'function') return setting;
  if (typeof setting === 'number') {
    if (!Number.isInteger(setting) || setting < 0 || setting > 64)
      throw errors.RU_ERR_TRUST_PROXY_OPTIONS(
        `rest.uws: trustProxy: a hop count is a whole number from 0 to 64, got ${setting}`,
      );
    return (_address, hop) => hop < setting;
  }
  const list =
    typeof setting === 'string'
      ? setting
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : [...setting];
  const ranges = new BlockList();
  for (const entry of list) {
    if (typeof entry !== 'string')
      throw errors.RU_ERR_TRUST_PROXY_OPTIONS(`rest.uws: trustProxy: ${String(entry)} is no address or range`);
    for (const range of NAMED_RANGES[entry] ?? [entry]) addRange(ranges, range);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && ranges.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

function addRange(ranges: BlockList, range: string): void {
  const slash = range.indexOf('/');
  const address = slash < 0 ? range : range.slice(0, slash);
  const family = isIP(address);
  const maxPrefix = family === 4 ? 32 : 128;
  const prefix = slash < 0 ? maxPrefix : Number(range.slice(slash + 1));
  if (family === 0 || !/^\d+$/.test(slash < 0 ? '0' : range.slice(slash + 1)) || prefix > maxPrefix) {
    throw errors.RU_ERR_TRUST_PROXY_OPTIONS(
      `rest.uws: trustProxy: ${JSON.stringify(range)} is no address, range (10.0.0.0/8) or name (loopback, linklocal, uniquelocal)`,
    );
  }
  ranges.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
}
