/**
 * The length check compiled validation runs for Length/MinLength/MaxLength, against class-validator's own `length`
 * (validator.js's count: a surrogate pair counts one, U+FE0E and U+FE0F count nothing). The fast path decides from
 * the first characters that count one whatever surrounds them; every string here where that could go wrong (the
 * special characters first, pairs split, a string made only of them) must agree with the package.
 */
import test from 'ava';
import fc from 'fast-check';
import { length as packageLength } from 'class-validator';
import * as classValidator from 'class-validator';
import { lengthWithin } from '../../src/features/validation/compiled/string-length';
import { KNOWN_CONSTRAINTS } from '../../src/features/validation/compiled/known-constraints';
import { ConstantTable, strictSource } from '../../src/features/validation/compiled/js-code';
import { isEnum, isIn } from '../../src/features/validation/compiled/known-constraints';

const SPECIAL = ['\uD83D', '\uDE00', '\uD83D\uDE00', '\uFE0E', '\uFE0F', 'a', 'Z', '\u00E9', '\uFFFF'];

function agree(t: import('ava').ExecutionContext, s: string, min: number, max: number | undefined): void {
  const exact = (text: string) => packageLength(text, min, max as number);
  t.is(
    lengthWithin(s, min, max, exact),
    packageLength(s, min, max as number),
    `${JSON.stringify(s)} within ${min}..${max}`,
  );
}

test('strings made of the characters that count specially agree with class-validator at every bound', (t) => {
  const strings = [
    '',
    'a',
    '\uFE0F\uFE0F\uFE0Fa',
    '\uFE0F\uFE0F\uFE0F',
    '\uD83D\uDE00\uD83D\uDE00',
    'a\uFE0F',
    '\uDE00\uD83D',
    '\uD83Da',
    'ab\uD83D\uDE00c',
  ];
  for (const s of strings)
    for (let min = 0; min <= 5; min++) for (const max of [undefined, min, min + 1, 3, 10]) agree(t, s, min, max);
});

test('generated strings of ordinary and special characters agree with class-validator', (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...SPECIAL), { maxLength: 12 }),
      fc.nat(8),
      fc.option(fc.nat(12), { nil: undefined }),
      (parts, min, max) => {
        const s = parts.join('');
        const exact = (text: string) => packageLength(text, min, max as number);
        return lengthWithin(s, min, max, exact) === packageLength(s, min, max as number);
      },
    ),
    { numRuns: 3000 },
  );
  t.pass();
});

test('a string whose first character counts one passes a minimum of one without the exact count', (t) => {
  let asked = 0;
  const exact = () => {
    asked++;
    return false;
  };
  t.true(lengthWithin('x' + '\uFE0F'.repeat(150), 1, 200, exact));
  t.is(asked, 0);
  t.false(
    lengthWithin('\uFE0F'.repeat(150), 1, 200, exact),
    'only characters that count nothing: the exact count decides',
  );
  t.is(asked, 1);
});

/** The check compiled validation writes for a constraint (its quick path at the call site, then `lengthWithin`). */
function compiledCheck(
  name: 'isLength' | 'minLength' | 'maxLength',
  constraints: unknown[],
): (value: unknown) => boolean {
  const k = new ConstantTable();
  const emit = KNOWN_CONSTRAINTS[name]!(constraints, k, classValidator)!;
  const make = new Function(
    'K',
    'lengthWithin',
    'isIn',
    'isEnum',
    strictSource(k, [`return function test(x) { return ${emit('x')}; };`]),
  );
  return make(k.values, lengthWithin, isIn, isEnum) as (value: unknown) => boolean;
}

test('the compiled Length, MinLength and MaxLength checks agree with class-validator, quick path and fallback alike', (t) => {
  const fixed = [
    '',
    'a',
    'abc',
    'abcdef',
    'abcdefgh',
    '\uFE0F\uFE0F\uFE0Fa',
    'a\uFE0F\uFE0F',
    '\uD83D\uDE00\uD83D\uDE00',
    'ab\uD83D\uDE00c',
    'abcd\uD83D\uDE00e',
    '\u00E9\u00E9\u00E9\u00E9\u00E9\u00E9',
  ];
  for (let min = 0; min <= 7; min++) {
    for (const max of [undefined, min, min + 2, 10]) {
      const length = compiledCheck('isLength', [min, max]);
      for (const s of fixed)
        t.is(length(s), classValidator.length(s, min, max as number), `${JSON.stringify(s)} Length(${min}, ${max})`);
    }
    const minLength = compiledCheck('minLength', [min]);
    const maxLength = compiledCheck('maxLength', [min]);
    for (const s of fixed) {
      t.is(minLength(s), classValidator.minLength(s, min), `${JSON.stringify(s)} MinLength(${min})`);
      t.is(maxLength(s), classValidator.maxLength(s, min), `${JSON.stringify(s)} MaxLength(${min})`);
    }
  }
  for (const value of [undefined, null, 5, ['abc'], new String('abc')])
    t.is(compiledCheck('isLength', [1, 5])(value), classValidator.length(value, 1, 5));
});

test('generated strings agree with class-validator through the compiled checks (minimums past the unrolled prefix included)', (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...SPECIAL), { maxLength: 12 }),
      fc.nat(8),
      fc.option(fc.nat(12), { nil: undefined }),
      (parts, min, max) => {
        const s = parts.join('');
        return compiledCheck('isLength', [min, max])(s) === classValidator.length(s, min, max as number);
      },
    ),
    { numRuns: 2000 },
  );
  t.pass();
});
