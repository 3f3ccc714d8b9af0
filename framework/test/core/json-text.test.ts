import test from 'ava';
import fc from 'fast-check';
import { GET, Path, POST, Response, RestBuilder, BodyParam, Produces } from '../../src/index';
import { toJsonText } from '../../src/io/json-text';
import { listen } from '../support/server';

/**
 * The JSON writers' compiled serializer (io/json-text.ts) against JSON.stringify: the same text, or the
 * same error, for any value, class instances of every kind included.
 */

class Point {
  x: unknown = 0;
  y: unknown = 0;
}
class Point3 extends Point {
  z: unknown = 0;
}
/** Its keys are whatever each instance gets, in any order: shapes differ from one instance to the next. */
class Bag {
  constructor(entries: Array<[string, unknown]>) {
    for (const [k, v] of entries) (this as Record<string, unknown>)[k] = v;
  }
}
class WithToJson {
  constructor(readonly v: unknown) {}
  toJSON(key: string) {
    return { key, v: this.v };
  }
}
class ToJsonGivesObjectWithToJson {
  toJSON() {
    return { toJSON: () => 'inner', a: 1 };
  }
}
class ToJsonGivesUndefined {
  toJSON() {
    return undefined;
  }
}
class Stamped {
  at: unknown;
  constructor(ms: number) {
    this.at = new Date(ms);
  }
}
class PrototypeGetter {
  a: unknown = 1;
  get b() {
    return 2;
  }
}
class OwnGetter {
  constructor(value: unknown) {
    Object.defineProperty(this, 'computed', { get: () => value, enumerable: true });
    Object.defineProperty(this, 'hidden', { value: 'not enumerable', enumerable: false });
  }
}
class MyMap extends Map<unknown, unknown> {
  tag = 'map';
}
class MyArray extends Array<unknown> {}
class MyNumber extends Number {}
class MyDate extends Date {}
class Empty {}

/** Strings JSON escapes, and some it does not: controls, quotes, backslashes, lone and paired surrogates, long ones. */
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  fc.constantFrom('', '"', '\\', '\n', '\u2028', '\ud800', '\udc00x', '\ud83d\ude00', 'é', '\u007f', 'x'.repeat(40), `${'y'.repeat(30)}"`, `${'z'.repeat(30)}\ud800`),
);

const scalar = fc.oneof(
  text,
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1e21, 1.5e-7),
  fc.boolean(),
  fc.constantFrom(null, undefined, () => 1, Symbol('s')),
);

const keyName = fc.oneof(fc.constantFrom('a', 'b', 'x', 'y', 'z', '0', '10', 'toString', 'constructor', '__proto__x', 'k"q', 'k\\', 'é'), fc.string({ maxLength: 4 }));

const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((a) => { const sparse = [...a]; sparse.length += 2; return sparse; }) },
    { weight: 1, arbitrary: fc.dictionary(keyName, tie('value'), { maxKeys: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(keyName, tie('value'), { maxKeys: 3 }).map((d) => Object.assign(Object.create(null), d)) },
    { weight: 2, arbitrary: fc.tuple(tie('value'), tie('value')).map(([x, y]) => Object.assign(new Point(), { x, y })) },
    { weight: 1, arbitrary: fc.tuple(tie('value'), tie('value'), tie('value')).map(([x, y, z]) => Object.assign(new Point3(), { x, y, z })) },
    { weight: 2, arbitrary: fc.array(fc.tuple(keyName, tie('value')), { maxLength: 4 }).map((entries) => new Bag(entries)) },
    { weight: 1, arbitrary: tie('value').map((v) => new WithToJson(v)) },
    { weight: 1, arbitrary: fc.constantFrom(new ToJsonGivesObjectWithToJson(), new ToJsonGivesUndefined(), new Empty(), new PrototypeGetter()) },
    { weight: 1, arbitrary: fc.integer({ min: -1e12, max: 1e12 }).map((ms) => new Stamped(ms)) },
    { weight: 1, arbitrary: fc.constantFrom(new Date(NaN), new MyDate(0), new MyNumber(3), Object.assign(new MyMap([[1, 2]]), { extra: 1 }), MyArray.from([1, undefined, 'x']), new Number(2), new String('s'), new Boolean(false), Object.assign([1, 2], { toJSON: (key: string) => `array at ${key}` })) },
    { weight: 1, arbitrary: tie('value').map((v) => new OwnGetter(v)) },
  ),
})).value;

/** The text, or the error's class and message. */
function outcome(f: () => string | undefined): string {
  try {
    const out = f();
    return out === undefined ? '<undefined>' : `text:${out}`;
  } catch (err) {
    return `threw:${(err as Error).constructor.name}:${(err as Error).message}`;
  }
}

test('toJsonText gives JSON.stringify\'s text for any value: class instances, shapes that change, toJSON, getters, built-ins', (t) => {
  fc.assert(
    fc.property(fc.array(value, { minLength: 1, maxLength: 6 }), (values) => {
      // Several values in a row: the writers learn shapes from the first instances and meet others later.
      for (const v of values) {
        const expected = outcome(() => JSON.stringify(v));
        const got = outcome(() => toJsonText(v));
        if (got !== expected) throw new Error(`toJsonText differs\n got:      ${got}\n expected: ${expected}`);
      }
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test('a class whose instances change shape is still exact after the writer learns the new shape', (t) => {
  class Row {
    [key: string]: unknown;
  }
  const make = (entries: Array<[string, unknown]>) => Object.assign(new Row(), Object.fromEntries(entries));
  // Many misses in a row make the writer learn again: every one of them must still be exact.
  for (let i = 0; i < 300; i++) {
    const row = i < 20 ? make([['a', 1], ['b', 'x']]) : i % 3 === 0 ? make([['b', 'y'], ['a', i]]) : make([['a', undefined], ['c', [i, null]], ['b', `q"${i}`]]);
    t.is(toJsonText(row), JSON.stringify(row));
    t.is(toJsonText([row, row]), JSON.stringify([row, row]));
  }
});

test('toJsonText throws what JSON.stringify throws: cycles, BigInt', (t) => {
  const a = new Point();
  const b = new Point();
  a.x = b;
  b.y = a;
  t.is(outcome(() => toJsonText(a)), outcome(() => JSON.stringify(a)));
  t.true(outcome(() => toJsonText(a)).startsWith('threw:TypeError'));
  const list = [new Point(), new Point()];
  list[1]!.x = list;
  t.is(outcome(() => toJsonText(list)), outcome(() => JSON.stringify(list)));
  const big = Object.assign(new Point(), { x: 10n });
  t.is(outcome(() => toJsonText(big)), outcome(() => JSON.stringify(big)));
  t.true(outcome(() => toJsonText(big)).startsWith('threw:TypeError'));
});

test('deep nesting of class instances is handed to JSON.stringify, same text', (t) => {
  let deep: Point = new Point();
  for (let i = 0; i < 300; i++) {
    const p = new Point();
    p.x = deep;
    deep = p;
  }
  t.is(toJsonText(deep), JSON.stringify(deep));
});

class ItemDto {
  sku = '';
  quantity = 0;
  note: string | undefined = undefined;
}
class OrderDto {
  id = 0;
  items: ItemDto[] = [];
  placed: Date = new Date(0);
  customer: { name: string } | null = null;
}

function order(id: number, note: string | undefined): OrderDto {
  const item = Object.assign(new ItemDto(), { sku: `S-${id}`, quantity: id, note });
  return Object.assign(new OrderDto(), { id, items: [item, item], placed: new Date(Date.UTC(2024, 0, id)), customer: { name: 'Ada "the first"' } });
}

@Path('/orders')
class OrdersResource {
  @GET
  @Path('{id}')
  @Produces('application/json')
  get() {
    return order(3, 'fragile\n');
  }

  @GET
  @Path('list/all')
  list() {
    return [order(1, undefined), order(2, 'é\ud800')];
  }

  @POST
  created(@BodyParam() body: { id: number }) {
    return Response.status(201).entity(order(body.id, undefined)).build();
  }
}

test('over HTTP: class instances in the JSON answer read exactly as JSON.stringify writes them', async (t) => {
  const app = new RestBuilder().register(OrdersResource).build();
  const server = await listen(app);
  try {
    for (let round = 0; round < 3; round++) {
      const one = await fetch(`${server.url}/orders/3`);
      t.is(one.status, 200);
      t.is(one.headers.get('content-type'), 'application/json');
      t.is(await one.text(), JSON.stringify(order(3, 'fragile\n')));
      const all = await fetch(`${server.url}/orders/list/all`);
      t.is(all.status, 200);
      t.is(await all.text(), JSON.stringify([order(1, undefined), order(2, 'é\ud800')]));
      const created = await fetch(`${server.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":7}' });
      t.is(created.status, 201);
      t.is(await created.text(), JSON.stringify(order(7, undefined)));
    }
  } finally {
    server.close();
  }
});
