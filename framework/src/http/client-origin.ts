/** Where a request came from, as the app should see it: the client's address, the protocol and host it used. */
export interface ClientOrigin {
  /** The client's address (IPv4, or IPv6 in canonical form); empty when unknown. */
  readonly address: string;
  /** The protocol the client used, lower case (`http`, `https`). */
  readonly protocol: string;
  /** The host (and port) the client asked for, undefined when unknown. */
  readonly host: string | undefined;
}

/**
 * Reads a request's origin behind proxies (`trustProxy`): `direct` is what the connection itself says (the peer's
 * address, `http`, the Host header); the resolver decides what the forwarding headers may change.
 */
export type OriginResolver = (headers: (name: string) => string | undefined, direct: ClientOrigin) => ClientOrigin;
