import test from 'ava';
import fc from 'fast-check';
import { converterFor } from '../../src/io/value-conversion';
import { ArgumentException } from '../../src/errors/http-errors';
import { GET, Path, QueryParam, RestBuilder, inject } from '../../src/index';

enum Color {
  Red = 'red',
  Blue = 'blue',
}
enum Level {
  Low,
  High,
}
class Money {
  constructor(readonly v: string) {
    if (!/^\d+$/.test(v)) throw new Error('digits only');
  }
}
class Code {
  static fromString(s: string) {
    if (s.length > 3) throw new RangeError('too long');
    return new Code();
  }
}

const types: Array<[string, Parameters<typeof converterFor>[0]]> = [
  ['string', String],
  ['number', Number],
  ['boolean', Boolean],
  ['bigint', BigInt],
  ['Date', Date],
  ['string enum', Color],
  ['numeric enum', Level],
  ['constructor', Money],
  ['fromString', Code],
];

test('every converter returns a value or throws ArgumentException (400) for any string', (t) => {
  for (const [name, type] of types) {
    const convert = converterFor(type)!;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        try {
          convert(s, `@QueryParam("${name}")`);
          return true;
        } catch (err) {
          return err instanceof ArgumentException && err.status === 400;
        }
      }),
      { numRuns: 1500 },
    );
  }
  t.pass();
});

test('numbers convert exactly when the text is a decimal number; plain integers beyond the safe range are 400', (t) => {
  const convert = converterFor(Number)!;
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
      const text = String(n);
      // Plain digits past ±2^53-1 would lose their last digits: refused, a bigint parameter takes them.
      if (/^-?\d+$/.test(text) && !Number.isSafeInteger(n)) {
        try {
          convert(text, 'n');
          return false;
        } catch (err) {
          return err instanceof ArgumentException && err.status === 400;
        }
      }
      return Object.is(convert(text, 'n'), n) || (n === 0 && convert(text, 'n') === 0);
    }),
  );
  fc.assert(
    fc.property(fc.constantFrom(-9007199254740992, 9007199254740992, 1e20), (n) => {
      try {
        convert(String(n), 'n');
        return false;
      } catch (err) {
        return err instanceof ArgumentException && err.status === 400;
      }
    }),
  );
  t.pass();
});

@Path('/conv')
class Conv {
  @GET @Path('/') all(
    @QueryParam('n') n: number,
    @QueryParam('b') b: boolean,
    @QueryParam('d') d: Date,
    @QueryParam('c', { type: Color }) c: Color,
    @QueryParam('i', { type: [Number] }) i: number[],
    @QueryParam('m') m: Money,
  ) {
    return { n, b, d, c, i, m };
  }
}

test('over HTTP, random query values give 200 or 400, never 500', async (t) => {
  const app = new RestBuilder().register(Conv);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom('n', 'b', 'd', 'c', 'i', 'm', 'x'), fc.string({ maxLength: 12 })), {
        maxLength: 8,
      }),
      async (pairs) => {
        const query = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const r = await inject(app, `/conv/?${query}`);
        return r.statusCode === 200 || (r.statusCode === 400 && typeof r.json().message === 'string');
      },
    ),
    { numRuns: 300 },
  );
  t.pass();
});
