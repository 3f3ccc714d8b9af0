import { errors, type RestPlugin } from '../../plugin';
import { originResolver, type ForwardingHeaders } from './origin-resolver';
import { trustFunction, type TrustSetting } from './trusted-proxies';

/** `trustProxy` in object form. */
export interface TrustProxyOptions {
  /** Which proxies are trusted: a hop count, addresses and ranges, or a function (see `TrustSetting`). */
  trust: TrustSetting;
  /** The headers those proxies set: `x-forwarded` (default: `X-Forwarded-For/-Proto/-Host`) or `forwarded` (RFC 7239). */
  headers?: ForwardingHeaders;
}

/**
 * Behind proxies: `request.remoteAddress()`, `protocol()` and `host()` read what trusted proxies forwarded, and
 * only when the connection's peer is one of them; a client talking to the app directly cannot forge its address.
 * Off by default (`false` keeps it off): the request then answers from the connection. The request logger,
 * rate limiting by address and WebSocket connections use the same reading.
 *
 * ```ts
 * new RestBuilder().use(trustProxy(1))                                   // one proxy (a load balancer) in front
 * new RestBuilder().use(trustProxy(['10.0.0.0/8', 'loopback']))          // proxies at these addresses
 * new RestBuilder().use(trustProxy({ trust: 'uniquelocal', headers: 'forwarded' }))
 * ```
 */
export function trustProxy(setting: TrustSetting | TrustProxyOptions | false): RestPlugin {
  if (setting === false) return { name: 'trust-proxy', setup() {} };
  const options: TrustProxyOptions = isOptions(setting) ? setting : { trust: setting };
  const headers = options.headers ?? 'x-forwarded';
  if (headers !== 'x-forwarded' && headers !== 'forwarded')
    throw errors.RU_ERR_TRUST_PROXY_OPTIONS(
      `rest.uws: trustProxy: headers must be "x-forwarded" or "forwarded", got ${JSON.stringify(headers)}`,
    );
  const resolver = originResolver(trustFunction(options.trust), headers);
  return {
    name: 'trust-proxy',
    setup(app) {
      // Every request gets it; the reading itself happens only when asked for (remoteAddress(), protocol(), host()).
      app.resolveOrigin(resolver);
    },
  };
}

function isOptions(setting: unknown): setting is TrustProxyOptions {
  return setting !== null && typeof setting === 'object' && !Array.isArray(setting) && 'trust' in setting;
}
