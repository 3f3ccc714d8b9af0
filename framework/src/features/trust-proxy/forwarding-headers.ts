import { addressWithoutPort, canonicalAddress } from './ip-address';

/** What one proxy recorded about the connection it received: the client's address, its protocol and host. */
export interface Hop {
  /** The address the proxy received the request from; undefined when it is not an IP address (`unknown`, garbage). */
  readonly for: string | undefined;
  readonly proto: string | undefined;
  readonly host: string | undefined;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]{0,15}$/;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,253})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
/** RFC 9110 token characters. */
const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

export function protocolOf(text: string | undefined): string | undefined {
  return text !== undefined && SCHEME.test(text) ? text.toLowerCase() : undefined;
}

export function hostOf(text: string | undefined): string | undefined {
  return text !== undefined && HOST.test(text) ? text : undefined;
}

function addressOf(text: string | undefined): string | undefined {
  return text === undefined ? undefined : canonicalAddress(addressWithoutPort(text));
}

/** `X-Forwarded-For` entries, client first: each an address (its port dropped), or undefined when it is none. */
export function parseXForwardedFor(value: string): Array<string | undefined> {
  return value.split(',').map((entry) => addressOf(entry.trim()));
}

/** A comma-separated header's entries, trimmed (`X-Forwarded-Proto`, `X-Forwarded-Host`). */
export function listEntries(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((entry) => entry.trim());
}

/**
 * RFC 7239 `Forwarded` elements, client first. Quoted strings are read as such (a comma or semicolon inside
 * quotes splits nothing; `\"` escapes). The header is read up to its first syntax error (an unterminated quote, a
 * pair without `=`, a repeated parameter): the elements from there on are undefined, so a walk from the nearest
 * proxy stops at once rather than trust positions it cannot read.
 */
export function parseForwarded(value: string): Array<Hop | undefined> {
  const elements: Array<Hop | undefined> = [];
  let i = 0;
  const n = value.length;
  const skipSpace = () => {
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
  };
  for (;;) {
    const pairs = new Map<string, string>();
    let broken = false;
    for (;;) {
      skipSpace();
      const nameStart = i;
      while (i < n && TCHAR.test(value[i]!)) i++;
      const name = value.slice(nameStart, i).toLowerCase();
      if (name === '' || value[i] !== '=') {
        broken = true;
        break;
      }
      i++;
      let text: string;
      if (value[i] === '"') {
        i++;
        text = '';
        while (i < n && value[i] !== '"') {
          if (value[i] === '\\') i++;
          if (i < n) text += value[i++];
        }
        if (i >= n) {
          broken = true;
          break;
        }
        i++;
      } else {
        const start = i;
        while (i < n && TCHAR.test(value[i]!)) i++;
        text = value.slice(start, i);
        if (text === '') {
          broken = true;
          break;
        }
      }
      if (pairs.has(name)) {
        broken = true;
        break;
      }
      pairs.set(name, text);
      skipSpace();
      if (value[i] === ';') {
        i++;
        continue;
      }
      break;
    }
    if (broken) {
      elements.push(undefined);
      return elements;
    }
    elements.push({
      for: addressOf(pairs.get('for')),
      proto: protocolOf(pairs.get('proto')),
      host: hostOf(pairs.get('host')),
    });
    if (i >= n) return elements;
    if (value[i] !== ',') {
      elements.push(undefined);
      return elements;
    }
    i++;
  }
}
