import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse } from 'uWebSockets.js';
import type { ClientOrigin, OriginResolver } from './client-origin';
import { parseCookieHeader } from './cookie-header';
import { lowerCaseName } from './header-name';
import { keptBytes } from './header-bytes';
import {
  kAnsweredBy,
  kBody,
  kOriginResolver,
  kParamNames,
  kParamValues,
  kReceivedHeaders,
  kReleaseNative,
} from './internal';
import { decodeComponent, parseQueryString, type ParsedQuery } from './query-string';

const textDecoder = new TextDecoder();

/**
 * The framework's request: usable after `await`, unlike uWebSockets.js's stack-bound HttpRequest.
 * While the uWebSockets.js callback runs it reads straight from the native request; the adapter
 * calls `detach()` before the callback returns, which copies what could still be read later.
 */
export class HttpServerRequest {
  /** the native request, only while the uWebSockets.js callback runs */
  private _req: UwsRequest | null;
  /** the native response, to read the client's address from */
  private _res: UwsResponse | null;
  /** all headers by lower-case name, built when first asked for (or given by a test client) */
  private _headers: Record<string, string> | null = null;
  /** the headers copied at detach: lower-case names and values, alternating, as received */
  private _headerList: string[] | null = null;
  /** @internal names of the route's path variables */
  [kParamNames]: readonly string[] = EMPTY;
  /** @internal values of the path variables, by position */
  [kParamValues]: readonly string[] = EMPTY;
  /** @internal the response answering this request (the address can be read from uWebSockets.js until it ends) */
  [kAnsweredBy]: { ended(): boolean; aborted(): boolean } | null = null;
  /** @internal the complete body, once read */
  [kBody]: Buffer | undefined = undefined;
  private readonly _method: string;
  private readonly _path: string;
  /** undefined until read: most routes never look at the query string */
  private _query: string | undefined;
  private _parsedQuery: ParsedQuery | null = null;
  private _cookies: Record<string, string | undefined> | null = null;
  private _remote: string | undefined;
  /** @internal reads the origin behind trusted proxies (`trustProxy`); null: the connection's own */
  [kOriginResolver]: OriginResolver | null = null;
  private _origin: ClientOrigin | undefined;

  constructor(
    req: UwsRequest | null,
    res: UwsResponse | null,
    method: string,
    path: string,
    query?: string,
    headers?: Record<string, string>,
  ) {
    this._req = req;
    this._res = res;
    this._method = method;
    this._path = path;
    this._query = query;
    if (headers) this._headers = headers;
  }

  /** Upper-case HTTP method. */
  method(): string {
    return this._method;
  }

  /** The path as received, without the query string (still percent-encoded). */
  path(): string {
    return this._path;
  }

  /** Path and query as received. */
  uri(): string {
    const query = this.query();
    return query.length > 0 ? `${this._path}?${query}` : this._path;
  }

  /** The raw query string, without `?` (empty when none). */
  query(): string {
    if (this._query === undefined) this._query = (this._req !== null ? this._req.getQuery() : undefined) ?? '';
    return this._query;
  }

  /** A header value (case-insensitive name), or undefined when absent. */
  getHeader(name: string): string | undefined {
    const key = lowerCaseName(name);
    if (this._headers !== null) return this._headers[key];
    if (this._headerList !== null) return findHeader(this._headerList, key);
    if (this._req !== null) {
      const v = this._req.getHeader(keptBytes(key));
      return v === '' ? (this.hasEmptyHeader(key) ? '' : undefined) : v;
    }
    return undefined;
  }

  /**
   * A header's value, or '' when it is absent or empty: for readers to whom an empty header says the same as none
   * (Accept, Authorization, Origin, Cookie). uWebSockets.js answers '' for both, and telling them apart takes a
   * scan of every header (`getHeader` does it when a header reads ''); this never scans.
   */
  headerOrEmpty(name: string): string {
    const key = lowerCaseName(name);
    if (this._headers !== null) return this._headers[key] ?? '';
    if (this._headerList !== null) return findHeader(this._headerList, key) ?? '';
    if (this._req !== null) return this._req.getHeader(keptBytes(key));
    return '';
  }

  private hasEmptyHeader(key: string): boolean {
    // uWebSockets.js answers '' both for an absent header and an empty one; only a scan tells them apart.
    // The scan is kept as the flat list detach() would copy: later reads (and detach) use it instead of scanning again.
    this._headerList = listHeaders(this._req!);
    return findHeader(this._headerList, key) === '';
  }

  /** All headers, lower-case names; repeated headers joined with ", " (cookies with "; "). */
  headers(): Record<string, string> {
    if (this._headers === null) {
      // The list is kept: the adapter judges body framing on every header as received, repeats included.
      const list = this._headerList ?? (this._req !== null ? (this._headerList = listHeaders(this._req)) : []);
      const headers: Record<string, string> = Object.create(null);
      for (let i = 0; i < list.length; i += 2) {
        const key = list[i]!;
        const prev = headers[key];
        headers[key] = prev === undefined ? list[i + 1]! : joinValues(key, prev, list[i + 1]!);
      }
      this._headers = headers;
    }
    return this._headers;
  }

  /** A path variable, else a query value (decoded), else undefined. */
  getParam(name: string): string | undefined {
    const i = this[kParamNames].indexOf(name);
    if (i >= 0) return this[kParamValues][i];
    return this.getQueryParam(name);
  }

  /** Path variables by name (decoded). */
  pathParams(): Record<string, string> {
    const out: Record<string, string> = {};
    const names = this[kParamNames];
    const values = this[kParamValues];
    for (let i = 0; i < names.length; i++) out[names[i]!] = values[i]!;
    return out;
  }

  /** First decoded value of a query parameter. */
  getQueryParam(name: string): string | undefined {
    return this.parsedQuery().decoded.get(name)?.[0];
  }

  /** All decoded values of a query parameter. */
  getQueryParams(name: string): string[] {
    return this.parsedQuery().decoded.get(name) ?? [];
  }

  /** @internal parsed query, built once on demand */
  parsedQuery(): ParsedQuery {
    if (this._parsedQuery === null) this._parsedQuery = parseQueryString(this.query());
    return this._parsedQuery;
  }

  /**
   * The value of a request cookie (unquoted, percent-decoded; `+` stays `+`), undefined when the request has none
   * of that name; of a name sent twice, the first. Parsed once per request.
   */
  getCookie(name: string): string | undefined {
    if (this._cookies === null) this._cookies = parseCookieHeader(this.headerOrEmpty('cookie'));
    return this._cookies[name];
  }

  /**
   * The client's address as text (IPv4 or IPv6). With `trustProxy`, the address the trusted proxies forwarded
   * (`Forwarded` / `X-Forwarded-For`); otherwise, and when the peer is no trusted proxy, the peer's
   * (`peerAddress()`). Reading it costs a native call, so nothing reads it unless asked (the request logger with
   * `remoteAddress: true`, rate limiting by address, and WebSocket connections take it up front).
   */
  remoteAddress(): string {
    return this[kOriginResolver] === null ? this.peerAddress() : this.origin().address;
  }

  /** The protocol the client used, lower case: `http`, or what trusted proxies forwarded (`https`). */
  protocol(): string {
    return this[kOriginResolver] === null ? 'http' : this.origin().protocol;
  }

  /** The host (and port) the client asked for: the `Host` header, or what trusted proxies forwarded. */
  host(): string | undefined {
    return this[kOriginResolver] === null ? this.getHeader('host') : this.origin().host;
  }

  /**
   * The address of the connection's other end (the client, or the nearest proxy). Known while the request is
   * being answered, and afterwards once read; empty when first asked after the response ended (uWebSockets.js
   * forgets the connection then).
   */
  peerAddress(): string {
    if (this._remote === undefined) {
      let text = '';
      const response = this[kAnsweredBy];
      const answering = response === null || (!response.ended() && !response.aborted());
      if (this._res !== null && answering) {
        try {
          text = addressOf(this._res);
        } catch {
          // The native response is gone (ended or aborted) and the address was never read.
          this._res = null;
        }
      }
      this._remote = text;
    }
    return this._remote;
  }

  private origin(): ClientOrigin {
    if (this._origin === undefined) {
      const direct: ClientOrigin = { address: this.peerAddress(), protocol: 'http', host: this.getHeader('host') };
      // Every line of a repeated header counts (a proxy may add its own line rather than extend the first).
      this._origin = this[kOriginResolver]!((name) => this.getHeaderLines(name), direct);
    }
    return this._origin;
  }

  /** A header's lines joined with ", ", repeats included (uWebSockets.js's own lookup sees only the first). */
  private getHeaderLines(name: string): string | undefined {
    if (this._headers !== null || this._headerList !== null) return this.getHeader(name);
    if (this._req === null) return undefined;
    this._headerList = listHeaders(this._req);
    return findHeader(this._headerList, lowerCaseName(name));
  }

  /** The body bytes, when the route read the body (undefined otherwise). */
  body(): Buffer | undefined {
    return this[kBody];
  }

  /** The body decoded as UTF-8 (empty when the route did not read the body). */
  bodyAsString(): string {
    const body = this[kBody];
    return body === undefined ? '' : body.toString('utf8');
  }

  /** The path with percent-escapes decoded. */
  decodedPath(): string {
    return this._path.indexOf('%') < 0 ? this._path : decodeComponent(this._path.replace(/\+/g, '%2B'));
  }

  /**
   * @internal Copies what may be read after the uWebSockets.js callback returns (headers, query) and
   * drops the native request, which dies with the callback. The address stays readable from the
   * native response, which lives until it ends.
   */
  detach(): void {
    if (this._req === null) return;
    if (this._headers === null && this._headerList === null) this._headerList = listHeaders(this._req);
    this.query();
    this._req = null;
  }

  /** @internal the headers as received (lower-case names and values, alternating), once `detach()` copied them; empty when given as an object (a test client's) */
  [kReceivedHeaders](): readonly string[] {
    return this._headerList ?? EMPTY;
  }

  /** @internal forgets the native response: the connection was upgraded, and the request outlives the response (its address read before) */
  [kReleaseNative](): void {
    this._res = null;
  }
}

const EMPTY: readonly string[] = Object.freeze([]);

/**
 * The request's headers as a flat list: one array push per header, where building an object would hash
 * every name. Requests carry few headers, so lookups scan it.
 */
function listHeaders(req: UwsRequest): string[] {
  const list: string[] = [];
  listing = list;
  req.forEach(addListed);
  listing = NO_LIST;
  return list;
}

/**
 * The list `addListed` fills: one function for every request rather than a closure per request (no allocation,
 * and V8 compiles a new closure's first call lazily). uWebSockets.js calls it synchronously, inside forEach.
 */
const NO_LIST: string[] = [];
let listing: string[] = NO_LIST;

function addListed(key: string, value: string): void {
  listing.push(key, value);
}

/** A header's value from the list; repeated headers joined as `headers()` joins them. */
function findHeader(list: readonly string[], key: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === key) found = found === undefined ? list[i + 1]! : joinValues(key, found, list[i + 1]!);
  }
  return found;
}

/** Repeated headers are one comma-separated list (RFC 9110 5.3); cookies join with "; " (RFC 6265 5.4). */
function joinValues(key: string, first: string, next: string): string {
  return `${first}${key === 'cookie' ? '; ' : ', '}${next}`;
}

/** The address from its bytes for IPv4 (plain or IPv4-mapped, shown as plain IPv4): no text decoding; uWebSockets.js's text for IPv6. */
function addressOf(res: UwsResponse): string {
  const bytes = new Uint8Array(res.getRemoteAddress());
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  if (bytes.length === 16 && isIpv4Mapped(bytes)) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  return textDecoder.decode(res.getRemoteAddressAsText());
}

function isIpv4Mapped(bytes: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}
