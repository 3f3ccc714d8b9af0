import { errors } from '../errors/factories';

/** One segment of a compiled path pattern. */
export type PatternSegment =
  | { kind: 'static'; value: string }
  | { kind: 'param'; name: string }
  /** A segment with a regex variable or several variables (`{id:\d+}`, `{name}.{ext}`): one anchored regex. */
  | { kind: 'regex'; names: string[]; regex: RegExp; source: string };

export interface PathPattern {
  /** As declared. */
  source: string;
  /** Leading slash, no trailing slash, no empty segments. */
  normalized: string;
  segments: PatternSegment[];
  /** Variable names in order of appearance. */
  paramNames: string[];
  isStatic: boolean;
  /** Variable names erased: two patterns with one shape match the same paths. */
  shape: string;
  /** A variable's regex can match `/`: the pattern is matched against the whole path. */
  spansSegments: boolean;
  /** The whole pattern as one anchored regex; groups are the variables in order. */
  regex: RegExp;
}

const NAME = /^[A-Za-z_$][\w$-]*$/;

/**
 * Compiles `/users/{id}`, `/users/:id`, `/files/{path:.+}`, `/items/:id:\d+` and mixed segments
 * such as `/{name}.{ext}`. Throws RegistrationError for malformed patterns.
 */
export function compilePathPattern(source: string, where = ''): PathPattern {
  const fail = (why: string): never => {
    throw errors.RU_ERR_MALFORMED_PATH(
      `Malformed route path ${JSON.stringify(source)}${where ? ` (${where})` : ''}: ${why}`,
    );
  };
  if (typeof source !== 'string') fail('not a string');
  const rawSegments = splitSegments(source, fail);
  const segments: PatternSegment[] = [];
  const paramNames: string[] = [];
  const shapeParts: string[] = [];
  const regexParts: string[] = [];
  let spansSegments = false;

  for (const raw of rawSegments) {
    const parts = parseSegment(raw, fail);
    for (const p of parts) {
      if (p.kind === 'var') {
        if (!NAME.test(p.name)) fail(`invalid variable name ${JSON.stringify(p.name)}`);
        if (paramNames.includes(p.name)) fail(`variable {${p.name}} appears twice`);
        paramNames.push(p.name);
        if (p.regex !== undefined) {
          try {
            new RegExp(p.regex);
          } catch (err) {
            fail(`invalid regular expression for {${p.name}}: ${(err as Error).message}`);
          }
          if (/\((?!\?)/.test(p.regex.replace(/\\./g, '')))
            fail(`the regex of {${p.name}} has a capturing group; use (?:...)`);
          if (canMatchSlash(p.regex)) spansSegments = true;
        }
      }
    }
    if (parts.length === 1 && parts[0]!.kind === 'text') {
      segments.push({ kind: 'static', value: parts[0]!.text });
      shapeParts.push(escapeShape(parts[0]!.text));
      regexParts.push(escapeRegex(parts[0]!.text));
    } else if (parts.length === 1 && parts[0]!.kind === 'var' && parts[0]!.regex === undefined) {
      segments.push({ kind: 'param', name: parts[0]!.name });
      shapeParts.push('{}');
      regexParts.push('([^/]+)');
    } else {
      const names: string[] = [];
      let src = '';
      let shape = '';
      for (const p of parts) {
        if (p.kind === 'text') {
          src += escapeRegex(p.text);
          shape += escapeShape(p.text);
        } else {
          names.push(p.name);
          src += p.regex === undefined ? '([^/]+?)' : `(${p.regex})`;
          shape += p.regex === undefined ? '{}' : `{:${p.regex}}`;
        }
      }
      segments.push({ kind: 'regex', names, regex: new RegExp(`^${src}$`), source: src });
      shapeParts.push(shape);
      regexParts.push(src);
    }
  }

  const normalized = '/' + rawSegments.join('/');
  return {
    source,
    normalized,
    segments,
    paramNames,
    isStatic: paramNames.length === 0,
    shape: '/' + shapeParts.join('/'),
    spansSegments,
    regex: new RegExp(`^/${regexParts.join('/')}$`),
  };
}

/** Joins a class path and a method path: `/users` + `{id}` -> `/users/{id}`. */
export function joinPaths(base: string | undefined, path: string): string {
  if (!base) return path;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

type SegmentPart = { kind: 'text'; text: string } | { kind: 'var'; name: string; regex?: string };

function splitSegments(source: string, fail: (why: string) => never): string[] {
  // Split on '/' outside braces, so regexes such as {path:.+/x} stay whole.
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of source) {
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth < 0) fail('unbalanced "}"');
    }
    if (ch === '/' && depth === 0) {
      if (current.length > 0) out.push(current);
      current = '';
    } else current += ch;
  }
  if (depth !== 0) fail('unbalanced "{"');
  if (current.length > 0) out.push(current);
  return out;
}

function parseSegment(raw: string, fail: (why: string) => never): SegmentPart[] {
  // Colon style: a segment starting with ':' is one variable, optionally ':name:regex'.
  if (raw.startsWith(':')) {
    const rest = raw.slice(1);
    const colon = rest.indexOf(':');
    if (colon < 0) return [{ kind: 'var', name: rest }];
    const regex = rest.slice(colon + 1);
    if (regex.length === 0) fail(`empty regex for :${rest.slice(0, colon)}`);
    return [{ kind: 'var', name: rest.slice(0, colon), regex }];
  }
  const parts: SegmentPart[] = [];
  let i = 0;
  let text = '';
  while (i < raw.length) {
    const ch = raw[i]!;
    if (ch !== '{') {
      text += ch;
      i++;
      continue;
    }
    if (text) parts.push({ kind: 'text', text });
    text = '';
    let depth = 1;
    let j = i + 1;
    for (; j < raw.length && depth > 0; j++) {
      if (raw[j] === '\\') j++;
      else if (raw[j] === '{') depth++;
      else if (raw[j] === '}') depth--;
    }
    const inner = raw.slice(i + 1, j - 1);
    const colon = inner.indexOf(':');
    if (colon < 0) parts.push({ kind: 'var', name: inner.trim() });
    else {
      const regex = inner.slice(colon + 1).trim();
      if (regex.length === 0) fail(`empty regex for {${inner.slice(0, colon)}}`);
      parts.push({ kind: 'var', name: inner.slice(0, colon).trim(), regex });
    }
    i = j;
  }
  if (text) parts.push({ kind: 'text', text });
  if (parts.length === 0) fail('empty segment');
  return parts;
}

const SLASHED_SAMPLES = ['a/b', '/', '1/2', 'a/b/c', 'x/'];

function canMatchSlash(regex: string): boolean {
  const r = new RegExp(`^(?:${regex})$`);
  return SLASHED_SAMPLES.some((s) => r.test(s));
}

/** Whether a segment's variable can take in `/` (the pattern then matches more than one path segment there). */
export function segmentSpans(segment: PatternSegment): boolean {
  return segment.kind === 'regex' && SLASHED_SAMPLES.some((s) => segment.regex.test(s));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function escapeShape(text: string): string {
  return text.replace(/[{}\\]/g, '\\$&');
}
