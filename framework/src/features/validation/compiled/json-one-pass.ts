import type { CompiledTransform } from './compiled-transform';
import type { ConstraintMetadataRecord, TypeMetadataRecord, ValidationMetadataRecord } from './internals';
import { ConstantTable, strictSource, stringLiteral } from './js-code';
import { isEnum, isIn } from './known-constraints';
import { lengthWithin } from './string-length';
import { declaredProperties } from './transform-compiler';
import type { CheckSite } from './validation-runtime';
import {
  CONDITIONAL,
  CUSTOM,
  IS_DEFINED,
  NESTED,
  WHITELIST,
  inlineTest,
  isBuiltInOptional,
  type CompileEnvironment,
} from './validator-compiler';

/** The answer of the one pass when it does not decide: the exact two passes (build, then validate) run instead. */
export const NOT_SIMPLE: unique symbol = Symbol('rest.uws:not-simple');

/** One class's pass: the valid instance built from a JSON object `depth` levels down, or NOT_SIMPLE. */
type OnePass = (value: Record<string, unknown>, depth: number) => unknown;

/** Where generated code finds a class's pass (filled once compiled; null when the class has none). */
interface PassCell {
  fn: OnePass | null;
}

/** Deeper objects are left to the exact passes, which also check the JSON depth limit. */
const MAX_DEPTH = 32;

class NotSimple extends Error {}

/**
 * The build of a `@Valid` JSON body and its validation in one pass, for the bodies nearly every request sends: the
 * class's declared keys, in declaration order, with values of the declared kinds, that break no constraint. The
 * compiled transform (`toInstanceOfJson`) and the compiled validator each walk the body; this walks it once and
 * tests each constraint inline as the value is built. It decides only when the body is valid: then it answers the
 * instance the transform builds, and the validator would report nothing. Anything else (a key missing, extra or out
 * of order, an object where the class has no `@Type`, a broken constraint, more than 32 levels) answers NOT_SIMPLE,
 * and the two exact passes run, reporting violations with class-validator's paths and messages.
 *
 * Only classes whose metadata is simple get a pass (else every body of theirs takes the two passes): the transform
 * compiled with no `@Transform`, `@Expose`/`@Exclude`, discriminator, type function with parameters, or accessor on
 * a declared key; every constraint one the validator writes inline (no custom `validate` call, no `each`, no
 * `validateIf`, no asynchronous constraint), conditions only `@IsOptional`, `@ValidateNested` only on a `@Type`
 * property whose class has a pass itself; validator options without groups, whitelist or skipping.
 */
export class JsonOnePass {
  private readonly cells = new Map<Function, PassCell>();

  constructor(
    private readonly env: CompileEnvironment,
    private readonly transform: CompiledTransform,
  ) {}

  /** The valid instance of `type` built from JSON.parse's output `parsed`, or NOT_SIMPLE. */
  build(type: Function, parsed: unknown): unknown {
    return runPass(this.cellOf(type), parsed);
  }

  /**
   * `build` for one class, looked up once: a route's check calls it per body without finding the class's pass again.
   * The pass is read from its cell on each call (a class compiled later, or recompiled, is seen).
   */
  passFor(type: Function): (parsed: unknown) => unknown {
    const cell = this.cellOf(type);
    return (parsed) => runPass(cell, parsed);
  }

  /** Whether the class has a pass (compiling it now, at route registration, rather than on its first body). */
  prepare(type: Function): boolean {
    return this.cellOf(type).fn !== null;
  }

  /** The generated source, when the class has a pass: for tests and curious readers. */
  sourceOf(type: Function): string | undefined {
    return this.cellOf(type).fn?.toString();
  }

  private cellOf(ctor: Function): PassCell {
    let cell = this.cells.get(ctor);
    if (cell !== undefined) return cell;
    // Set before compiling: a class that refers to itself, or to one that refers back, finds its cell (filled below).
    cell = { fn: null };
    this.cells.set(ctor, cell);
    try {
      cell.fn = this.compile(ctor);
    } catch {
      // NotSimple, or a type function that threw when asked its class: the two passes decide (and fail as they fail).
      cell.fn = null;
    }
    return cell;
  }

  private compile(ctor: Function): OnePass {
    const { internals } = this.transform;
    const { storage, plainToClass } = internals;
    const options = this.env.options;
    if (
      options.whitelist ||
      (options.groups !== undefined && options.groups.length > 0) ||
      options.always ||
      options.strictGroups
    )
      throw new NotSimple('options');
    if (options.skipMissingProperties || options.skipNullProperties || options.skipUndefinedProperties)
      throw new NotSimple('options');
    if (
      storage.getStrategy(ctor) !== 'none' ||
      storage.getExposedMetadatas(ctor).length > 0 ||
      storage.getExcludedMetadatas(ctor).length > 0
    )
      throw new NotSimple('expose');
    const prototype = ctor.prototype as object | undefined;
    if (prototype === undefined || prototype === null) throw new NotSimple('prototype');
    const validation = this.env.internals.storage;
    const metadatas = validation.getTargetValidationMetadatas(ctor, undefined, false, false, undefined);
    // A class without validation metadata is one class-validator may refuse as an unknown value.
    if (metadatas.length === 0) throw new NotSimple('no constraints');
    const grouped = validation.groupByPropertyName(metadatas);
    const keys = [...declaredProperties(ctor, this.transform)];
    if (
      keys.length === 0 ||
      keys.some(
        (key) => key === '__proto__' || key === 'constructor' || key === 'prototype' || accessorInChain(prototype, key),
      )
    )
      throw new NotSimple('keys');
    for (const property of Object.keys(grouped)) if (!keys.includes(property)) throw new NotSimple('undeclared');

    const k = new ConstantTable();
    const build: string[] = [];
    const checks: string[] = [];
    keys.forEach((key, i) => {
      const name = stringLiteral(key);
      const type = storage.findTypeMetadata(ctor, key);
      if (storage.findTransformMetadatas(ctor, key, plainToClass).length > 0) throw new NotSimple('@Transform');
      const own = grouped[key] ?? [];
      build.push(`v = value[${name}];`);
      if (type === undefined) {
        if (own.some((m) => m.type === NESTED)) throw new NotSimple('@ValidateNested without @Type');
        build.push(
          `if ((own = out[${name}]) !== undefined && own instanceof Function) return NO;`,
          `if (v !== null && typeof v === 'object') return NO;`,
          `r${i} = v;`,
        );
      } else {
        build.push(...typedBuild(type, name, i, k, (target) => this.cellOf(target)));
      }
      build.push(`out[${name}] = r${i};`);
      checks.push(...propertyChecks(ctor, key, `r${i}`, own, this.env, k));
    });
    const fnName = `onePass_${(ctor.name || 'anonymous').replace(/[^A-Za-z0-9_$]/g, '_')}`;
    const shape = [
      `keys.length !== ${keys.length}`,
      ...keys.map((key, i) => `keys[${i}] !== ${stringLiteral(key)}`),
    ].join(' || ');
    const source = strictSource(k, [
      'const NO = H.NO, lengthWithin = H.lengthWithin, isIn = H.isIn, isEnum = H.isEnum;',
      `return function ${fnName}(value, depth) {`,
      `  if (depth > ${MAX_DEPTH}) return NO;`,
      '  const keys = Object.keys(value);',
      `  if (${shape}) return NO;`,
      `  const out = new ${k.ref(ctor)}();`,
      // The class's constructor made the object (the transform's own check): its prototype has no accessor on the keys.
      `  if (out.constructor.prototype !== ${k.ref(prototype)}) return NO;`,
      `  let v, own, type, ${keys.map((_, i) => `r${i}`).join(', ')};`,
      ...build.map((l) => `  ${l}`),
      ...checks.map((l) => `  ${l}`),
      '  return out;',
      '};',
    ]);
    return new Function('K', 'H', source)(k.values, { NO: NOT_SIMPLE, lengthWithin, isIn, isEnum }) as OnePass;
  }
}

/** A class's pass on a top-level JSON value: only an object (not an array) can be an instance. */
function runPass(cell: PassCell, parsed: unknown): unknown {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return NOT_SIMPLE;
  const fn = cell.fn;
  return fn === null ? NOT_SIMPLE : fn(parsed as Record<string, unknown>, 0);
}

/** Whether the key has a getter, setter or method anywhere on the prototype chain (then the generic transform decides). */
function accessorInChain(prototype: object, key: string): boolean {
  for (
    let p: object | null = prototype;
    p !== null && p !== Object.prototype;
    p = Object.getPrototypeOf(p) as object | null
  ) {
    if (Object.getOwnPropertyDescriptor(p, key) !== undefined) return true;
  }
  return key in Object.prototype;
}

/**
 * The build of a `@Type` property, as the transform does it for JSON: the type function asked as the executor asks
 * it, then an object of the class (its own pass), or an array of them; anything else is left to the exact passes.
 */
function typedBuild(
  type: TypeMetadataRecord,
  name: string,
  i: number,
  k: ConstantTable,
  cellOf: (target: Function) => PassCell,
): string[] {
  const typeFunction = type.typeFunction;
  const d = type.options?.discriminator as { property?: unknown; subTypes?: unknown } | undefined;
  if (d?.property && d.subTypes) throw new NotSimple('discriminator');
  // A type function with parameters looks at the object: the transform then copies it first (a different path).
  if (typeFunction !== undefined && typeFunction.length > 0) throw new NotSimple('type function with parameters');
  // Asked once here, with no object, to know which class's pass builds the value (asked again per key, as the executor asks).
  const target = typeFunction !== undefined ? typeFunction() : type.reflectedType;
  if (
    typeof target !== 'function' ||
    target === String ||
    target === Number ||
    target === Boolean ||
    target === Date ||
    target === Buffer ||
    target === Map ||
    target === Set ||
    target === Array ||
    target === Object
  ) {
    throw new NotSimple('@Type of a built-in');
  }
  const reflected = type.reflectedType;
  if (reflected === Map) throw new NotSimple('Map');
  const m = k.ref(type);
  const cell = k.ref(cellOf(target));
  const pass = (value: string, depth: string) => `(${cell}.fn === null ? NO : ${cell}.fn(${value}, ${depth}))`;
  // An array becomes a new Array when the property's design type is Array, Object or unknown (instantiateArrayType).
  const arrays = reflected === Array || reflected === Object || reflected === undefined;
  return [
    `type = ${m}.typeFunction ? ${m}.typeFunction({ newObject: out, object: value, property: ${name} }) : ${m}.reflectedType;`,
    `if ((own = out[${name}]) !== undefined && own instanceof Function) return NO;`,
    `if (type !== ${k.ref(target)} || v === null || typeof v !== 'object') return NO;`,
    'if (Array.isArray(v)) {',
    ...(arrays
      ? [
          `  const n = v.length;`,
          `  r${i} = [];`,
          '  for (let j = 0; j < n; j++) {',
          '    const e = v[j];',
          "    if (e === null || typeof e !== 'object' || Array.isArray(e)) return NO;",
          `    const b = ${pass('e', 'depth + 2')};`,
          '    if (b === NO) return NO;',
          `    r${i}.push(b);`,
          '  }',
        ]
      : ['  return NO;']),
    '} else {',
    `  r${i} = ${pass('v', 'depth + 1')};`,
    `  if (r${i} === NO) return NO;`,
    '}',
  ];
}

/**
 * A property's constraints as tests of its built value: every condition, `isDefined` and constraint inline, each
 * answering NOT_SIMPLE when it fails. Nested objects were validated by their own pass as they were built.
 */
function propertyChecks(
  ctor: Function,
  key: string,
  value: string,
  metadatas: readonly ValidationMetadataRecord[],
  env: CompileEnvironment,
  k: ConstantTable,
): string[] {
  const tests: string[] = [];
  let optional = false;
  for (const m of metadatas) {
    if (m.type === WHITELIST || m.type === NESTED) continue;
    if (m.type === CONDITIONAL) {
      if (!isBuiltInOptional(key, m)) throw new NotSimple('@ValidateIf');
      optional = true;
      continue;
    }
    if (m.type !== CUSTOM && m.type !== IS_DEFINED) throw new NotSimple(m.type);
    if (m.each || (m.validateIf && env.internals.minor >= 15)) throw new NotSimple('each or validateIf');
    const constraints: ConstraintMetadataRecord[] =
      m.constraintCls === undefined ? [] : env.internals.storage.getTargetValidatorConstraints(m.constraintCls);
    for (const constraint of constraints) {
      if (constraint.async) throw new NotSimple('asynchronous constraint');
      const site: CheckSite = { metadata: m, constraint, instance: constraint.instance };
      const emit = inlineTest(ctor, m, site, env, k);
      if (emit === undefined) throw new NotSimple('constraint without an inline test');
      tests.push(`if (!${emit(value)}) return NO;`);
    }
  }
  if (tests.length === 0) return [];
  // @IsOptional: a null or undefined value skips every constraint of the property.
  return optional ? [`if (${value} !== null && ${value} !== undefined) {`, ...tests.map((t) => `  ${t}`), '}'] : tests;
}
