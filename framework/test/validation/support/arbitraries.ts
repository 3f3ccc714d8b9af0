/**
 * fast-check generators of request-like plain objects for the equivalence DTOs: each field gets a
 * value that fits, a value of the wrong type, null, or nothing at all; nested fields get objects,
 * arrays of objects, arrays of arrays, primitives; sometimes an unknown key is added.
 */
import fc from 'fast-check';

/** Strings that sit on the edges of the constraints (lengths, patterns, formats, surrogate pairs). */
const edgeStrings = fc.constantFrom(
  '',
  ' ',
  'a',
  'ab',
  'abc',
  'abcd',
  'abcdefghi',
  'x'.repeat(12),
  'yes',
  'no',
  'red',
  'green',
  'blue',
  'skip',
  'forbidden',
  '0',
  '1',
  '12345',
  '1234',
  'AB',
  'ab',
  'Ab',
  'abbb',
  'test@example.com',
  'nope@',
  'a@b.co',
  '550e8400-e29b-41d4-a716-446655440000',
  'a0eebc99-9c0b-11d1-b9d7-0800200c9a66',
  '2024-01-31',
  '2024-01-31T10:20:30Z',
  '2024-13-45',
  'https://example.com/x',
  'example',
  'ftp://x.y',
  '\uD83D\uDE00\uD83D\uDE00',
  'a\uFE0F',
  'x',
  '$value',
  '$1',
);

const numbers = fc.oneof(
  fc.integer({ min: -3, max: 12 }),
  fc.constantFrom(0, -0, 0.5, 1.25, 1.255, 2.5, -1.5, 1e21, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 2),
  fc.double({ noDefaultInfinity: false }),
);

/** Any scalar a JSON body (or a converted value) could carry. */
export const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: edgeStrings },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 3, arbitrary: numbers },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Anything, nested a little: scalars, arrays, objects. */
export const wild: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(
        fc.constantFrom('name', 'weight', 'city', 'zip', 'country', 'x', 'constructor', '0'),
        tie('value'),
        { maxKeys: 3 },
      ),
    },
  ),
})).value;

/** A field of a generated object: a preferred value, something wild, or nothing. */
export type FieldSpec = Record<string, fc.Arbitrary<unknown>>;

/** Plain objects with the given fields, each one maybe missing, sometimes with an unknown key. */
export function plainObject(fields: FieldSpec): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields).map(
    ([key, preferred]) => [key, fc.oneof({ weight: 3, arbitrary: preferred }, { weight: 1, arbitrary: wild })] as const,
  );
  return fc
    .tuple(
      fc.record(Object.fromEntries(entries), { requiredKeys: [] }),
      fc.option(fc.tuple(fc.constantFrom('extra', 'isAdmin', '0', 'hasOwnProperty', 'toString'), scalar), { freq: 4 }),
    )
    .map(([record, extra]) => {
      const out: Record<string, unknown> = { ...record };
      if (extra !== null) out[extra[0]] = extra[1];
      return out;
    });
}

const tag = plainObject({ name: fc.oneof(edgeStrings, fc.string({ maxLength: 10 })), weight: numbers });
const address = plainObject({
  city: edgeStrings,
  zip: fc.constantFrom('12345', '1234', 'abcde'),
  country: fc.constantFrom('DE', 'de', 'D', 'DEU'),
});
const tags = fc.oneof(
  fc.array(fc.oneof({ weight: 4, arbitrary: tag }, { weight: 1, arbitrary: wild }), { maxLength: 4 }),
  tag,
);
const numberList = fc.array(fc.oneof(numbers, scalar), { maxLength: 4 });

/** A Tree node with children down to `depth` levels (some of them not objects at all). */
function tree(depth: number): fc.Arbitrary<Record<string, unknown>> {
  const children =
    depth === 0
      ? fc.constant([])
      : fc.array(fc.oneof({ weight: 3, arbitrary: tree(depth - 1) }, { weight: 1, arbitrary: scalar }), {
          maxLength: 3,
        });
  return plainObject({ name: edgeStrings, children });
}

/** Generators per DTO class name (see equivalence-dtos.ts). */
export const PLAIN_OBJECTS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  Tag: tag,
  Address: address,
  Everything: plainObject({
    s: edgeStrings,
    i: numbers,
    n: numbers,
    loose: numbers,
    money: numbers,
    b: fc.boolean(),
    empty: fc.constantFrom('', null, 'x'),
    oneOf: fc.constantFrom('a', 'b', 1, '1', 'c'),
    notOneOf: fc.constantFrom('x', 0, 'y', -0),
    color: fc.constantFrom('red', 'green', 'Red', 'blue'),
    level: fc.constantFrom(1, 2, 3, 'Low', 'High', '1'),
    pos: numbers,
    neg: numbers,
    yes: fc.constantFrom('yes', 'Yes'),
    notZero: numbers,
    email: edgeStrings,
    uuid: edgeStrings,
    uuid4: edgeStrings,
    iso: edgeStrings,
    date: edgeStrings,
    url: edgeStrings,
    list: fc.array(scalar, { maxLength: 5 }),
    strings: fc.array(edgeStrings, { maxLength: 4 }),
    ints: numberList,
    address: fc.oneof(address, fc.array(address, { maxLength: 2 })),
    tags,
    maybeTag: tag,
  }),
  Messages: plainObject({
    a: edgeStrings,
    b: numbers,
    c: numbers,
    d: edgeStrings,
    e: edgeStrings,
    f: fc.oneof(tag, scalar),
    g: scalar,
    h: numberList,
  }),
  Grouped: plainObject({ a: edgeStrings, b: numbers, c: scalar, d: numbers, e: edgeStrings, f: fc.boolean() }),
  Conditional: plainObject({
    flag: fc.boolean(),
    reason: edgeStrings,
    count: fc.oneof(numbers, fc.constant('skip')),
    tag,
    limited: numbers,
  }),
  RestUwsFields: plainObject({
    a: numbers,
    b: edgeStrings,
    c: fc.oneof(edgeStrings, fc.array(scalar, { maxLength: 4 })),
    d: edgeStrings,
    e: edgeStrings,
    f: scalar,
    g: fc.oneof(edgeStrings, fc.array(scalar, { maxLength: 2 })),
    h: numberList,
  }),
  Custom: plainObject({
    odd: numbers,
    threes: fc.oneof(numbers, numberList),
    text: edgeStrings,
    atLeastTwo: numbers,
    evens: numberList,
  }),
  Base: plainObject({ id: edgeStrings, version: numbers, note: edgeStrings }),
  Derived: plainObject({ id: edgeStrings, version: numbers, note: edgeStrings, extra: edgeStrings }),
  Tree: tree(3),
  Allowed: plainObject({ free: wild, s: edgeStrings }),
  Grid: plainObject({
    rows: fc.array(fc.oneof(fc.array(fc.oneof(tag, scalar), { maxLength: 3 }), tag, scalar), { maxLength: 3 }),
  }),
  Twice: plainObject({ x: scalar, y: numbers, z: fc.oneof(numbers, edgeStrings) }),
  Empty: plainObject({ anything: wild }),
  Contexts: plainObject({
    a: fc.oneof(edgeStrings, fc.constant('skip')),
    b: fc.constantFrom('x', 'y', 'z', null),
    c: numbers,
    tags: fc.oneof(tags, tag, scalar),
    d: fc.oneof(numbers, numberList),
    e: scalar,
    f: fc.boolean(),
  }),
};
