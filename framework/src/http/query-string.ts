/** Parsed query (or urlencoded form) values: decoded and raw, each a list since names may repeat. */
export interface ParsedQuery {
  decoded: Map<string, string[]>;
  raw: Map<string, string[]>;
}

/** Decodes `%xx` and `+`; malformed escapes are kept as they are rather than failing the request. */
export function decodeComponent(value: string): string {
  if (value.indexOf('%') < 0 && value.indexOf('+') < 0) return value;
  const spaced = value.indexOf('+') < 0 ? value : value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Parses `a=1&b=x%20y&a=2` (no leading `?`). Keys are decoded too. */
export function parseQueryString(query: string, maxPairs = 1000): ParsedQuery {
  const decoded = new Map<string, string[]>();
  const raw = new Map<string, string[]>();
  if (query.length === 0) return { decoded, raw };
  let start = 0;
  let pairs = 0;
  while (start <= query.length && pairs < maxPairs) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    if (end > start) {
      pairs++;
      const eq = query.indexOf('=', start);
      const hasValue = eq >= 0 && eq < end;
      const rawKey = query.slice(start, hasValue ? eq : end);
      const rawValue = hasValue ? query.slice(eq + 1, end) : '';
      const key = decodeComponent(rawKey);
      push(decoded, key, decodeComponent(rawValue));
      push(raw, key, rawValue);
    }
    start = end + 1;
  }
  return { decoded, raw };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Reads one value straight from a query string without building maps: the fast path for single-valued params. */
export function findQueryValue(query: string, name: string): string | undefined {
  let start = 0;
  const n = name.length;
  while (start < query.length) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    if (query.startsWith(name, start) && (start + n === end || query.charCodeAt(start + n) === 61) /* = */) {
      return start + n === end ? '' : query.slice(start + n + 1, end);
    }
    start = end + 1;
  }
  return undefined;
}
