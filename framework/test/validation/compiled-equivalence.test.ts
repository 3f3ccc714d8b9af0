/**
 * The compiled validator against class-validator itself: for thousands of generated bodies (right
 * types, wrong types, missing fields, nulls, nested arrays), turned into instances by class-transformer,
 * the violations (path, constraint, message, context) and their order must be identical, under every option
 * that changes the generated code, for class-validator 0.15 (rest.uws's) and 0.14 (the benchmarks').
 */
import test from 'ava';
import 'reflect-metadata';
import { deepStrictEqual } from 'node:assert';
import * as path from 'node:path';
import fc from 'fast-check';
import type { ValidatorOptions } from 'class-validator';
import { CompiledValidation } from '../../src/features/validation/compiled/compiled-validation';
import {
  loadClassValidatorInternals,
  type ClassValidatorInternals,
} from '../../src/features/validation/compiled/internals';
import { flattenErrors } from '../../src/features/validation/flatten-errors';
import { ClassValidator } from '../../src/features/validation/validator';
import { PLAIN_OBJECTS, wild } from './support/arbitraries';
import * as dtos from './support/equivalence-dtos';

const CLASSES: Record<string, new () => object> = {
  Tag: dtos.Tag,
  Address: dtos.Address,
  Everything: dtos.Everything,
  Messages: dtos.Messages,
  Grouped: dtos.Grouped,
  Conditional: dtos.Conditional,
  RestUwsFields: dtos.RestUwsFields,
  Custom: dtos.Custom,
  Base: dtos.Base,
  Derived: dtos.Derived,
  Tree: dtos.Tree,
  Allowed: dtos.Allowed,
  Grid: dtos.Grid,
  Twice: dtos.Twice,
  Empty: dtos.Empty,
  Contexts: dtos.Contexts,
};

const OPTION_SETS: [string, ValidatorOptions][] = [
  ['rest.uws defaults', { forbidUnknownValues: false }],
  ['class-validator defaults', {}],
  ['whitelist + forbidNonWhitelisted', { forbidUnknownValues: false, whitelist: true, forbidNonWhitelisted: true }],
  ['whitelist (strip)', { forbidUnknownValues: false, whitelist: true }],
  ['stopAtFirstError', { forbidUnknownValues: false, stopAtFirstError: true }],
  ['groups [a]', { forbidUnknownValues: false, groups: ['a'] }],
  ['groups [b] + strictGroups', { forbidUnknownValues: false, groups: ['b'], strictGroups: true }],
  ['strictGroups without groups', { forbidUnknownValues: false, strictGroups: true }],
  ['always', { forbidUnknownValues: false, always: true }],
  ['skipMissingProperties', { forbidUnknownValues: false, skipMissingProperties: true }],
  ['skipNullProperties', { forbidUnknownValues: false, skipNullProperties: true }],
  ['skipUndefinedProperties', { forbidUnknownValues: false, skipUndefinedProperties: true }],
  ['dismissDefaultMessages', { forbidUnknownValues: false, dismissDefaultMessages: true }],
];

const ROOT = path.resolve(__dirname, '../../../..');

// Bodies become instances as routes make them: prototype keys dropped, then class-transformer.
const transformer = new ClassValidator({ compile: false });
const plainToInstance = (cls: Function, plain: unknown) => transformer.toInstance(cls, plain);

/** A result, or the error it threw (class-validator throws on some inputs, e.g. maxDecimalPlaces of 5e-324: so must we). */
function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (err) {
    return { threw: err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err) };
  }
}

async function asyncOutcome(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (err) {
    return { threw: err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err) };
  }
}

/** Compares compiled and class-validator violations (and the instances, which whitelisting may strip) for generated bodies. */
function assertEquivalent(
  internals: ClassValidatorInternals,
  options: ValidatorOptions,
  runs: number,
  seed?: number,
): void {
  const compiled = CompiledValidation.create(options, false, internals)!;
  for (const [name, cls] of Object.entries(CLASSES)) {
    fc.assert(
      fc.property(PLAIN_OBJECTS[name]!, (plain) => {
        const forCompiled = plainToInstance(cls, plain) as object;
        const forReference = plainToInstance(cls, plain) as object;
        const actual = outcome(() => compiled.validate(forCompiled));
        const expected = outcome(() => flattenErrors(internals.module.validateSync(forReference, options)));
        deepStrictEqual(actual, expected, `${name}: ${JSON.stringify(plain)}`);
        deepStrictEqual(forCompiled, forReference, `${name}: instance after validation`);
      }),
      { numRuns: runs, seed },
    );
  }
}

const v15 = loadClassValidatorInternals()!;

test('the framework loads class-validator 0.15 and every equivalence DTO compiles (none falls back)', (t) => {
  t.is(v15.minor, 15);
  const compiled = CompiledValidation.create({ forbidUnknownValues: false }, false, v15)!;
  for (const [name, cls] of Object.entries(CLASSES)) t.deepEqual(compiled.modeOf(cls), { compiled: true }, name);
});

test('built-in constraints are written out inline; custom ones (and look-alikes of built-in names) call their own validate', (t) => {
  const compiled = CompiledValidation.create({ forbidUnknownValues: false }, false, v15)!;
  const everything = compiled.sourceOf(dtos.Everything)!;
  t.false(everything.includes('custom('), everything);
  t.true(everything.includes("typeof v === 'number' && Number.isInteger(v)"));
  const custom = compiled.sourceOf(dtos.Custom)!;
  // odd, threes, text (a different "isString"), atLeastTwo (a different "min"), evens: all five call validate.
  t.is(custom.match(/custom\(/g)?.length, 5, custom);
});

for (const [label, options] of OPTION_SETS) {
  test(`same violations as class-validator 0.15 validateSync: ${label}`, (t) => {
    assertEquivalent(v15, options, label === 'rest.uws defaults' ? 1500 : 150);
    t.pass();
  });
}

// The benchmarks (and other apps) may bring class-validator 0.14: its executor ignores 0.15's validateIf option.
const rootDirectory = path.dirname(require.resolve('class-validator/package.json', { paths: [ROOT] }));
const v14 = loadClassValidatorInternals(rootDirectory);
if (v14?.minor === 14) {
  for (const [label, options] of OPTION_SETS.slice(0, 6)) {
    test(`same violations as class-validator 0.14 validateSync: ${label}`, (t) => {
      assertEquivalent(v14, options, 150);
      t.pass();
    });
  }
} else {
  test('class-validator 0.14 is installed at the repository root (for the 0.14 equivalence runs)', (t) => {
    t.fail(`found ${rootDirectory}, minor ${String(v14?.minor)}`);
  });
}

test("a constraint's context option comes with its violation, merged per constraint type, compiled as by class-validator", (t) => {
  const compiled = CompiledValidation.create({ forbidUnknownValues: false }, false, v15)!;
  const body = { a: 'longer', b: 'y', c: 5, tags: [7, { name: 'ok' }], d: [2, 1.5], e: null, f: 'no' };
  const expected = [
    {
      path: 'a',
      constraint: 'maxLength',
      message: 'a must be shorter than or equal to 4 characters',
      context: { code: 'too_long' },
    },
    {
      path: 'b',
      constraint: 'isIn',
      message: 'b must be one of the following values: x',
      context: { code: 'not_in', level: 2 },
    },
    { path: 'c', constraint: 'isDivisibleBy', message: 'c must be divisible by 3' },
    { path: 'c', constraint: 'isEven', message: 'c must be even (offset $constraint1)', context: { code: 'odd' } },
    {
      path: 'tags[0]',
      constraint: 'nestedValidation',
      message: 'each value in nested property tags must be either object or array',
      context: { code: 'bad_tag' },
    },
    {
      path: 'd',
      constraint: 'isInt',
      message: 'each value in d must be an integer number',
      context: { code: 'whole' },
    },
    { path: 'd', constraint: 'min', message: 'd must not be less than 2', context: { code: 'small' } },
    { path: 'e', constraint: 'isDefined', message: 'e should not be null or undefined', context: { code: 'silent' } },
    { path: 'f', constraint: 'isBoolean', message: 'f must be a boolean value', context: { code: 'flag' } },
  ];
  t.deepEqual(compiled.validate(plainToInstance(dtos.Contexts, body) as object), expected);
  t.deepEqual(
    flattenErrors(
      v15.module.validateSync(plainToInstance(dtos.Contexts, body) as object, { forbidUnknownValues: false }),
    ),
    expected,
  );
});

/** Values no JSON body has: Sets, Maps, Dates, boxed primitives, null-prototype objects, functions. */
const exotic: fc.Arbitrary<unknown> = fc.oneof(
  wild,
  fc.array(wild, { maxLength: 3 }).map((a) => new Set(a)),
  fc.array(fc.tuple(fc.constantFrom('a', '1', 'x'), wild), { maxLength: 3 }).map((e) => new Map(e)),
  fc.integer().map((n) => new Date(n)),
  fc.string({ maxLength: 4 }).map((s) => new String(s)),
  fc.integer().map((n) => new Number(n)),
  fc.constant(Object.create(null) as object),
  fc.constant(() => 1),
  fc.record({ name: fc.string({ maxLength: 4 }) }).map((r) => Object.assign(new dtos.Tag(), r)),
  fc
    .array(
      fc.record({ name: fc.string({ maxLength: 9 }) }).map((r) => Object.assign(new dtos.Tag(), r)),
      { maxLength: 3 },
    )
    .map((a) => new Set(a)),
);

test('same violations as class-validator for instances holding Sets, Maps, Dates and boxed values (each, nested)', (t) => {
  for (const [label, options] of OPTION_SETS.slice(0, 5)) {
    const compiled = CompiledValidation.create(options, false, v15)!;
    for (const cls of [
      dtos.Everything,
      dtos.Messages,
      dtos.Grid,
      dtos.Tree,
      dtos.RestUwsFields,
      dtos.Custom,
      dtos.Twice,
      dtos.Contexts,
    ]) {
      fc.assert(
        fc.property(
          fc.dictionary(
            fc.constantFrom(...Object.keys(new cls()), 'tags', 'rows', 'children', 'strings', 'ints'),
            exotic,
            { maxKeys: 6 },
          ),
          (values) => {
            const a = Object.assign(new cls(), values);
            const b = Object.assign(new cls(), values);
            deepStrictEqual(
              outcome(() => compiled.validate(a)),
              outcome(() => flattenErrors(v15.module.validateSync(b, options))),
              `${label} ${cls.name}`,
            );
          },
        ),
        { numRuns: 150 },
      );
    }
  }
  t.pass();
});

test('asynchronous validation gives class-validator validate()s violations, synchronously when nothing is asynchronous', async (t) => {
  const options = { forbidUnknownValues: false };
  const compiled = CompiledValidation.create(options, true, v15)!;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('Everything', 'Conditional', 'Tree', 'Custom'),
      fc.integer(),
      async (name, seed) => {
        const plain = fc.sample(PLAIN_OBJECTS[name]!, { seed, numRuns: 1 })[0];
        const cls = CLASSES[name]!;
        const compiledOutcome = await asyncOutcome(() => {
          const result = compiled.validate(plainToInstance(cls, plain) as object);
          t.false(result instanceof Promise);
          return result;
        });
        deepStrictEqual(
          compiledOutcome,
          await asyncOutcome(async () =>
            flattenErrors(await v15.module.validate(plainToInstance(cls, plain) as object, options)),
          ),
        );
      },
    ),
    { numRuns: 200 },
  );
});
