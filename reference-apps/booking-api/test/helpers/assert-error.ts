import type { ExecutionContext } from 'ava';
import type { ApiResponse } from './api-client';

/**
 * The partner API's error envelope, exactly: `{status, error: {code, message}}` as JSON, the status repeated
 * in the body, a message that matches, and nothing from the inside of the server (no stack, no file paths).
 */
export function assertError(
  t: ExecutionContext,
  response: ApiResponse,
  status: number,
  code: string,
  message: RegExp | string,
): void {
  t.is(response.status, status, response.text);
  t.is(response.headers.get('content-type'), 'application/json');
  t.deepEqual(Object.keys(response.body ?? {}).sort(), ['error', 'status'], response.text);
  t.deepEqual(Object.keys(response.body.error).sort(), ['code', 'message'], response.text);
  t.is(response.body.status, status);
  t.is(response.body.error.code, code, response.text);
  if (typeof message === 'string') t.is(response.body.error.message, message);
  else t.regex(response.body.error.message, message);
  t.notRegex(response.text, /\n\s*at |\.[jt]s:\d+|\/work\/|node_modules|RU_ERR_/, 'no internals in the body');
}
