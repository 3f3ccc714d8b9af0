/** A parsed media type: `type/subtype` in lower case, without parameters, plus its quality. */
interface MediaRange {
  type: string;
  subtype: string;
  /** `type/subtype` */
  essence: string;
  q: number;
  params: Record<string, string>;
}

/** `text/html; charset=utf-8` -> `text/html`. */
export function mediaEssence(value: string): string {
  const semi = value.indexOf(';');
  return (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
}

function parseMediaType(value: string): MediaRange {
  const parts = value.split(';');
  const essence = parts[0]!.trim().toLowerCase();
  const slash = essence.indexOf('/');
  const type = slash < 0 ? essence : essence.slice(0, slash);
  const subtype = slash < 0 ? '*' : essence.slice(slash + 1);
  const params: Record<string, string> = {};
  let q = 1;
  for (let i = 1; i < parts.length; i++) {
    const eq = parts[i]!.indexOf('=');
    if (eq < 0) continue;
    const k = parts[i]!.slice(0, eq).trim().toLowerCase();
    const v = parts[i]!.slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (k === 'q') {
      const n = Number(v);
      q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
    } else params[k] = v;
  }
  return { type, subtype, essence: `${type}/${subtype}`, q, params };
}

/** Accept header -> ranges sorted by quality then specificity. */
function parseAccept(header: string): MediaRange[] {
  const ranges = header
    .split(',')
    .filter((s) => s.trim().length > 0)
    .map(parseMediaType);
  return ranges.sort((a, b) => b.q - a.q || specificity(b) - specificity(a));
}

function specificity(r: MediaRange): number {
  return (r.type === '*' ? 0 : 2) + (r.subtype === '*' ? 0 : 1);
}

/** Does `range` (possibly with wildcards) accept the concrete `type/subtype`? */
function rangeMatches(range: MediaRange, essence: string): boolean {
  if (range.type === '*') return true;
  const slash = essence.indexOf('/');
  const type = essence.slice(0, slash);
  if (range.type !== type) return false;
  if (range.subtype === '*') return true;
  const subtype = essence.slice(slash + 1);
  if (range.subtype === subtype) return true;
  // application/*+json style suffix match, e.g. an Accept of application/json serves application/problem+json.
  return subtype.endsWith('+' + range.subtype);
}

const acceptCache = new Map<string, MediaRange[]>();

/** Parsed Accept headers are cached: clients send the same few values over and over. */
function cachedAccept(header: string): MediaRange[] {
  let r = acceptCache.get(header);
  if (r === undefined) {
    if (acceptCache.size > 256) acceptCache.clear();
    r = parseAccept(header);
    acceptCache.set(header, r);
  }
  return r;
}

const producedCache = new Map<string, MediaRange>();

/** A produced media type, parsed once: produced types are the routes' own constants. */
function producedType(produced: string): MediaRange {
  let p = producedCache.get(produced);
  if (p === undefined) producedCache.set(produced, (p = parseMediaType(produced)));
  return p;
}

/** How well a range's parameters fit a produced type: 0.5 when it names parameters and the type has them all. */
function parameterFit(range: MediaRange, produced: MediaRange): number {
  let named = false;
  for (const k in range.params) {
    named = true;
    const v = produced.params[k];
    if (v === undefined || v.toLowerCase() !== range.params[k]!.toLowerCase()) return 0;
  }
  return named ? 0.5 : 0;
}

/**
 * Picks the produced media type the client accepts best; `undefined` means none (406). The most specific
 * matching range decides a type's quality (RFC 9110 12.5.1), parameters included, so asking for
 * `text/plain;charset=UTF-8` gets that variant over a plain `text/plain`; between equal qualities the type
 * matched more specifically wins, then the first produced. Without an Accept header (or with a wildcard)
 * the first produced type wins.
 */
export function negotiate(accept: string | undefined, produces: readonly string[]): string | undefined {
  if (produces.length === 0) return undefined;
  if (accept === undefined || accept === '' || accept === '*/*') return produces[0];
  const ranges = cachedAccept(accept);
  let best: string | undefined;
  let bestQ = 0;
  let bestFit = -1;
  for (const produced of produces) {
    const type = producedType(produced);
    let q = 0;
    let fit = -1;
    for (const range of ranges) {
      if (rangeMatches(range, type.essence)) {
        const s = specificity(range) + parameterFit(range, type);
        if (s > fit) {
          fit = s;
          q = range.q;
        }
      }
    }
    if (q > bestQ || (q > 0 && q === bestQ && fit > bestFit)) {
      bestQ = q;
      bestFit = fit;
      best = produced;
    }
  }
  return bestQ > 0 ? best : undefined;
}

/** Does the client accept this media type at all (used to pick JSON or text for error bodies)? */
export function accepts(accept: string | undefined, essence: string): boolean {
  if (accept === undefined || accept === '') return true;
  for (const r of cachedAccept(accept)) if (r.q > 0 && rangeMatches(r, essence)) return true;
  return false;
}

/** Common media types, as in JAX-RS's `MediaType` (`@Produces(MediaType.APPLICATION_JSON)`). */
export const MediaType = {
  /** `application/json` */
  APPLICATION_JSON: 'application/json',
  /** `text/plain` */
  TEXT_PLAIN: 'text/plain',
  /** `text/html` */
  TEXT_HTML: 'text/html',
  /** `application/x-www-form-urlencoded` */
  APPLICATION_FORM_URLENCODED: 'application/x-www-form-urlencoded',
  /** `multipart/form-data` */
  MULTIPART_FORM_DATA: 'multipart/form-data',
  /** `application/octet-stream` */
  APPLICATION_OCTET_STREAM: 'application/octet-stream',
  /** The wildcard: any media type. */
  WILDCARD: '*/*',
} as const;
