/** An OpenAPI path template and the regexes its variables were declared with. */
export interface PathTemplate {
  /** `/users/{id}`: OpenAPI's syntax, whatever style the route used. */
  template: string;
  /** Variable name -> its declared regex (OpenAPI `pattern`, anchored). */
  patterns: Map<string, string>;
}

/**
 * Rewrites a route path (`/items/{id:\d+}`, `/items/:id`, `/items/:id:\d+`, `/{name}.{ext}`) as an
 * OpenAPI path template, keeping each regex for the parameter's schema.
 */
export function pathTemplate(path: string): PathTemplate {
  const patterns = new Map<string, string>();
  const segments = splitOutsideBraces(path).map((segment) => {
    if (segment.startsWith(':')) {
      const rest = segment.slice(1);
      const colon = rest.indexOf(':');
      const name = colon < 0 ? rest : rest.slice(0, colon);
      if (colon >= 0) patterns.set(name, rest.slice(colon + 1));
      return `{${name}}`;
    }
    let out = '';
    for (let i = 0; i < segment.length; i++) {
      if (segment[i] !== '{') {
        out += segment[i];
        continue;
      }
      let depth = 1;
      let j = i + 1;
      for (; j < segment.length && depth > 0; j++) {
        if (segment[j] === '\\') j++;
        else if (segment[j] === '{') depth++;
        else if (segment[j] === '}') depth--;
      }
      const inner = segment.slice(i + 1, j - 1);
      const colon = inner.indexOf(':');
      const name = (colon < 0 ? inner : inner.slice(0, colon)).trim();
      if (colon >= 0) patterns.set(name, inner.slice(colon + 1).trim());
      out += `{${name}}`;
      i = j - 1;
    }
    return out;
  });
  return { template: '/' + segments.join('/'), patterns };
}

function splitOutsideBraces(path: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of path) {
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    if (ch === '/' && depth === 0) {
      if (current.length > 0) out.push(current);
      current = '';
    } else current += ch;
  }
  if (current.length > 0) out.push(current);
  return out;
}
