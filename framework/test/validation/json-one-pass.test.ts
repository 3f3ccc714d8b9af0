/**
 * The one pass for `@Valid` JSON bodies (build and validate at once) against the two exact passes it stands in for:
 * whenever it answers an instance, the compiled transform builds the same instance (same classes, same values) and
 * the compiled validator reports no violation, and so do class-transformer and class-validator themselves. Bodies
 * are generated with every declared key present in order (the shape the one pass takes), each value fitting or
 * wild, and as the other equivalence tests generate them (keys missing, extra, reordered: it must step aside).
 */
import test from 'ava';
import 'reflect-metadata';
import { deepStrictEqual } from 'node:assert';
import fc from 'fast-check';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
  type ValidatorOptions,
} from 'class-validator';
import { CompiledTransform } from '../../src/features/validation/compiled/compiled-transform';
import { CompiledValidation } from '../../src/features/validation/compiled/compiled-validation';
import { loadClassValidatorInternals } from '../../src/features/validation/compiled/internals';
import { JsonOnePass, NOT_SIMPLE } from '../../src/features/validation/compiled/json-one-pass';
import { declaredProperties } from '../../src/features/validation/compiled/transform-compiler';
import { flattenErrors } from '../../src/features/validation/flatten-errors';
import { ClassValidator } from '../../src/features/validation/validator';
import { PLAIN_OBJECTS, scalar, wild } from './support/arbitraries';
import * as dtos from './support/equivalence-dtos';

class Line {
  @IsString() @Matches(/^[A-Z0-9-]{1,12}$/) sku!: string;
  @IsInt() @Min(1) @Max(100) quantity!: number;
  @IsNumber() @Min(0) price!: number;
}

class Place {
  @IsString() @Length(1, 20) city!: string;
  @IsOptional() @IsString() @Length(2, 2) country?: string;
}

class Order {
  @IsString() @Length(1, 10) customer!: string;
  @IsIn(['EUR', 'USD']) currency!: string;
  @IsArray() @ValidateNested() @Type(() => Line) lines!: Line[];
  @IsObject() @ValidateNested() @Type(() => Place) place!: Place;
  @IsOptional() @IsString() note?: string;
}

/** Mostly a fitting value, sometimes one that breaks a constraint or is of another kind. */
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: bad });
const line = fc.record({
  sku: mostly(fc.constantFrom('A-1', 'BOOK-7'), fc.constantFrom('x', '', 'TOO-LONG-SKU-1')),
  quantity: mostly(fc.integer({ min: 1, max: 100 }), fc.oneof(fc.integer({ min: -1, max: 101 }), scalar)),
  price: mostly(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.oneof(fc.double(), scalar)),
});
const place = fc.record({
  city: mostly(fc.constantFrom('Rome', 'Oslo'), fc.constantFrom('', 'x'.repeat(21))),
  country: mostly(fc.constantFrom('IT', null), fc.constantFrom('ITA', 7)),
});

/** Valid bodies of the classes expected to have a one pass (their declared keys, in order). */
const TEMPLATES: Array<[string, Function, Record<string, unknown>, fc.Arbitrary<unknown>?]> = [
  ['Tag', dtos.Tag, { name: 'abc', weight: 3 }],
  ['Address', dtos.Address, { city: 'Berlin', zip: '12345', country: 'de' }],
  ['Base', dtos.Base, { id: 'a', version: 1, note: 'n' }],
  ['Derived', dtos.Derived, { id: 'a', version: 2, note: 'n', extra: 'ab' }],
  ['Tree', dtos.Tree, { name: 'root', children: [{ name: 'leaf', children: [] }] }],
  [
    'Order',
    Order,
    {
      customer: 'c-1',
      currency: 'EUR',
      lines: [{ sku: 'A-1', quantity: 2, price: 1.5 }],
      place: { city: 'Rome', country: 'IT' },
      note: 'hi',
    },
    fc.record({
      customer: mostly(fc.constant('c-1'), fc.constantFrom('', 'c'.repeat(11))),
      currency: mostly(fc.constantFrom('EUR', 'USD'), fc.constant('GBP')),
      lines: mostly(fc.array(mostly(line, wild), { maxLength: 4 }), fc.oneof(line, wild)),
      place: mostly(place, wild),
      note: mostly(fc.constantFrom('hi', null), scalar),
    }),
  ],
];

/** Options under which the one pass may decide, and options under which it must always step aside. */
const DECIDING: [string, ValidatorOptions][] = [
  ['rest.uws defaults', { forbidUnknownValues: false }],
  ['class-validator defaults', {}],
  ['stopAtFirstError', { forbidUnknownValues: false, stopAtFirstError: true }],
];
const STEPPING_ASIDE: [string, ValidatorOptions][] = [
  ['whitelist', { forbidUnknownValues: false, whitelist: true }],
  ['groups', { forbidUnknownValues: false, groups: ['a'] }],
  ['skipMissingProperties', { forbidUnknownValues: false, skipMissingProperties: true }],
];

const reference = new ClassValidator({ compile: false });
const v15 = loadClassValidatorInternals()!;

function passes(options: ValidatorOptions) {
  const transform = CompiledTransform.create(undefined)!;
  const compiled = CompiledValidation.create(options, false, v15)!;
  return { transform, compiled, onePass: new JsonOnePass(compiled.environment(), transform) };
}

/** The body with exactly the declared keys, in order: the generated value where there is one, the template's elsewhere. */
function inShape(
  keys: readonly string[],
  template: Record<string, unknown>,
  generated: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = key in generated ? generated[key] : template[key];
  return out;
}

/** Checks one body; answers whether the one pass decided it. */
function check(cls: Function, body: unknown, options: ValidatorOptions, p: ReturnType<typeof passes>): boolean {
  const text = JSON.stringify(body);
  const one = p.onePass.build(cls, JSON.parse(text));
  if (one === NOT_SIMPLE) return false;
  const exact = p.transform.toInstanceOfJson(cls, JSON.parse(text)) as object;
  deepStrictEqual(one, exact, `${cls.name}: the instance of the exact transform, for ${text}`);
  deepStrictEqual(p.compiled.validate(exact), [], `${cls.name}: the exact validator finds nothing in ${text}`);
  const theirs = reference.toInstance(cls, JSON.parse(text)) as object;
  deepStrictEqual(one, theirs, `${cls.name}: class-transformer's instance, for ${text}`);
  deepStrictEqual(
    flattenErrors(v15.module.validateSync(theirs, options)),
    [],
    `${cls.name}: class-validator finds nothing in ${text}`,
  );
  return true;
}

for (const [label, options] of DECIDING) {
  test(`an answer of the one pass is the instance the two passes build, and valid to both class-validator and the compiled validator: ${label}`, (t) => {
    const p = passes(options);
    for (const [name, cls, template, custom] of TEMPLATES) {
      const keys = [...declaredProperties(cls, p.transform)];
      t.true(
        check(cls, inShape(keys, template, {}), options, p),
        `${name}: its valid template, keys in declaration order (${keys.join(', ')}), is decided`,
      );
      let decided = 0;
      let total = 0;
      const generated = (custom ?? PLAIN_OBJECTS[name]!) as fc.Arbitrary<Record<string, unknown>>;
      fc.assert(
        fc.property(generated, (body) => {
          total += 2;
          if (check(cls, inShape(keys, template, body), options, p)) decided++;
          if (check(cls, body, options, p)) decided++;
        }),
        { numRuns: label === 'rest.uws defaults' ? 800 : 200 },
      );
      // It decides often enough to matter, and steps aside often enough to have been tested against violations.
      t.true(decided > total / 50 && decided < total, `${name}: decided ${decided} of ${total}`);
    }
  });
}

for (const [label, options] of STEPPING_ASIDE) {
  test(`the one pass steps aside for every body under options it does not cover: ${label}`, (t) => {
    const p = passes(options);
    for (const [name, cls, template] of TEMPLATES)
      t.is(p.onePass.build(cls, JSON.parse(JSON.stringify(template))), NOT_SIMPLE, name);
  });
}

test('classes whose metadata the one pass does not cover have none, and their bodies take the two passes', (t) => {
  const p = passes({ forbidUnknownValues: false });
  // each-constraints and a custom validate (Everything, Custom), @ValidateIf (Conditional), arrays of arrays (Grid),
  // @Allow on an untyped field that may hold an object (Allowed: decided only when it holds none), no constraints (Empty).
  for (const cls of [dtos.Everything, dtos.Custom, dtos.Conditional, dtos.Empty, dtos.Messages, dtos.Contexts])
    t.false(p.onePass.prepare(cls), cls.name);
  for (const cls of [dtos.Tag, dtos.Address, dtos.Base, dtos.Derived, dtos.Tree, Order, Line, Place])
    t.true(p.onePass.prepare(cls), cls.name);
  // A type function that throws when asked (with no object) leaves the class to the two passes, and registration stands.
  class Broken {
    @ValidateNested()
    @Type(() => {
      throw new Error('not yet');
    })
    inner!: Line;
  }
  t.false(p.onePass.prepare(Broken));
  t.is(p.onePass.build(dtos.Allowed, { free: { nested: 1 }, s: 'x' }), NOT_SIMPLE);
  t.true(p.onePass.build(dtos.Allowed, { free: 1, s: 'x' }) instanceof dtos.Allowed);
});

test('a self-referencing class: the one pass decides a shallow tree and steps aside past 32 levels (the exact passes check the depth limit)', (t) => {
  const p = passes({ forbidUnknownValues: false });
  const tree = (depth: number): unknown =>
    depth === 0 ? { name: 'leaf', children: [] } : { name: `n${depth}`, children: [tree(depth - 1)] };
  t.true(p.onePass.build(dtos.Tree, tree(10)) instanceof dtos.Tree);
  t.is(p.onePass.build(dtos.Tree, tree(40)), NOT_SIMPLE);
});
