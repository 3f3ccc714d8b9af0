/** A client of the job API as DeepL documents it: create, upload with the signature, poll, download. */
export interface JobAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export async function jobRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown },
): Promise<JobAnswer> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body !== undefined && !Buffer.isBuffer(init.body) ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body === undefined
      ? {}
      : { body: Buffer.isBuffer(init.body) ? init.body : JSON.stringify(init.body), duplex: 'half' }),
  } as RequestInit);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: the text itself.
  }
  return { status: response.status, headers: response.headers, body };
}

export function jobClient(base: string, key: string) {
  const auth = { authorization: `DeepL-Auth-Key ${key}` };
  return {
    create: (body: unknown, query = '') =>
      jobRequest(`${base}/v1/jobs/voice/translate${query}`, { method: 'POST', headers: auth, body }),
    status: (id: string, query = '') => jobRequest(`${base}/v1/jobs/voice/translate/${id}${query}`, { headers: auth }),
    upload: (uploadUrl: string, signature: string | undefined, file: Buffer) =>
      jobRequest(uploadUrl, {
        method: 'PUT',
        headers: {
          'content-type': 'application/octet-stream',
          ...(signature === undefined ? {} : { authorization: `DeepL-Signature ${signature}` }),
        },
        body: file,
      }),
    /** Polls the status until `done` holds (each answer waits for the server: no fixed sleeps beyond a poll step). */
    async until(id: string, done: (status: any) => boolean, timeoutMs = 120_000): Promise<any> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const answer = await this.status(id);
        if (answer.status !== 200) throw new Error(`status answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        if (done(answer.body)) return answer.body;
        if (Date.now() > deadline)
          throw new Error(`job ${id} not done after ${timeoutMs} ms: ${JSON.stringify(answer.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

export async function download(
  url: string,
  signature?: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(url, {
    headers: signature === undefined ? {} : { authorization: `DeepL-Signature ${signature}` },
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

export const finished = (status: any) =>
  status.results.every((result: any) => ['complete', 'downloaded', 'failed'].includes(result.status));
