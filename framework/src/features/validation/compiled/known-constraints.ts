import type { ConstantTable } from './js-code';

/**
 * class-validator's built-in constraints the compiler writes out as plain JavaScript, by constraint
 * name. Each entry turns the metadata's `constraints` into an expression testing one value (`x` is
 * always a plain variable name), copying the package's own check (class-validator 0.14/0.15, see
 * node_modules/class-validator/cjs/decorator). When the constraints have an unusual shape the entry
 * returns undefined and the constraint is evaluated by calling its own `validate`.
 * Whatever is written here is checked against the constraint's real `validate` at compile time
 * (constraint-probes.ts) before it is used.
 */
export type TestEmitter = (x: string) => string;

type KnownConstraint = (
  constraints: readonly unknown[],
  k: ConstantTable,
  cv: typeof import('class-validator'),
) => TestEmitter | undefined;

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Numbers compared with `>=`/`<=` as the package does: a non-number bound never passes. */
function numberBound(operator: '>=' | '<=' | '>' | '<', bound: unknown, k: ConstantTable): TestEmitter {
  if (typeof bound !== 'number') return () => 'false';
  return (x) => `(typeof ${x} === 'number' && ${x} ${operator} ${k.literal(bound)})`;
}

/** Plain characters (below the surrogates) a string may start with that the quick length check reads one by one. */
const UNROLLED_PREFIX = 4;

/**
 * String length within bounds; the package's function decides the rare strings where plain length cannot.
 * The usual string is settled at the call site: its length within the bounds, and its first `min` characters
 * below the surrogates (each counts one, see string-length.ts). Written out here rather than left to
 * `lengthWithin`, because a property read has one feedback slot per place in the code: in the shared helper,
 * `length` and `charCodeAt` see every kind of string the app validates (internalized, sequential, cons...),
 * turn megamorphic, and cost a generic lookup per read (0.16-0.30 µs per request on the bench's order, timed).
 */
function stringLength(
  min: unknown,
  max: unknown,
  exact: (s: string) => boolean,
  k: ConstantTable,
): TestEmitter | undefined {
  // validator.js takes `options.min || 0` and no upper bound when max is undefined.
  if (!(min === undefined || isFiniteNumber(min)) || !(max === undefined || isFiniteNumber(max))) return undefined;
  const lowest = (min as number | undefined) || 0;
  const low = k.literal(lowest);
  const high = k.literal(max);
  const exactRef = k.ref(exact);
  const plainPrefix = Math.max(0, Math.ceil(lowest));
  const prefixPattern =
    plainPrefix > UNROLLED_PREFIX ? k.ref(new RegExp(`^[\\u0000-\\ud7ff]{${plainPrefix}}`)) : undefined;
  return (x) => {
    const quick: string[] = [];
    if (lowest > 0) quick.push(`${x}.length >= ${low}`);
    if (max !== undefined) quick.push(`${x}.length <= ${high}`);
    if (prefixPattern !== undefined) quick.push(`${prefixPattern}.test(${x})`);
    else for (let i = 0; i < plainPrefix; i++) quick.push(`${x}.charCodeAt(${i}) < 0xd800`);
    const settled = quick.length === 0 ? 'true' : quick.join(' && ');
    return `(typeof ${x} === 'string' && ((${settled}) || lengthWithin(${x}, ${low}, ${high}, ${exactRef})))`;
  };
}

/** A plain RegExp whose `test` answers exactly what `!!value.match(pattern)` answers. */
function plainPattern(pattern: unknown, modifiers: unknown): RegExp | undefined {
  let regex: RegExp;
  if (Object.prototype.toString.call(pattern) === '[object RegExp]') regex = pattern as RegExp;
  else {
    try {
      regex = new RegExp(pattern as string, modifiers as string | undefined);
    } catch {
      return undefined; // the package throws on every call: let it
    }
  }
  if (Object.getPrototypeOf(regex) !== RegExp.prototype || Reflect.ownKeys(regex).some((key) => key !== 'lastIndex'))
    return undefined;
  // Global and sticky expressions keep state between calls; leave them to the package.
  return /[gy]/.test(regex.flags) ? undefined : regex;
}

/** A call of the package's exported check with the metadata's first constraint. */
function exported(fn: unknown, constraints: readonly unknown[], k: ConstantTable): TestEmitter | undefined {
  if (typeof fn !== 'function') return undefined;
  const f = k.ref(fn);
  const option = k.literal(constraints[0]);
  return (x) => `${f}(${x}, ${option})`;
}

export const KNOWN_CONSTRAINTS: Readonly<Record<string, KnownConstraint>> = {
  isString: () => (x) => `(typeof ${x} === 'string' || ${x} instanceof String)`,
  isBoolean: () => (x) => `(typeof ${x} === 'boolean' || ${x} instanceof Boolean)`,
  isInt: () => (x) => `(typeof ${x} === 'number' && Number.isInteger(${x}))`,
  isNumber: ([options], k, cv) => {
    if (options === undefined) return (x) => `(typeof ${x} === 'number' && Number.isFinite(${x}))`;
    if (options === null || typeof options !== 'object') return undefined;
    const { allowNaN, allowInfinity, maxDecimalPlaces } = options as {
      allowNaN?: unknown;
      allowInfinity?: unknown;
      maxDecimalPlaces?: unknown;
    };
    if (maxDecimalPlaces !== undefined) return exported(cv.isNumber, [options], k);
    const nan = k.literal(!!allowNaN);
    const infinity = k.literal(!!allowInfinity);
    return (x) => `(typeof ${x} === 'number' && (Number.isFinite(${x}) || (${x} !== ${x} ? ${nan} : ${infinity})))`;
  },
  isDefined: () => (x) => `(${x} !== undefined && ${x} !== null)`,
  isNotEmpty: () => (x) => `(${x} !== '' && ${x} !== null && ${x} !== undefined)`,
  isEmpty: () => (x) => `(${x} === '' || ${x} === null || ${x} === undefined)`,
  min: ([bound], k) => numberBound('>=', bound, k),
  max: ([bound], k) => numberBound('<=', bound, k),
  isPositive: () => (x) => `(typeof ${x} === 'number' && ${x} > 0)`,
  isNegative: () => (x) => `(typeof ${x} === 'number' && ${x} < 0)`,
  minLength: ([min], k, cv) => stringLength(min, undefined, (s) => cv.minLength(s, min as number), k),
  maxLength: ([max], k, cv) => (isFiniteNumber(max) ? stringLength(0, max, (s) => cv.maxLength(s, max), k) : undefined),
  isLength: ([min, max], k, cv) => stringLength(min, max, (s) => cv.length(s, min as number, max as number), k),
  matches: ([pattern, modifiers], k) => {
    const regex = plainPattern(pattern, modifiers);
    if (regex === undefined) return undefined;
    const r = k.ref(regex);
    return (x) => `(typeof ${x} === 'string' && ${r}.test(${x}))`;
  },
  isIn: ([values], k) => {
    const v = k.ref(values);
    return (x) => `isIn(${x}, ${v})`;
  },
  isNotIn: ([values], k) => {
    const v = k.ref(values);
    return (x) => `!isIn(${x}, ${v})`;
  },
  isEnum: ([entity], k) => {
    if (entity === null || typeof entity !== 'object') return undefined;
    const e = k.ref(entity);
    return (x) => `isEnum(${x}, ${e})`;
  },
  isArray: () => (x) => `Array.isArray(${x})`,
  isObject: () => (x) =>
    `(${x} != null && (typeof ${x} === 'object' || typeof ${x} === 'function') && !Array.isArray(${x}))`,
  arrayMinSize:
    ([min], k) =>
    (x) =>
      `(Array.isArray(${x}) && ${x}.length >= ${k.literal(min)})`,
  arrayMaxSize:
    ([max], k) =>
    (x) =>
      `(Array.isArray(${x}) && ${x}.length <= ${k.literal(max)})`,
  arrayNotEmpty: () => (x) => `(Array.isArray(${x}) && ${x}.length > 0)`,
  equals:
    ([comparison], k) =>
    (x) =>
      `(${x} === ${k.literal(comparison)})`,
  notEquals:
    ([comparison], k) =>
    (x) =>
      `(${x} !== ${k.literal(comparison)})`,
  isEmail: (constraints, k, cv) => exported(cv.isEmail, constraints, k),
  isUuid: (constraints, k, cv) => exported(cv.isUUID, constraints, k),
  isIso8601: (constraints, k, cv) => exported(cv.isISO8601, constraints, k),
  isDateString: (constraints, k, cv) => exported(cv.isDateString, constraints, k),
  isUrl: (constraints, k, cv) => exported(cv.isURL, constraints, k),
};

/** `isIn` of class-validator: strict equality with an element (holes skipped, like `some`). */
export function isIn(value: unknown, values: unknown): boolean {
  if (!Array.isArray(values)) return false;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === value && (value !== undefined || i in values)) return true;
  }
  return false;
}

/** `isEnum` of class-validator: the value is one of the object's values (SameValueZero, like `includes`). */
export function isEnum(value: unknown, entity: object): boolean {
  const keys = Object.keys(entity);
  for (let i = 0; i < keys.length; i++) {
    const candidate = (entity as Record<string, unknown>)[keys[i]!];
    // biome-ignore lint/suspicious/noSelfCompare: NaN equals NaN here, as class-validator's isIn treats it
    if (candidate === value || (candidate !== candidate && value !== value)) return true;
  }
  return false;
}
