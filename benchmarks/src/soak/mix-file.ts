/**
 * A fixed request mix for lua/soak/mix.lua: written as a tab-separated file, and checked once through fetch
 * before the load, so that a wrong query or token fails the run at once with the server's answer.
 */
import * as fs from 'node:fs';

export interface MixRequest {
  kind: string;
  weight: number;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  /** Text the answer must contain. */
  mustContain?: string;
  /** Text the answer must not contain. */
  mustNotContain?: string;
}

function field(text: string, what: string): string {
  if (/[\t\n\r]/.test(text))
    throw new Error(
      `${what} of a mix request must not hold tabs or line breaks: ${JSON.stringify(text).slice(0, 120)}`,
    );
  if (text === '-' || text === '') throw new Error(`${what} of a mix request must not be empty or "-"`);
  return text;
}

export function mixLine(request: MixRequest): string {
  const headers = Object.entries(request.headers).map(([name, value]) => field(`${name}: ${value}`, 'a header'));
  if (headers.some((header) => header.includes(' | '))) throw new Error(`a header of ${request.kind} holds " | "`);
  return [
    field(request.kind, 'kind'),
    String(request.weight),
    request.method,
    field(request.path, 'path'),
    headers.length ? headers.join(' | ') : '-',
    request.body === undefined ? '-' : field(request.body, 'body'),
    String(request.status),
    request.mustContain === undefined ? '-' : field(request.mustContain, 'mustContain'),
    request.mustNotContain === undefined ? '-' : field(request.mustNotContain, 'mustNotContain'),
  ].join('\t');
}

export function writeMixFile(file: string, requests: readonly MixRequest[]): void {
  const kinds = new Set(requests.map((request) => request.kind));
  if (kinds.size !== requests.length) throw new Error('every request of a mix needs its own kind');
  fs.writeFileSync(file, `${requests.map(mixLine).join('\n')}\n`);
}

/** Why the answer is not what the mix expects, or undefined when it is. */
export function wrongAnswer(request: MixRequest, status: number, body: string): string | undefined {
  if (status !== request.status) return `status ${status}, expected ${request.status}`;
  if (request.mustContain !== undefined && !body.includes(request.mustContain)) return `no ${request.mustContain}`;
  if (request.mustNotContain !== undefined && body.includes(request.mustNotContain))
    return `has ${request.mustNotContain}`;
  return undefined;
}

/** Sends every request of the mix once; throws with the first wrong answer. */
export async function checkMixOnce(baseUrl: string, requests: readonly MixRequest[]): Promise<void> {
  for (const request of requests) {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    const body = await response.text();
    const wrong = wrongAnswer(request, response.status, body);
    if (wrong)
      throw new Error(
        `the check of "${request.kind}" (${request.method} ${request.path.slice(0, 80)}) failed: ${wrong}: ${body.slice(0, 300)}`,
      );
  }
}
