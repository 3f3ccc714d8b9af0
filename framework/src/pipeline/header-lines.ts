import { lowerCaseName } from '../http/header-name';
import type { HttpServerResponse } from '../http/response';
import { splitMediaTypes } from '../util/media-type-list';
import { kPutTrustedHeaderValues } from '../http/internal';
import { errors } from '../errors/factories';

/** Response headers of one name from `@Header` lines, in order: every value is sent. */
export interface HeaderGroup {
  name: string;
  lower: string;
  values: string[];
}

/** `@Header` lines split by what they mean: Accept -> consumes, Content-Type -> produces, the rest -> response headers. */
export interface HeaderLines {
  consumes?: string[];
  produces?: string[];
  response: Array<[string, string]>;
}

/** Splits `@Header` lines ("Name: value"); names and values are checked here, once, at registration. */
export function splitHeaders(headers: readonly string[] | undefined): HeaderLines {
  const out: HeaderLines = { response: [] };
  for (const h of headers ?? []) {
    const colon = h.indexOf(':');
    const name = h.slice(0, colon).trim();
    const value = h.slice(colon + 1).trim();
    const lower = name.toLowerCase();
    if (lower === 'accept') (out.consumes ??= []).push(...splitMediaTypes([value]));
    else if (lower === 'content-type') (out.produces ??= []).push(...splitMediaTypes([value]));
    else {
      if (/[\r\n\0]/.test(value) || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name))
        throw errors.RU_ERR_HEADER(`Invalid @Header ${JSON.stringify(h)}`);
      out.response.push([name, value]);
    }
  }
  return out;
}

/** Groups header lines by name (case-insensitively), keeping the order of first appearance. */
export function groupHeaders(lines: ReadonlyArray<readonly [string, string]>): HeaderGroup[] {
  const groups: HeaderGroup[] = [];
  for (const [name, value] of lines) {
    const lower = lowerCaseName(name);
    const group = groups.find((g) => g.lower === lower);
    if (group) group.values.push(value);
    else groups.push({ name, lower, values: [value] });
  }
  return groups;
}

/**
 * Adds static headers to a response: a name the response already has is left as set (a repeatable one,
 * such as Link or Vary, gains the values it lacks); a name it has not gets all its values.
 */
export function addHeaderGroups(response: HttpServerResponse, groups: readonly HeaderGroup[]): void {
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    response[kPutTrustedHeaderValues](g.name, g.lower, g.values);
  }
}
