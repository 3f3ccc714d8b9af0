/**
 * The compiled plainToInstance against class-transformer itself: for generated JSON bodies (and for
 * values no JSON body has), the instances must be the same: same classes at every depth, same keys in
 * the same order, same values, same @Transform results, same skipped keys.
 */
import test from 'ava';
import 'reflect-metadata';
import { deepStrictEqual } from 'node:assert';
import fc from 'fast-check';
import { plainToInstance } from 'class-transformer';
import { CompiledTransform } from '../../src/features/validation/compiled/compiled-transform';
import { ClassValidator, kToInstanceOfJson } from '../../src/features/validation/validator';
import { scalar, wild } from './support/arbitraries';
import * as dtos from './support/transform-dtos';

/** A comparable picture of a value: classes, key order, NaN, Dates (valid or not), Sets, Maps, functions. */
function picture(value: unknown, seen = new Set<unknown>()): unknown {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : Object.is(value, -0) ? '-0' : value;
  if (typeof value === 'bigint' || typeof value === 'symbol') return String(value);
  if (typeof value === 'function') return `function ${value.name}`;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  const kind = proto === null ? 'null-prototype' : (proto.constructor?.name ?? '?');
  if (value instanceof Date) return [kind, String(value.getTime())];
  if (value instanceof Set) return [kind, [...value].map((v) => picture(v, seen))];
  if (value instanceof Map) return [kind, [...value].map(([k, v]) => [picture(k, seen), picture(v, seen)])];
  if (value instanceof Promise) return [kind];
  return [kind, Object.keys(value).map((k) => [k, picture((value as Record<string, unknown>)[k], seen)])];
}

function outcome(run: () => unknown): unknown {
  try {
    return picture(run());
  } catch (err) {
    return { threw: err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err) };
  }
}

/** A JSON body as JSON.parse gives it: own `__proto__`/`constructor`/`prototype` keys possible. */
function jsonObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const keys = [
    ...Object.keys(fields),
    'toString',
    'hasOwnProperty',
    'describe',
    'total',
    'price',
    '__proto__',
    'constructor',
    'prototype',
    'extra',
  ];
  const entry = fc
    .constantFrom(...keys)
    .chain((key) =>
      fc.tuple(
        fc.constant(key),
        Object.hasOwn(fields, key)
          ? fc.oneof({ weight: 3, arbitrary: fields[key]! }, { weight: 1, arbitrary: wild })
          : wild,
      ),
    );
  return fc.array(entry, { maxLength: 8 }).map((entries) => {
    const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;
    return JSON.parse(text) as Record<string, unknown>;
  });
}

const item = jsonObject({
  sku: fc.string({ maxLength: 4 }),
  quantity: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })),
  label: scalar,
  cents: scalar,
});
const address = jsonObject({ city: scalar, country: fc.constantFrom('de', 'fr', 7) });
const order = jsonObject({
  id: scalar,
  items: fc.array(fc.oneof(item, scalar), { maxLength: 3 }),
  address: fc.oneof(address, fc.array(address, { maxLength: 2 })),
  itemSet: fc.array(item, { maxLength: 2 }),
  code: scalar,
  flag: scalar,
  when: fc.oneof(fc.constantFrom('2024-01-31T10:00:00Z', 'not a date'), fc.integer()),
  note: scalar,
  twice: scalar,
  grouped: scalar,
  outward: scalar,
  sawOptions: scalar,
  tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  extra: item,
});
const node: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
  node: jsonObject({
    name: scalar,
    leaf: fc.boolean(),
    value: scalar,
    children: fc.oneof({ depthSize: 'small' }, fc.constant([]), fc.array(tie('node'), { maxLength: 2 })),
  }),
})).node;
const branch: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ branch: Record<string, unknown> }>((tie) => ({
  branch: jsonObject({
    name: scalar,
    item,
    children: fc.oneof(
      { depthSize: 'small' },
      fc.constant([]),
      fc.array(fc.oneof(tie('branch'), scalar), { maxLength: 2 }),
    ),
  }),
})).branch;
const exposed = jsonObject({ given_name: scalar, givenName: scalar, secret: scalar, item });
const shelf = jsonObject({
  thing: fc.oneof(item, jsonObject({ kind: fc.constantFrom('item', 'leaf', 'other'), sku: scalar, value: scalar })),
});
const warehouse = jsonObject({ name: scalar, shelves: fc.array(shelf, { maxLength: 3 }) });

const CASES: [Function, fc.Arbitrary<Record<string, unknown>>][] = [
  [dtos.Item, item],
  [dtos.Address, address],
  [dtos.Order, order],
  [dtos.SpecialOrder, order],
  [dtos.Node, node],
  [dtos.Branch, branch],
  [dtos.Exposed, exposed],
  [dtos.Shelf, shelf],
  [dtos.Warehouse, warehouse],
];

test('classes with @Type, @Transform, accessors and inheritance compile; @Expose/@Exclude and discriminators are left to class-transformer', (t) => {
  const compiled = CompiledTransform.create(undefined)!;
  for (const cls of [
    dtos.Item,
    dtos.Address,
    dtos.Order,
    dtos.SpecialOrder,
    dtos.Node,
    dtos.Leaf,
    dtos.Warehouse,
    dtos.Branch,
  ])
    t.deepEqual(compiled.modeOf(cls), { compiled: true }, cls.name);
  t.like(compiled.modeOf(dtos.Exposed), { compiled: false });
  t.like(compiled.modeOf(dtos.Shelf), { compiled: false });
});

test('non-default transform options keep class-transformer (no compiled transform)', (t) => {
  t.is(CompiledTransform.create({ excludeExtraneousValues: true }), undefined);
  t.is(CompiledTransform.create({ enableImplicitConversion: true }), undefined);
  t.is(CompiledTransform.create({ groups: ['admin'] }), undefined);
  t.not(CompiledTransform.create({}), undefined);
  t.not(CompiledTransform.create({ exposeUnsetFields: true }), undefined);
});

test('same instances as class-transformer for JSON bodies (through ClassValidator.toInstance: prototype keys dropped first)', (t) => {
  const compiled = new ClassValidator();
  const reference = new ClassValidator({ compile: false });
  for (const [cls, arbitrary] of CASES) {
    fc.assert(
      fc.property(arbitrary, (plain) => {
        deepStrictEqual(
          outcome(() => compiled.toInstance(cls, plain)),
          outcome(() => reference.toInstance(cls, plain)),
          `${cls.name}: ${JSON.stringify(plain)}`,
        );
        // The route's path for JSON.parse's own output (no object checked for its prototype).
        const text = JSON.stringify(plain);
        if (text !== undefined) {
          deepStrictEqual(
            outcome(() => compiled[kToInstanceOfJson](cls, JSON.parse(text))),
            outcome(() => reference.toInstance(cls, JSON.parse(text))),
            `${cls.name} from JSON: ${text}`,
          );
        }
      }),
      { numRuns: 1000 },
    );
  }
  t.pass();
});

/** Values JSON never has, nested in bodies handed straight to the transform. */
const exotic: fc.Arbitrary<unknown> = fc.oneof(
  wild,
  fc.array(wild, { maxLength: 2 }).map((a) => new Set(a)),
  fc.array(fc.tuple(fc.string({ maxLength: 2 }), wild), { maxLength: 2 }).map((e) => new Map(e)),
  fc.integer({ min: -1e12, max: 1e12 }).map((n) => new Date(n)),
  fc.constant(Object.create(null) as object),
  fc.constant(Promise.resolve(1)),
  fc.record({ sku: fc.string({ maxLength: 3 }) }).map((r) => Object.assign(new dtos.Item(), r)),
  // biome-ignore lint/suspicious/noThenProperty: a thenable body is one of the hostile inputs
  fc.constant({ then: () => undefined }),
  fc.constant(Object.assign(Object.create(Array.prototype) as object, { 0: 'array-like' })),
);

test('same instances as class-transformer for values no JSON body has (Sets, Maps, Dates, promises, instances, null prototypes)', (t) => {
  const compiled = CompiledTransform.create(undefined)!;
  for (const [cls] of CASES) {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            'id',
            'items',
            'address',
            'itemSet',
            'code',
            'flag',
            'when',
            'note',
            'children',
            'thing',
            'item',
            'quantity',
            'extra',
          ),
          exotic,
          { maxKeys: 5 },
        ),
        (plain) => {
          deepStrictEqual(
            outcome(() => compiled.toInstance(cls, plain)),
            outcome(() => plainToInstance(cls as new () => object, plain)),
            cls.name,
          );
        },
      ),
      { numRuns: 400 },
    );
  }
  t.pass();
});

test('nested values are real instances: methods work, @Type(() => Number) converts, setters run, blocked keys are skipped', (t) => {
  const validator = new ClassValidator();
  const order = validator.toInstance(
    dtos.Order,
    JSON.parse(
      '{"id":"o1","items":[{"sku":"A","quantity":"3","price":1.5,"total":9,"describe":"x"}],"address":{"city":"Oslo","country":"no"},"twice":7}',
    ),
  ) as dtos.Order;
  t.true(order instanceof dtos.Order);
  t.true(order.items[0] instanceof dtos.Item);
  t.is(order.items[0]!.describe(), '3 x A');
  t.is(order.items[0]!.quantity, 3);
  t.is(order.items[0]!.cents, 150);
  t.is(order.items[0]!.total, 3);
  t.true(order.address instanceof dtos.Address);
  t.is(order.address.country, 'NO');
  t.is(order.twice, '[7]');
  t.deepEqual(order.tags, []);
});

test('same instances as class-transformer for bodies holding non-JSON values, through ClassValidator.toInstance (prototype keys dropped while building)', (t) => {
  const compiled = new ClassValidator();
  const reference = new ClassValidator({ compile: false });
  for (const [cls] of CASES) {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            'id',
            'items',
            'address',
            'itemSet',
            'code',
            'flag',
            'when',
            'note',
            'children',
            'thing',
            'item',
            'quantity',
            'extra',
            'prototype',
            'then',
          ),
          exotic,
          { maxKeys: 5 },
        ),
        (plain) => {
          deepStrictEqual(
            outcome(() => compiled.toInstance(cls, plain)),
            outcome(() => reference.toInstance(cls, plain)),
            cls.name,
          );
        },
      ),
      { numRuns: 400 },
    );
  }
  t.pass();
});

/** Nodes nested `depth` levels, with prototype keys and non-JSON values here and there (copying stops at depth 64). */
function deepNode(depth: number, twist: number): unknown {
  let node: Record<string, unknown> = { name: 'leaf', value: twist % 3 === 0 ? new Set([1]) : 'v' };
  for (let d = depth; d > 0; d--) {
    const children: unknown[] = [node];
    if ((d + twist) % 5 === 0)
      children.push(JSON.parse('{"__proto__":{"x":1},"constructor":"c","prototype":"p","name":"odd"}'));
    if ((d + twist) % 7 === 0) children.push(new Map([['k', 1]]));
    node =
      d % 2 === 0
        ? { name: `n${d}`, children, prototype: d }
        : { name: `n${d}`, children, leaf: d === twist, prototype: { d } };
  }
  return node;
}

test("same instances as class-transformer for the JSON reader's shallow instances and form fields (own keys only)", (t) => {
  const compiled = new ClassValidator();
  const reference = new ClassValidator({ compile: false });
  for (const [cls, arbitrary] of CASES) {
    fc.assert(
      fc.property(arbitrary, fc.boolean(), (plain, nullPrototype) => {
        // What JsonValueReader gives (the class's prototype) and what FormValueReader starts from (no prototype).
        const shaped = Object.create(nullPrototype ? null : (cls.prototype as object)) as Record<string, unknown>;
        for (const key of Object.keys(plain))
          Object.defineProperty(shaped, key, {
            value: plain[key],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        deepStrictEqual(
          outcome(() => compiled.toInstance(cls, shaped)),
          outcome(() => reference.toInstance(cls, shaped)),
          cls.name,
        );
      }),
      { numRuns: 300 },
    );
  }
  t.pass();
});

test('same instances as class-transformer around the depth where dropping prototype keys stops (64)', (t) => {
  const compiled = new ClassValidator();
  const reference = new ClassValidator({ compile: false });
  for (const depth of [30, 62, 63, 64, 65, 66, 80]) {
    for (const twist of [0, 1, 2, 3]) {
      const plain = deepNode(depth, twist);
      t.deepEqual(
        outcome(() => compiled.toInstance(dtos.Node, plain)),
        outcome(() => reference.toInstance(dtos.Node, plain)),
        `depth ${depth} twist ${twist}`,
      );
      t.deepEqual(
        outcome(() => compiled.toInstance(dtos.Branch, plain)),
        outcome(() => reference.toInstance(dtos.Branch, plain)),
        `Branch depth ${depth} twist ${twist}`,
      );
      // One level more (an array in an array): objects at odd depths too.
      const shifted = { name: 'shifted', children: [[plain]] };
      t.deepEqual(
        outcome(() => compiled.toInstance(dtos.Branch, shifted)),
        outcome(() => reference.toInstance(dtos.Branch, shifted)),
        `Branch shifted depth ${depth} twist ${twist}`,
      );
      t.deepEqual(
        outcome(() => compiled.toInstance(dtos.Warehouse, { shelves: [plain] })),
        outcome(() => reference.toInstance(dtos.Warehouse, { shelves: [plain] })),
      );
      const text = JSON.stringify({ name: 'json', children: [plain, [plain]] });
      t.deepEqual(
        outcome(() => compiled[kToInstanceOfJson](dtos.Branch, JSON.parse(text))),
        outcome(() => reference.toInstance(dtos.Branch, JSON.parse(text))),
        `Branch from JSON depth ${depth} twist ${twist}`,
      );
    }
  }
});
