/**
 * The length check compiled validation runs for Length/MinLength/MaxLength, against class-validator's own `length`
 * (validator.js's count: a surrogate pair counts one, U+FE0E and U+FE0F count nothing). The fast path decides from
 * the first characters that count one whatever surrounds them; every string here where that could go wrong (the
 * special characters first, pairs split, a string made only of them) must agree with the package.
 */
import test from 'ava';
import fc from 'fast-check';
import { length as packageLength } from 'class-validator';
import { lengthWithin } from '../../src/features/validation/compiled/string-length';

const SPECIAL = ['\uD83D', '\uDE00', '\uD83D\uDE00', '\uFE0E', '\uFE0F', 'a', 'Z', '\u00E9', '\uFFFF'];

function agree(t: import('ava').ExecutionContext, s: string, min: number, max: number | undefined): void {
  const exact = (text: string) => packageLength(text, min, max as number);
  t.is(lengthWithin(s, min, max, exact), packageLength(s, min, max as number), `${JSON.stringify(s)} within ${min}..${max}`);
}

test('strings made of the characters that count specially agree with class-validator at every bound', (t) => {
  const strings = ['', 'a', '\uFE0F\uFE0F\uFE0Fa', '\uFE0F\uFE0F\uFE0F', '\uD83D\uDE00\uD83D\uDE00', 'a\uFE0F', '\uDE00\uD83D', '\uD83Da', 'ab\uD83D\uDE00c'];
  for (const s of strings) for (let min = 0; min <= 5; min++) for (const max of [undefined, min, min + 1, 3, 10]) agree(t, s, min, max);
});

test('generated strings of ordinary and special characters agree with class-validator', (t) => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...SPECIAL), { maxLength: 12 }), fc.nat(8), fc.option(fc.nat(12), { nil: undefined }), (parts, min, max) => {
      const s = parts.join('');
      const exact = (text: string) => packageLength(text, min, max as number);
      return lengthWithin(s, min, max, exact) === packageLength(s, min, max as number);
    }),
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
  t.false(lengthWithin('\uFE0F'.repeat(150), 1, 200, exact), 'only characters that count nothing: the exact count decides');
  t.is(asked, 1);
});
