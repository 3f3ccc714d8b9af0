/** Small helpers for the scenario checks: one request, and strict comparisons that say what differed. */
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
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

export function expectStatus(scenario: string, what: string, response: CheckedResponse, status: number): void {
  if (response.status !== status) {
    throw new ScenarioCheckError(scenario, `${what} status`, status, `${response.status} ${response.body.toString('utf8', 0, 200)}`);
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
