import { STATUS_CODES } from 'node:http';

const lines: string[] = [];

/** Reason phrase for a status code. */
export function statusText(code: number): string {
  return STATUS_CODES[code] ?? 'Unknown';
}

/** "404 Not Found": uWebSockets.js wants the whole status line; built once per code. */
export function statusLine(code: number): string {
  return lines[code] ?? (lines[code] = `${code} ${statusText(code)}`);
}
