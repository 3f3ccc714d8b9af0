import type { ExecutionContext } from 'ava';
import { createClient, type Client } from '../generated/api-client';

/** What a test reads from a raw answer. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when empty). */
  body: any;
}

/**
 * A partner's HTTP client against the real server, with the partner's key in the headers: `api` is the typed client
 * generated from the app's OpenAPI document (typed arguments and answers); `get`/`post`/`put`/`request` are plain
 * fetch, kept for what a typed client cannot send (malformed bodies, wrong media types, odd Accept headers).
 */
export class ApiClient {
  /** The generated typed client, with the same base URL and headers. */
  readonly api: Client;

  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {
    this.api = createClient({ baseUrl, headers });
  }

  withHeaders(headers: Record<string, string>): ApiClient {
    return new ApiClient(this.baseUrl, { ...this.headers, ...headers });
  }

  /** `body`: an object is sent as JSON; a string as it is (set Content-Type yourself). */
  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const sent: Record<string, string> = { ...this.headers, ...headers };
    let payload: string | undefined;
    if (typeof body === 'string') payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      if (!Object.keys(sent).some((name) => name.toLowerCase() === 'content-type'))
        sent['Content-Type'] = 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers: sent, body: payload });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: text && type.startsWith('application/json') ? JSON.parse(text) : undefined,
    };
  }

  get(path: string, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('POST', path, body, headers);
  }

  put(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('PUT', path, body, headers);
  }
}

/** An answer of the typed client: one of the statuses the operation documents. */
export type TypedAnswer = { status: number; data: unknown; headers: Headers };

/** Checks the answer's status and gives its data, typed as the operation documents it for that status. */
export function answered<A extends TypedAnswer, S extends A['status']>(
  t: ExecutionContext,
  answer: A,
  status: S,
): Extract<A, { status: S }>['data'] {
  t.is(answer.status, status, JSON.stringify(answer.data));
  return answer.data as Extract<A, { status: S }>['data'];
}

export const API = '/api/public/v1';
