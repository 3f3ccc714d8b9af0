/** What a test reads from an answer. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when empty). */
  body: any;
}

/** A partner's HTTP client: fetch against the real server, with the partner's key in the headers. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {}

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

export const API = '/api/public/v1';
