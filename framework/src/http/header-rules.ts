/** Rules every response header obeys, checked when it is set. */
import { lowerCaseName } from './header-name';
import { errors } from '../errors/factories';

const INVALID_HEADER_NAME = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const INVALID_HEADER_VALUE = /[\r\n\0]/;

/** Header names a response may carry more than once, each line a value of its own (RFC 9110 5.3; Set-Cookie: RFC 6265 3). */
const REPEATABLE = new Set(['set-cookie', 'vary', 'link', 'www-authenticate', 'proxy-authenticate']);

/** Is `lower` (a lower-case header name) one a response may repeat? */
export function isRepeatable(lower: string): boolean {
  return REPEATABLE.has(lower);
}

/** Throws a TypeError unless `name: value` is a header the server may send (see `checkHeader`); for configured headers. */
export function assertSendableHeader(name: string, value: string): void {
  checkHeader(name, value, lowerCaseName(name));
}

/** Throws a TypeError for a name that is no token, a value with CR, LF or NUL, or a length the server computes itself. */
export function checkHeader(name: string, value: string, lower: string): void {
  if (!validNames.has(name)) checkName(name);
  if (INVALID_HEADER_VALUE.test(value))
    throw errors.RU_ERR_HEADER_VALUE(`rest.uws: header ${name} has a CR, LF or NUL in its value`);
  if (lower === 'content-length' || lower === 'transfer-encoding') {
    throw errors.RU_ERR_FRAMING_HEADER(
      `rest.uws: ${name} is set by the server from the body; use endWithoutBody(length) for HEAD-style answers`,
    );
  }
}

/**
 * Names that passed the check: the same few are set on every request, and a set lookup costs less than the
 * expression. Bounded: names made per request cannot grow it past MAX_VALID_NAMES (they are checked each time).
 */
const validNames = new Set<string>();
const MAX_VALID_NAMES = 512;

function checkName(name: string): void {
  if (name.length === 0 || INVALID_HEADER_NAME.test(name))
    throw errors.RU_ERR_HEADER_NAME(`rest.uws: invalid header name ${JSON.stringify(name)}`);
  if (validNames.size < MAX_VALID_NAMES) validNames.add(name);
}

/** Whether a name/value list (alternating) has a header of lower-case name `lower`. */
export function hasName(headers: readonly string[], lower: string): boolean {
  for (let i = 0; i < headers.length; i += 2) if (sameName(headers[i]!, lower)) return true;
  return false;
}

/** Case-insensitive header name match against a lower-case name; the length test spares most lower-casing. */
export function sameName(name: string, lower: string): boolean {
  return name === lower || (name.length === lower.length && name.toLowerCase() === lower);
}

/** Sets the one value of a name in a name/value list (alternating): the first entry keeps its place, others go. */
export function replaceHeader(headers: string[], name: string, lower: string, value: string): void {
  let at = -1;
  for (let i = headers.length - 2; i >= 0; i -= 2) {
    if (!sameName(headers[i]!, lower)) continue;
    if (at >= 0) headers.splice(at, 2);
    at = i;
  }
  if (at >= 0) headers[at + 1] = value;
  else headers.push(name, value);
}

/** Adds a value of a name unless the list has that very value already (repeatable headers). */
export function addDistinctHeader(headers: string[], name: string, lower: string, value: string): void {
  for (let i = 0; i < headers.length; i += 2) if (headers[i + 1] === value && sameName(headers[i]!, lower)) return;
  headers.push(name, value);
}

/** Every value of a name, in order. */
export function headerValues(headers: readonly string[], lower: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2) if (sameName(headers[i]!, lower)) out.push(headers[i + 1]!);
  return out;
}
