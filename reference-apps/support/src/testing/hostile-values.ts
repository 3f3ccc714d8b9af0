/** What the corpus throws at an app: strings, JSON texts and media types, named so a failure says which one it was. */

export interface Named<T> {
  readonly name: string;
  readonly value: T;
}

/** A small seeded generator (mulberry32): the same seed gives the same corpus on every machine. */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  integer(below: number): number {
    return Math.floor(this.next() * below);
  }

  /** Code units from every plane: ASCII, controls, Latin, CJK, surrogates (paired and lone), emoji, noncharacters. */
  unicodeString(length: number): string {
    const ranges: Array<[number, number]> = [
      [0x00, 0x1f],
      [0x20, 0x7e],
      [0x7f, 0x9f],
      [0xa0, 0x24f],
      [0x300, 0x36f],
      [0x4e00, 0x9fff],
      [0xd800, 0xdfff],
      [0xfff0, 0xffff],
      [0x1f300, 0x1faff],
      [0x20000, 0x2a6df],
    ];
    let text = '';
    for (let index = 0; index < length; index++) {
      const [low, high] = ranges[this.integer(ranges.length)];
      const point = low + this.integer(high - low + 1);
      text += point > 0xffff ? String.fromCodePoint(point) : String.fromCharCode(point);
    }
    return text;
  }
}

/** Strings for every string field, path segment, query value and header value an app reads. */
export function hostileStrings(random: SeededRandom): Named<string>[] {
  return [
    { name: 'empty', value: '' },
    { name: 'whitespace only', value: ' \t ' },
    { name: 'NUL', value: '\u0000' },
    { name: 'NUL inside', value: 'ab\u0000cd' },
    { name: 'control characters', value: '\u0001\u0007\u001b[31m\u007f\u0085' },
    { name: 'CR LF header injection', value: 'a\r\nSet-Cookie: evil=1' },
    { name: 'emoji ZWJ sequence', value: '\u{1F39F}\uFE0F\u{1F469}\u200D\u{1F469}\u200D\u{1F467}' },
    { name: 'lone high surrogate', value: 'a\uD800b' },
    { name: 'reversed surrogate pair', value: '\uDC00\uD800' },
    { name: 'right-to-left override', value: '\u202Egnp.exe' },
    { name: 'combining marks', value: 'Z\u0334\u0321\u032A\u034E\u0344\u030Fa\u0337l\u0338g\u0335o' },
    { name: 'astral CJK', value: '\u{2070E}\u{20731}\u{20779}' },
    { name: 'BOM and zero-width', value: '\uFEFF\u200B\u200D' },
    { name: 'noncharacters', value: '\uFFFF\uFFFE\u{10FFFF}' },
    { name: 'decomposed accent', value: 'Cafe\u0301' },
    { name: 'long ASCII (10,000)', value: 'x'.repeat(10_000) },
    { name: 'long multi-byte (20,000 euro signs)', value: '\u20AC'.repeat(20_000) },
    { name: 'SQL quote', value: "' OR '1'='1' --" },
    { name: 'path traversal', value: '../../../etc/passwd' },
    { name: 'HTML', value: '<script>alert(1)</script>' },
    { name: 'template and format', value: '%s%n%x{0}${7*7}{{7*7}}' },
    { name: '__proto__', value: '__proto__' },
    { name: 'number-like overflow', value: '1e309' },
    { name: 'negative zero', value: '-0' },
    { name: 'random unicode A', value: random.unicodeString(16) },
    { name: 'random unicode B', value: random.unicodeString(64) },
    { name: 'random unicode C', value: random.unicodeString(256) },
  ];
}

/** Values that are not what a field expects (for every field, string or not). */
export function wrongTypes(): Named<unknown>[] {
  return [
    { name: 'null', value: null },
    { name: 'false', value: false },
    { name: 'zero', value: 0 },
    { name: 'negative', value: -1 },
    { name: 'fraction', value: 0.5 },
    { name: 'largest double', value: 1.7976931348623157e308 },
    // biome-ignore lint/correctness/noPrecisionLoss: the value is meant to lose precision
    { name: 'beyond safe integer', value: 9007199254740993 },
    { name: 'empty array', value: [] },
    { name: 'empty object', value: {} },
    { name: 'array of 10,000', value: Array.from({ length: 10_000 }, () => 1) },
  ];
}

/** Percent-encodes a string for a path segment or query value; lone surrogates become the invalid UTF-8 they would be. */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const point = char.codePointAt(0)!;
    if (point >= 0xd800 && point <= 0xdfff) {
      out += `%${(0xe0 | (point >> 12)).toString(16).toUpperCase()}%${(0x80 | ((point >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (point & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    }
  }
  return out;
}

/** Path segments and query values sent as they are (already on the wire form): encodings a decoder may choke on. */
export const RAW_URL_PIECES: readonly Named<string>[] = [
  { name: 'encoded NUL', value: '%00' },
  { name: 'invalid percent-encoding', value: '%ZZ%' },
  { name: 'truncated percent-encoding', value: 'a%2' },
  { name: 'overlong UTF-8 dots', value: '%C0%AE%C0%AE' },
  { name: 'invalid UTF-8 byte', value: '%FF%FE' },
  { name: 'encoded surrogate', value: '%ED%A0%80' },
  { name: 'encoded slash traversal', value: '..%2F..%2Fetc%2Fpasswd' },
  { name: 'double-encoded dots', value: '%252e%252e' },
  { name: 'matrix parameter', value: 'a;b=c' },
  { name: 'encoded CR LF', value: 'a%0D%0ASet-Cookie:%20evil=1' },
  { name: 'long (8,000)', value: 'a'.repeat(8_000) },
];

/** Bodies that are not JSON (each must be refused by a route that reads JSON). */
export function malformedJsonBodies(): Named<Buffer>[] {
  const texts: Array<[string, string]> = [
    ['unclosed object', '{'],
    ['lone closing brace', '}'],
    ['missing value', '{"a":'],
    ['trailing comma', '{"a":1,}'],
    ['single quotes', "{'a':1}"],
    ['unquoted key', '{a:1}'],
    ['extra closing brace', '{"a":1}}'],
    ['trailing garbage', '{"a":1} x'],
    ['two documents', '{}{}'],
    ['NaN', 'NaN'],
    ['Infinity', '{"a":Infinity}'],
    ['unclosed array', '[1,2'],
    ['bad escape', '{"a":"\\x00"}'],
    ['truncated unicode escape', '{"a":"\\u12"}'],
    ['raw control character in string', '{"a":"\u0001"}'],
    ['raw NUL', '\u0000'],
    ['comment', '{"a":1 /* c */}'],
    ['leading zero', '{"a":01}'],
    ['lone minus', '-'],
    ['HTML', '<html></html>'],
  ];
  return [
    ...texts.map(([name, text]) => ({ name, value: Buffer.from(text, 'utf8') })),
    { name: 'UTF-16 encoded', value: Buffer.from('{"a":1}', 'utf16le') },
  ];
}

/**
 * JSON whose strings hold bytes that are not UTF-8. Readers decode them as U+FFFD (as Node's Buffer does), so the
 * body is valid JSON to the app: it is judged like any other body, not as malformed.
 */
export const INVALID_UTF8_JSON: Named<Buffer> = {
  name: 'invalid UTF-8 in a string',
  value: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
};

/** Valid JSON that is no object: the smallest bodies. */
export const TINY_BODIES: readonly Named<Buffer>[] = [
  { name: 'empty', value: Buffer.alloc(0) },
  { name: 'one space', value: Buffer.from(' ') },
  { name: 'null', value: Buffer.from('null') },
  { name: 'true', value: Buffer.from('true') },
  { name: 'zero', value: Buffer.from('0') },
  { name: 'empty string', value: Buffer.from('""') },
  { name: 'empty array', value: Buffer.from('[]') },
  { name: 'empty object', value: Buffer.from('{}') },
];

export function deepArray(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

export function deepObject(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Nested JSON at the depths that broke recursive code before, and as deep as the body limit allows. */
export function deepJsonBodies(bodyLimit: number): Named<Buffer>[] {
  const arrays = [1_000, 5_000, 20_000, Math.floor(bodyLimit / 2) - 8].filter((depth) => depth * 2 <= bodyLimit);
  const objects = [1_000, 5_000, Math.floor(bodyLimit / 6) - 8].filter((depth) => depth * 6 + 1 <= bodyLimit);
  return [
    ...arrays.map((depth) => ({ name: `arrays ${depth} deep`, value: Buffer.from(deepArray(depth)) })),
    ...objects.map((depth) => ({ name: `objects ${depth} deep`, value: Buffer.from(deepObject(depth)) })),
    { name: 'object holding arrays 5,000 deep', value: Buffer.from(`{"a":${deepArray(5_000)}}`) },
  ];
}

/** Content-Types for a body; `json` says whether the type names JSON (so a JSON-only route may accept it). */
export const MEDIA_TYPES: readonly Named<{ type: string | undefined; json: boolean }>[] = [
  { name: 'no Content-Type', value: { type: undefined, json: false } },
  { name: 'text/plain', value: { type: 'text/plain', json: false } },
  { name: 'text/plain; charset=utf-8', value: { type: 'text/plain; charset=utf-8', json: false } },
  { name: 'form', value: { type: 'application/x-www-form-urlencoded', json: false } },
  { name: 'multipart', value: { type: 'multipart/form-data; boundary=corpus', json: false } },
  { name: 'XML', value: { type: 'application/xml', json: false } },
  { name: 'octet-stream', value: { type: 'application/octet-stream', json: false } },
  { name: 'no subtype', value: { type: 'application/', json: false } },
  { name: 'bare word', value: { type: 'json', json: false } },
  { name: 'wildcard', value: { type: '*/*', json: false } },
  { name: 'upper case JSON', value: { type: 'APPLICATION/JSON', json: true } },
  { name: 'JSON with charset', value: { type: 'application/json; charset=utf-8', json: true } },
  { name: 'JSON declared UTF-16', value: { type: 'application/json; charset=utf-16', json: true } },
  { name: 'JSON with empty parameters', value: { type: 'application/json;;;', json: true } },
  { name: 'JSON with a NUL parameter', value: { type: 'application/json; x=\u0000', json: true } },
  { name: 'a list of types', value: { type: 'application/json, text/plain', json: true } },
];
