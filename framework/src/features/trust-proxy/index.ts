/** Behind proxies: the client's address, protocol and host from trusted proxies' forwarding headers. */
export { trustProxy, type TrustProxyOptions } from './trust-proxy-plugin';
export type { TrustSetting } from './trusted-proxies';
export type { ForwardingHeaders } from './origin-resolver';
