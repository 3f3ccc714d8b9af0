import type { CorpusRoute } from './corpus-routes';
import type { Named } from './hostile-values';
import type { RawHeader, RawRequest } from './raw-http';

/** `refused`: the input is wrong, so only a 4xx (or, where allowed, a closed connection) is right. `any`: 2xx or 4xx. */
export type Expectation = 'refused' | 'any';

export interface CorpusCase {
  /** The family of attack, for the figures: auth, path, query, headers, framing, method, media, malformed, deep, size, fields... */
  readonly kind: string;
  /** The route attacked (`METHOD template`), or what else was. */
  readonly route: string;
  /** What was done to the valid request. */
  readonly name: string;
  readonly expect: Expectation;
  /** The request, or how to make it (for cases that need state made just before, such as a token used once already). */
  readonly request: RawRequest | (() => Promise<RawRequest>);
  /** The request cannot be parsed as HTTP, so uWebSockets.js may close the connection without an answer. */
  readonly mayClose?: boolean;
  /** Ambiguous framing: the connection must end after the answer (nothing after it may be read as a request). */
  readonly mustClose?: boolean;
}

/** What a valid request of one route looks like; values are plain (the corpus encodes them). */
export interface RouteSample {
  path?: Record<string, string>;
  query?: Record<string, string>;
  headers?: RawHeader[];
  /** A JSON body (sent as application/json). */
  body?: unknown;
  /** A body that is not JSON, with its Content-Type. */
  rawBody?: { type: string; data: Buffer };
  /** The media types the route reads its body as, when its document says less (a raw body read as octet-stream). */
  bodyTypes?: string[];
  /** Query parameters the route reads without declaring them (GraphQL's `query`). */
  extraQueryParams?: string[];
}

/** How a client of the app proves who it is. */
export interface AuthProfile {
  /** Routes that need it (default: those the document marks secured). */
  appliesTo?: (route: CorpusRoute) => boolean;
  /** Headers of a valid client, sent with every request of those routes. */
  valid: RawHeader[];
  /** The app's own refusals beside the generic ones: a revoked key, an expired token, another scheme. */
  refused?: Named<RawHeader[]>[];
}

export interface CorpusPlan {
  readonly routes: readonly CorpusRoute[];
  /** The OpenAPI document, for bodies of routes without a sample. */
  readonly document?: unknown;
  readonly sample: (route: CorpusRoute) => RouteSample | undefined;
  readonly auth?: AuthProfile;
  /** The app's body limit in bytes. */
  readonly bodyLimit: number;
  readonly seed: number;
}

/** The pieces of a request, each already in its wire form, so a case changes one and keeps the rest valid. */
export interface RequestParts {
  method: string;
  path: Record<string, string>;
  /** `[name, value]` pairs already percent-encoded; a pair with value undefined is sent as `name` alone. */
  query: Array<[string, string | undefined]>;
  auth: RawHeader[];
  headers: RawHeader[];
  contentType?: string;
  body?: Buffer;
  contentLength?: boolean;
  trailing?: Buffer;
}

/** A copy whose lists and maps a case may change (Buffers are shared: cases replace them, never write into them). */
export function copyParts(parts: RequestParts): RequestParts {
  return {
    ...parts,
    path: { ...parts.path },
    query: parts.query.map(([name, value]) => [name, value]),
    auth: [...parts.auth],
    headers: [...parts.headers],
  };
}

export function toRequest(route: CorpusRoute, parts: RequestParts): RawRequest {
  const path = route.template.replace(/\{([^}]+)\}/g, (_whole, name: string) => parts.path[name] ?? '1');
  const query = parts.query.map(([name, value]) => (value === undefined ? name : `${name}=${value}`)).join('&');
  const headers: RawHeader[] = [...parts.auth, ...parts.headers];
  if (parts.contentType !== undefined) headers.push(['Content-Type', parts.contentType]);
  return {
    method: parts.method,
    target: query ? `${path}?${query}` : path,
    headers,
    body: parts.body,
    contentLength: parts.contentLength,
    trailing: parts.trailing,
  };
}

/**
 * Whether a string can be sent as a header value. Control characters cannot: uWebSockets.js 20.30 neither answers nor
 * closes a request with one: it waits for its idle timeout (see docs/reliability/hostile-input.md).
 */
export function fitsHeader(value: string): boolean {
  return !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value);
}
