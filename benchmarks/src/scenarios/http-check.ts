/** Small helpers for the scenario checks: one request, and strict comparisons that say what differed. */
import * as http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { ScenarioCheckError } from './scenario';

export interface CheckedResponse {
  status: number;
  contentType: string;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export async function request(url: string, init: RequestInit = {}): Promise<CheckedResponse> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) }).catch((error: unknown) => {
    // fetch says only "fetch failed"; the cause (a reset, a refused connection) is what tells a flaky server apart
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new Error(`${init.method ?? 'GET'} ${url} failed${cause}`, { cause: error });
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

export function expectStatus(scenario: string, what: string, response: CheckedResponse, status: number): void {
  if (response.status !== status) {
    throw new ScenarioCheckError(
      scenario,
      `${what} status`,
      status,
      `${response.status} ${response.body.toString('utf8', 0, 200)}`,
    );
  }
}

export function expectJson(scenario: string, what: string, response: CheckedResponse, expected: unknown): void {
  if (!response.contentType.startsWith('application/json')) {
    throw new ScenarioCheckError(scenario, `${what} content-type`, 'application/json', response.contentType);
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new ScenarioCheckError(scenario, `${what} body`, 'JSON', response.body.toString('utf8', 0, 200));
  }
  if (!isDeepStrictEqual(body, expected)) throw new ScenarioCheckError(scenario, `${what} body`, expected, body);
}

/** One request on the given agent (node:http, where fetch cannot tell whether a connection was reused). */
function send(
  agent: http.Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<CheckedResponse & { reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { agent, method, headers, timeout: 5000 }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const received = Object.entries(incoming.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : (value ?? ''),
        ]);
        resolve({
          status: incoming.statusCode ?? 0,
          contentType: incoming.headers['content-type'] ?? '',
          headers: Object.fromEntries(received),
          body: Buffer.concat(chunks),
          reusedSocket: outgoing.reusedSocket,
        });
      });
      incoming.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${method} ${url}: no answer within 5 s`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A refused request leaves its keep-alive connection usable, unless the answer said `Connection: close`:
 * a server that closes it silently makes the client's next request on it fail with a reset (a race that
 * shows only now and then). Both requests go over one connection; the pause lets a close arrive first.
 */
export async function expectConnectionKept(
  scenario: string,
  what: string,
  refused: { url: string; method: string; headers: Record<string, string>; body?: string },
  nextUrl: string,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await send(agent, refused.url, refused.method, refused.headers, refused.body);
    expectStatus(scenario, what, first, 400);
    if (/\bclose\b/i.test(first.headers.connection ?? '')) return; // announced: a client opens a new one
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await send(agent, nextUrl, 'GET', {});
    if (!next.reusedSocket) {
      throw new ScenarioCheckError(
        scenario,
        `${what}: the connection after the refusal`,
        'kept open (or Connection: close said)',
        'closed without notice',
      );
    }
  } finally {
    agent.destroy();
  }
}
