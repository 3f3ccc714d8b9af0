import { directConstraintOf } from '../direct-constraints';
import { agreesOnProbes } from './constraint-probes';
import type { ClassValidatorInternals, ConstraintMetadataRecord, ValidationMetadataRecord } from './internals';
import { ConstantTable, strictSource, stringLiteral } from './js-code';
import { KNOWN_CONSTRAINTS, isEnum, isIn, type TestEmitter } from './known-constraints';
import { lengthWithin } from './string-length';
import type { CheckSite, ContextPlan, NestedSite, ObjectValidator, ValidationRuntime } from './validation-runtime';
import { childPathCode } from './violation-paths';

/** The object's own path, built the first time a violation or a nested value needs it. */
const HERE = '(here ??= pathOf(path, index))';

/** class-validator's metadata types (ValidationTypes). */
export const CUSTOM = 'customValidation';
export const NESTED = 'nestedValidation';
export const CONDITIONAL = 'conditionalValidation';
export const WHITELIST = 'whitelistValidation';
export const IS_DEFINED = 'isDefined';

/** The class-validator options the generated code depends on (read once, when compiling). */
export interface CompileOptions {
  groups?: string[];
  always?: boolean;
  strictGroups?: boolean;
  forbidUnknownValues?: boolean;
  whitelist?: boolean;
  stopAtFirstError?: boolean;
  skipUndefinedProperties?: boolean;
  skipNullProperties?: boolean;
  skipMissingProperties?: boolean;
}

export interface CompileEnvironment {
  internals: ClassValidatorInternals;
  options: CompileOptions;
  runtime: ValidationRuntime;
  async: boolean;
}

/** Why a class is left to class-validator. */
class NotCompilable extends Error {}

/** Compiles the helpers a test expression may use, for the probe comparison. */
function standaloneTest(emit: TestEmitter, k: ConstantTable): (value: unknown) => unknown {
  const test = `return function test(x) { return ${emit('x')}; };`;
  const make = new Function('K', 'lengthWithin', 'isIn', 'isEnum', strictSource(k, [test]));
  return make(k.values, lengthWithin, isIn, isEnum) as (value: unknown) => unknown;
}

/**
 * Writes one class's validation as a single JavaScript function, doing what class-validator's
 * `ValidationExecutor.execute` does for an object of that class with the given options, in the same
 * order: unknown-value check, whitelist, then per property: conditions, `isDefined`, skip options,
 * constraints, nested validation. Built-in constraints become inline tests, rest.uws constraints call
 * their test, other synchronous constraints call their own `validate`. Throws NotCompilable for what it
 * does not mirror (promise validation, two @ValidateNested on one property, asynchronous constraints
 * when validating asynchronously).
 */
export function compileClassValidator(ctor: Function, env: CompileEnvironment): ObjectValidator {
  const { internals, options, runtime } = env;
  const storage = internals.storage;
  const k = new ConstantTable();
  const lines: string[] = [];
  const metadatas = storage.getTargetValidationMetadatas(
    ctor,
    undefined,
    options.always || false,
    options.strictGroups || false,
    options.groups,
  );
  const forbidUnknownValues = options.forbidUnknownValues === undefined || options.forbidUnknownValues !== false;

  if (forbidUnknownValues && metadatas.length === 0) {
    // An error whose property is undefined: flattenErrors names it "undefined".
    lines.push(
      `out.push({ path: ${childPathCode(HERE, 'undefined')}, constraint: 'unknownValue', message: 'an unknown value was passed to the validate function' });`,
    );
  } else {
    const grouped = storage.groupByPropertyName(metadatas);
    if (options.whitelist) lines.push(`whitelist(o, out, ${HERE}, ${k.ref(grouped)});`);
    Object.keys(grouped).forEach((property, index) =>
      lines.push(...propertyCode(ctor, property, grouped[property]!, index, env, k)),
    );
  }

  const name = `validate_${(ctor.name || 'anonymous').replace(/[^A-Za-z0-9_$]/g, '_')}`;
  const source = strictSource(k, [
    'const fail = H.fail, flush = H.flush, contexts = H.contexts, custom = H.custom, whitelist = H.whitelist, nested = H.nested, pathOf = H.pathOf, toArray = H.toArray, lengthWithin = H.lengthWithin, isIn = H.isIn, isEnum = H.isEnum;',
    `return function ${name}(o, out, path, index) {`,
    '  let v, c, here;',
    ...lines.map((l) => `  ${l}`),
    '};',
  ]);
  return new Function('K', 'H', source)(k.values, runtime.helpers()) as ObjectValidator;
}

/** The code of one property: class-validator's `performValidations` for it. */
function propertyCode(
  ctor: Function,
  property: string,
  metadatas: ValidationMetadataRecord[],
  index: number,
  env: CompileEnvironment,
  k: ConstantTable,
): string[] {
  const defined = metadatas.filter((m) => m.type === IS_DEFINED);
  const others = metadatas.filter((m) => m.type !== IS_DEFINED && m.type !== WHITELIST);
  const unknownType = others.find((m) => m.type !== CUSTOM && m.type !== NESTED && m.type !== CONDITIONAL);
  if (unknownType !== undefined) throw new NotCompilable(`${property}: ${unknownType.type} is not compiled`);
  const customs = others.filter((m) => m.type === CUSTOM);
  const nesteds = others.filter((m) => m.type === NESTED);
  const conditions = others.filter((m) => m.type === CONDITIONAL);
  if (nesteds.length > 1) throw new NotCompilable(`${property}: more than one @ValidateNested`);
  if (defined.length === 0 && others.length === 0) return []; // @Allow only: nothing to check

  const label = `p${index}`;
  const path = childPathCode(HERE, property);
  const out: string[] = [`v = o[${stringLiteral(property)}]; c = undefined;`, `${label}: {`];
  if (conditions.length > 0) {
    // class-validator evaluates every condition, then combines them.
    const names = conditions.map((_, i) => `q${i}`);
    conditions.forEach((m, i) => out.push(`  const ${names[i]} = ${conditionCode(property, m, k)};`));
    out.push(`  if (!(true && ${names.join(' && ')})) break ${label};`);
  }
  for (const m of defined) out.push(...constraintCode(ctor, m, env, k).map((l) => `  ${l}`));
  // class-validator maps the contexts of the isDefined checks at once, the others' at the end (twice for custom ones).
  const definedContexts = contextPlan(defined, env);
  const otherContexts = contextPlan([...others, ...customs], env);
  if (definedContexts.length > 0) out.push(`  if (c !== undefined) contexts(c, ${k.ref(definedContexts)});`);
  const o = env.options;
  if (o.skipUndefinedProperties === true) out.push(`  if (v === undefined) break ${label};`);
  if (o.skipNullProperties === true) out.push(`  if (v === null) break ${label};`);
  if (o.skipMissingProperties === true) out.push(`  if (v === null || v === undefined) break ${label};`);
  for (const m of customs) out.push(...constraintCode(ctor, m, env, k).map((l) => `  ${l}`));
  // Mapped before nested validation too: it flushes the property's constraints before its children's.
  const mapOthers = otherContexts.length > 0 ? [`  if (c !== undefined) contexts(c, ${k.ref(otherContexts)});`] : [];
  out.push(...mapOthers);
  if (nesteds.length === 1) {
    const site: NestedSite = { metadata: nesteds[0]!, cell: { ctor: undefined, fn: undefined } };
    out.push(`  c = nested(v, c, out, ${path}, undefined, ${k.ref(site)});`, ...mapOthers);
  }
  out.push('}', `if (c !== undefined) flush(out, ${path}, c);`);
  return out;
}

/** The `[type, context]` pairs of the metadatas that have a context, typed as class-validator's `getConstraintType`. */
function contextPlan(metadatas: readonly ValidationMetadataRecord[], env: CompileEnvironment): ContextPlan {
  const plan: Array<readonly [string, Record<string, unknown>]> = [];
  for (const m of metadatas) {
    if (!m.context) continue;
    const first =
      m.type === CUSTOM && m.constraintCls !== undefined
        ? env.internals.storage.getTargetValidatorConstraints(m.constraintCls)[0]
        : undefined;
    plan.push([first?.name ? first.name : m.type, m.context]);
  }
  return plan;
}

/** Whether a condition is class-validator's own `@IsOptional` (it holds exactly when the value is neither null nor undefined). */
export function isBuiltInOptional(property: string, m: ValidationMetadataRecord): boolean {
  const condition = m.constraints?.[0];
  if (m.name !== 'isOptional' || typeof condition !== 'function') return false;
  const inline = (value: unknown) => value !== null && value !== undefined;
  const reference = (value: unknown) => condition({ [property]: value }, value);
  return agreesOnProbes(inline, reference, undefined);
}

/** A condition (`@IsOptional` inline when it behaves as the built-in one, else the function itself). */
function conditionCode(property: string, m: ValidationMetadataRecord, k: ConstantTable): string {
  const key = stringLiteral(property);
  if (isBuiltInOptional(property, m)) return `(o[${key}] !== null && o[${key}] !== undefined)`;
  // `metadata.constraints[0](object, value)`: called on the constraints array, as class-validator does.
  return `${k.ref(m.constraints)}[0](o, v)`;
}

/** The code of one constraint metadata: class-validator's `customValidations` for it. */
function constraintCode(
  ctor: Function,
  m: ValidationMetadataRecord,
  env: CompileEnvironment,
  k: ConstantTable,
): string[] {
  const out: string[] = [];
  const constraintClasses: ConstraintMetadataRecord[] =
    m.constraintCls === undefined ? [] : env.internals.storage.getTargetValidatorConstraints(m.constraintCls);
  for (const constraint of constraintClasses) {
    if (constraint.async) {
      // validateSync ignores asynchronous constraints; validate() runs them: leave those classes to class-validator.
      if (env.async) throw new NotCompilable(`${m.propertyName}: asynchronous constraint ${constraint.name ?? ''}`);
      continue;
    }
    const site: CheckSite = { metadata: m, constraint, instance: constraint.instance };
    const s = k.ref(site);
    const broken = `c = fail(c, o, v, ${s});`;
    const emit = inlineTest(ctor, m, site, env, k);
    let check: string[];
    if (emit === undefined) check = [`if (!custom(o, v, ${s})) ${broken}`];
    else if (!m.each) check = [`if (!${emit('v')}) ${broken}`];
    else {
      check = [
        `if (Array.isArray(v) || v instanceof Set || v instanceof Map) {`,
        `  const a = toArray(v); let ok = true;`,
        `  for (let j = 0; j < a.length; j++) { if (!(j in a)) continue; const e = a[j]; if (!${emit('e')}) { ok = false; break; } }`,
        `  if (!ok) ${broken}`,
        `} else if (!${emit('v')}) ${broken}`,
      ];
    }
    // stopAtFirstError: a constraint is skipped once the property has a broken one.
    out.push(
      ...(env.options.stopAtFirstError ? ['if (c === undefined) {', ...check.map((l) => `  ${l}`), '}'] : check),
    );
  }
  if (out.length === 0 || !m.validateIf || env.internals.minor < 15) return out;
  // class-validator 0.15: a constraint's own `validateIf` option decides whether it runs.
  return [`if (${k.ref(m)}.validateIf(o, v)) {`, ...out.map((l) => `  ${l}`), '}'];
}

/** An inline test for a rest.uws or built-in constraint, or undefined to call the constraint's `validate`. */
export function inlineTest(
  ctor: Function,
  m: ValidationMetadataRecord,
  site: CheckSite,
  env: CompileEnvironment,
  k: ConstantTable,
): TestEmitter | undefined {
  const direct = directConstraintOf(m.constraintCls);
  if (direct !== undefined) {
    const test = k.ref(direct.test);
    const nullPasses = k.literal(direct.nullPasses);
    return (x) => `(${x} === null || ${x} === undefined ? ${nullPasses} : ${test}(${x}))`;
  }
  const name = site.constraint.name;
  const known = name === undefined ? undefined : KNOWN_CONSTRAINTS[name];
  if (known === undefined || typeof site.instance?.validate !== 'function') return undefined;
  const probeTable = new ConstantTable();
  let emit: TestEmitter | undefined;
  try {
    emit = known(m.constraints ?? [], probeTable, env.internals.module);
  } catch {
    return undefined;
  }
  if (emit === undefined) return undefined;
  const inline = standaloneTest(emit, probeTable);
  const reference = (value: unknown) =>
    site.instance.validate(value, {
      targetName: ctor.name,
      property: m.propertyName,
      object: {},
      value,
      constraints: m.constraints,
    });
  if (!agreesOnProbes(inline, reference, m.constraints)) return undefined;
  // Same emitter, constants written into the class's own table.
  return known(m.constraints ?? [], k, env.internals.module);
}
