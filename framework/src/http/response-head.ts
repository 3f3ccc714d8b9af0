import { lowerCaseName } from './header-name';
import {
  addDistinctHeader,
  checkHeader,
  hasName,
  headerValues,
  isRepeatable,
  replaceHeader,
  sameName,
} from './header-rules';
import { kPutContentType, kPutTrustedHeaderValues } from './internal';
import { errors } from '../errors/factories';

/**
 * The head of a response as it is being built: its status and headers, buffered in JavaScript until the response
 * writes them (`HttpServerResponse`, which extends it, flushes them with the first body bytes). Header names are
 * case-insensitive; repeatable headers (Set-Cookie, Vary, Link...) are added, others replaced.
 */
export class ResponseHead {
  /** @internal the status to send */
  declare protected _status: number;
  /** @internal whether a status was set (else the 200 is the default) */
  declare protected _statusSet: boolean;
  /** @internal header names and values, alternating (null until the first) */
  declare protected _headers: string[] | null;

  // Set in a constructor, not by field initializers: V8 (Node 20's) leaves the `super()` of a subclass whose base
  // has field initializers as a builtin call in optimized code, where an explicit constructor is inlined. One of
  // these is made per request (HttpServerResponse); timed on scenario 3, 0.13-0.36 µs per request with the two
  // per-request subclasses.
  constructor() {
    this._status = 200;
    this._statusSet = false;
    this._headers = null;
  }

  /** Sets the status (100 to 999); throws RangeError otherwise. */
  setStatusCode(code: number): this {
    if (!Number.isInteger(code) || code < 100 || code > 999)
      throw errors.RU_ERR_STATUS(`rest.uws: invalid HTTP status ${code}`);
    this._status = code;
    this._statusSet = true;
    return this;
  }

  /** The status to be sent (200 unless set). */
  getStatusCode(): number {
    return this._status;
  }

  /** Whether a status was set explicitly (otherwise it is the default 200). */
  statusWasSet(): boolean {
    return this._statusSet;
  }

  /**
   * Sets a header, replacing any of the same name (case-insensitive); an array sends one header per value.
   * Headers a response may carry several times (Set-Cookie, Vary, Link, WWW-Authenticate, Proxy-Authenticate)
   * are added instead, once per distinct value: replacing them would silently drop a cookie, or CORS's
   * `Vary: Origin` (use `removeHeader` first to replace them).
   */
  putHeader(name: string, value: string | number | ReadonlyArray<string | number>): this {
    const lower = lowerCaseName(name);
    if (typeof value === 'string' || typeof value === 'number') {
      const v = typeof value === 'number' ? String(value) : value;
      checkHeader(name, v, lower);
      if (isRepeatable(lower)) addDistinctHeader(this.list(), name, lower, v);
      else replaceHeader(this.list(), name, lower, v);
      return this;
    }
    const values = value.map(String);
    for (const v of values) checkHeader(name, v, lower);
    if (!isRepeatable(lower)) this.removeHeader(name);
    for (const v of values) addDistinctHeader(this.list(), name, lower, v);
    return this;
  }

  /** Adds a header even when one of the same name exists (Vert.x's `headers().add`, Node's `appendHeader`). */
  appendHeader(name: string, value: string | number): this {
    const v = String(value);
    checkHeader(name, v, lowerCaseName(name));
    this.pushPair(name, v);
    return this;
  }

  /**
   * @internal the Content-Type a writer (or the negotiation) chose, known valid, unless the response has one: no
   * per-call checks, and the name is neither lower-cased nor looked up as repeatable (set on nearly every answer)
   */
  [kPutContentType](value: string): void {
    if (!this.hasName('content-type')) this.pushPair('content-type', value);
  }

  /**
   * @internal adds the values of one header known valid (checked at registration) without the per-call checks: all
   * of them when the response does not have the name yet; of a repeatable name, those it does not have yet
   * (`@Header('Link: <a>', 'Link: <b>')` sends both)
   */
  [kPutTrustedHeaderValues](name: string, lower: string, values: readonly string[]): void {
    if (isRepeatable(lower)) {
      for (let i = 0; i < values.length; i++) addDistinctHeader(this.list(), name, lower, values[i]!);
      return;
    }
    if (this.hasName(lower)) return;
    const headers = this._headers ?? (this._headers = []);
    for (let i = 0; i < values.length; i++) headers.push(name, values[i]!);
  }

  /**
   * Adds one name and value. The first makes a list of exactly two entries: an empty list grown by `push` takes a
   * backing store of 17 slots, and most answers carry one header here (their Content-Type), so that was about 140
   * bytes of every request's garbage.
   */
  private pushPair(name: string, value: string): void {
    if (this._headers) this._headers.push(name, value);
    else this._headers = [name, value];
  }

  private list(): string[] {
    return this._headers ?? (this._headers = []);
  }

  private hasName(lower: string): boolean {
    return this._headers !== null && hasName(this._headers, lower);
  }

  /** The (first) value of a response header set so far (case-insensitive name), undefined when unset. */
  getHeader(name: string): string | undefined {
    const headers = this._headers;
    if (headers === null) return undefined;
    const lower = lowerCaseName(name);
    for (let i = 0; i < headers.length; i += 2) if (sameName(headers[i]!, lower)) return headers[i + 1];
    return undefined;
  }

  /** Every value of a response header set so far, in order (Set-Cookie and the like may have several). */
  getHeaderValues(name: string): string[] {
    return this._headers === null ? [] : headerValues(this._headers, lowerCaseName(name));
  }

  /** Whether a response header of that name is set. */
  hasHeader(name: string): boolean {
    return this.getHeader(name) !== undefined;
  }

  /** Removes every response header of that name (before the head is sent). */
  removeHeader(name: string): this {
    const headers = this._headers;
    if (headers === null) return this;
    const lower = lowerCaseName(name);
    for (let i = headers.length - 2; i >= 0; i -= 2) if (sameName(headers[i]!, lower)) headers.splice(i, 2);
    return this;
  }

  /** Headers set so far as [name, value] pairs. */
  headers(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const h = this._headers;
    if (h) for (let i = 0; i < h.length; i += 2) out.push([h[i]!, h[i + 1]!]);
    return out;
  }
}
