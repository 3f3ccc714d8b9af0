/** HTTP for the verifier: one GET over node:http (every header as sent), and N GETs pipelined in one write. */
import * as http from 'node:http';
import * as net from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export function get(url: string, accept?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = accept === undefined ? {} : { accept };
    const request = http.get(url, { agent: false, timeout: 10_000, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(incoming.headers))
          headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
        resolve({ status: incoming.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url}: no answer within 10 s`)));
    request.on('error', reject);
  });
}

/**
 * `count` copies of GET `path` written at once on one connection, as wrk's pipelining does; resolves with the
 * answers' bodies in order (each answer framed by its Content-Length), or rejects when they do not all come.
 */
export function getPipelined(baseUrl: string, path: string, count: number): Promise<RawResponse[]> {
  const { hostname, port } = new URL(baseUrl);
  const one = `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let buffer = Buffer.alloc(0);
    const answers: RawResponse[] = [];
    const timer = setTimeout(
      () => fail(new Error(`${count} pipelined GET ${path}: ${answers.length} answers within 10 s`)),
      10_000,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => {
      if (answers.length < count) fail(new Error(`the connection closed after ${answers.length} of ${count} answers`));
    });
    socket.on('connect', () => socket.write(one.repeat(count)));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length']);
        if (!Number.isInteger(length)) return fail(new Error(`a pipelined answer without Content-Length: ${lines[0]}`));
        if (buffer.length < end + 4 + length) return;
        answers.push({
          status: Number(lines[0]!.split(' ')[1]),
          headers,
          body: Buffer.from(buffer.subarray(end + 4, end + 4 + length)),
        });
        buffer = buffer.subarray(end + 4 + length);
        if (answers.length === count) {
          clearTimeout(timer);
          socket.destroy();
          resolve(answers);
          return;
        }
      }
    });
  });
}
