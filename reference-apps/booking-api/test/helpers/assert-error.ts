import type { ExecutionContext } from 'ava';
import type { ApiResponse, TypedAnswer } from './api-client';

/**
 * The partner API's error envelope, exactly: `{status, error: {code, message}}` as JSON, the status repeated
 * in the body, a message that matches, and nothing from the inside of the server (no stack, no file paths).
 * Takes a raw answer or one of the typed client.
 */
export function assertError(
  t: ExecutionContext,
  response: ApiResponse | TypedAnswer,
  status: number,
  code: string,
  message: RegExp | string,
): void {
  const body: any = 'text' in response ? response.body : response.data;
  const text = 'text' in response ? response.text : JSON.stringify(body);
  t.is(response.status, status, text);
  t.is(response.headers.get('content-type'), 'application/json');
  t.deepEqual(Object.keys(body ?? {}).sort(), ['error', 'status'], text);
  t.deepEqual(Object.keys(body.error).sort(), ['code', 'message'], text);
  t.is(body.status, status);
  t.is(body.error.code, code, text);
  if (typeof message === 'string') t.is(body.error.message, message);
  else t.regex(body.error.message, message);
  const internals = /\n\s*at |\.[jt]s:\d+|\/work\/|node_modules|RU_ERR_/;
  t.notRegex(text, internals, 'no internals in the body');
  t.notRegex(String(body.error.message), internals, 'no internals in the message');
}
