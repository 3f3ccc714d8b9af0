/**
 * Before a constraint is written out as inline JavaScript, the inline test and the constraint's real
 * `validate` are run on the same values; any difference (a custom decorator that happens to reuse a
 * built-in name, a package version that changed a check) keeps the real `validate`.
 */

const BASE_PROBES: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  2,
  3,
  0.5,
  -2.5,
  999.99,
  1e21,
  2 ** 53,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  NaN,
  Infinity,
  -Infinity,
  10n,
  '',
  ' ',
  'a',
  'ab',
  'abc',
  'A',
  'AB',
  'ABC',
  'EUR',
  'USD',
  'GB',
  'abc-123',
  'BOOK-0001',
  '0',
  '1',
  '-1',
  '1.5',
  'true',
  'null',
  'x'.repeat(64),
  'x'.repeat(5000),
  '\uD83D\uDE00',
  'a\uFE0F',
  '\uD83D\uDE00\uFE0F',
  'e\u0301',
  '\uD800',
  'test@example.com',
  'a.b+c@sub.example.org',
  'not an email',
  'a@b',
  '550e8400-e29b-41d4-a716-446655440000',
  'a0eebc99-9c0b-11d1-b9d7-0800200c9a66',
  '550E8400-E29B-41D4-A716-446655440000',
  '550e8400e29b41d4a716446655440000',
  '2024-01-31',
  '2024-01-31T10:20:30Z',
  '2024-01-31T10:20:30.123+02:00',
  '2024-13-45',
  '2024-02-30',
  '20240131',
  'https://example.com/x?y=1',
  'http://localhost:8080',
  'ftp://example.com',
  'example.com',
  'http://',
  'javascript:alert(1)',
  [],
  [1],
  [1, 2, 3],
  ['a', 'b'],
  [null],
  [undefined],
  [[]],
  {},
  { a: 1 },
  new Date(0),
  new String('s'),
  new Number(3),
  new Boolean(false),
  new Set([1]),
  new Map([[1, 2]]),
  Symbol.for('probe'),
  () => true,
];

/** Values around the numbers and next to the values a constraint mentions. */
function derivedProbes(constraints: readonly unknown[] | undefined): unknown[] {
  const out: unknown[] = [];
  const visit = (c: unknown, depth: number): void => {
    if (typeof c === 'number' && Number.isFinite(c)) {
      out.push(c - 1, c - 0.5, c, c + 0.5, c + 1);
      if (c >= 0 && c <= 10_000) {
        const n = Math.floor(c);
        for (const len of [n - 1, n, n + 1]) {
          if (len < 0) continue;
          out.push('x'.repeat(len), '\uD83D\uDE00'.repeat(len), new Array(len).fill(1));
        }
      }
    } else if (typeof c === 'string' || typeof c === 'boolean' || typeof c === 'bigint') {
      out.push(c);
    } else if (Array.isArray(c) && depth < 2) {
      for (const v of c.slice(0, 64)) visit(v, depth + 1);
    } else if (c !== null && typeof c === 'object' && depth < 2 && !(c instanceof RegExp)) {
      for (const v of Object.values(c).slice(0, 64)) visit(v, depth + 1);
    }
  };
  for (const c of constraints ?? []) visit(c, 0);
  return out;
}

/** Do `inline` and `reference` agree (same truthiness, same throwing) on every probe value? */
export function agreesOnProbes(
  inline: (value: unknown) => unknown,
  reference: (value: unknown) => unknown,
  constraints: readonly unknown[] | undefined,
): boolean {
  for (const probe of [...BASE_PROBES, ...derivedProbes(constraints)]) {
    let expected: boolean | 'threw';
    let actual: boolean | 'threw';
    try {
      const r = reference(probe);
      if (r !== null && typeof r === 'object' && typeof (r as { then?: unknown }).then === 'function') return false; // asynchronous: not inlined
      expected = !!r;
    } catch {
      expected = 'threw';
    }
    try {
      actual = !!inline(probe);
    } catch {
      actual = 'threw';
    }
    if (expected !== actual) return false;
  }
  return true;
}
