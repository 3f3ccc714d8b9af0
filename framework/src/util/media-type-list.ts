/**
 * Media type lists as decorators and `@Header` take them: each string may itself be a comma-separated list
 * (`'application/json, text/plain'`, the reference library's form); commas inside quoted parameters stay.
 */
export function splitMediaTypes(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of list) {
    let start = 0;
    let quoted = false;
    for (let i = 0; i <= item.length; i++) {
      const c = item[i];
      if (c === '"') quoted = !quoted;
      else if (i === item.length || (c === ',' && !quoted)) {
        const one = item.slice(start, i).trim();
        if (one.length > 0) out.push(one);
        start = i + 1;
      }
    }
  }
  return out;
}
