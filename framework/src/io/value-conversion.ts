import { designParamTypes } from '../metadata/store';
import type { ArgumentType } from '../metadata/types';
import { errors } from '../errors/factories';

/** Converts one string to the argument's type; throws ArgumentException (400) when it cannot. */
export type Converter = (value: string, label: string) => unknown;

/** A description of a type for messages: `number`, `Date`, `enum Color`, `number[]`. */
export function typeName(type: ArgumentType | undefined): string {
  if (type === undefined) return 'string';
  if (Array.isArray(type)) return `${typeName(type[0])}[]`;
  if (typeof type === 'function') {
    if (type === String) return 'string';
    if (type === Number) return 'number';
    if (type === Boolean) return 'boolean';
    if (type === BigInt) return 'bigint';
    return type.name || 'anonymous class';
  }
  return 'enum';
}

const fail = (value: string, label: string, type: string, why?: string): never => {
  throw errors.RU_ERR_CONVERSION(
    `Failed to convert value: '${truncate(value)}' of ${label} to type: ${type}${why ? ` (${why})` : ''}`,
  );
};

function truncate(v: string): string {
  return v.length > 64 ? `${v.slice(0, 61)}...` : v;
}

// biome-ignore lint/suspicious/noShadowRestrictedNames: the converter table names converters by target type
const toString: Converter = (v) => v;

/** Up to 15 plain digits: always an exact safe integer, so `Number` needs no checks. */
function isShortDigits(v: string): boolean {
  const length = v.length;
  if (length === 0 || length > 15) return false;
  for (let i = 0; i < length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const toNumber: Converter = (v, label) => {
  // Ids and counts are plain digits: skip the trim and the regex.
  if (isShortDigits(v)) return Number(v);
  const t = v.trim();
  // Number('') is 0 and Number('0x1f') is 31: accept decimal notation only, as users expect.
  if (t.length === 0 || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return fail(v, label, 'number');
  const n = Number(t);
  if (!Number.isFinite(n)) return fail(v, label, 'number', 'out of range');
  // An integer written out (an id) past 2^53 would silently become another number (99999999999999999999999: 1e+23).
  if (!Number.isSafeInteger(n) && /^[+-]?\d+$/.test(t))
    return fail(
      v,
      label,
      'number',
      `beyond the safe integer range (±${Number.MAX_SAFE_INTEGER}); a bigint parameter takes larger integers`,
    );
  return n;
};

const toBoolean: Converter = (v, label) => {
  switch (v.trim().toLowerCase()) {
    case 'true':
    case '1':
    case 'yes':
    case 'on':
      return true;
    case 'false':
    case '0':
    case 'no':
    case 'off':
      return false;
    default:
      return fail(v, label, 'boolean', 'expected true or false');
  }
};

const toBigInt: Converter = (v, label) => {
  const t = v.trim();
  if (!/^[+-]?\d+$/.test(t)) return fail(v, label, 'bigint');
  return BigInt(t);
};

const toDate: Converter = (v, label) => {
  const t = v.trim();
  // Epoch milliseconds or an ISO 8601 date/date-time.
  const d = /^-?\d+$/.test(t) ? new Date(Number(t)) : /^\d{4}-\d{2}-\d{2}/.test(t) ? new Date(t) : new Date(NaN);
  return Number.isNaN(d.getTime()) ? fail(v, label, 'Date', 'expected an ISO 8601 date or epoch milliseconds') : d;
};

function enumConverter(e: Record<string, string | number>): Converter {
  // Numeric TypeScript enums map names to numbers and numbers back to names; accept both names and values.
  const byValue = new Map<string, string | number>();
  for (const [k, val] of Object.entries(e)) {
    if (typeof e[val as any] === 'number' && typeof val === 'string' && /^\d+$/.test(k)) continue; // reverse mapping entry
    byValue.set(String(val), val);
    if (typeof val === 'number') byValue.set(k, val);
  }
  const allowed = [...new Set([...byValue.values()].map(String))].join(', ');
  return (v, label) => {
    const hit = byValue.get(v);
    return hit !== undefined ? hit : fail(v, label, 'enum', `allowed: ${allowed}`);
  };
}

function classConverter(type: Function): Converter | undefined {
  const T = type as any;
  if (type.length === 1) {
    // A single primitive constructor gets its value converted first, when TypeScript recorded the
    // parameter's type (it does for decorated classes only); otherwise the constructor gets the string.
    const param = designParamTypes(type, undefined)?.[0];
    const primitive =
      param === Number || param === Boolean || param === BigInt || param === Date ? converterFor(param) : undefined;
    return (v, label) => {
      const arg = primitive !== undefined ? primitive(v, label) : v;
      try {
        return new T(arg);
      } catch (err) {
        return fail(v, label, type.name, (err as Error)?.message);
      }
    };
  }
  for (const factory of ['fromString', 'valueOf'] as const) {
    if (Object.hasOwn(type, factory) && typeof T[factory] === 'function') {
      return (v, label) => {
        try {
          const out = T[factory](v);
          return out === undefined || out === null ? fail(v, label, type.name) : out;
        } catch (err) {
          return fail(v, label, type.name, (err as Error)?.message);
        }
      };
    }
  }
  return undefined;
}

/**
 * The converter for a type, chosen once at registration: string, number, boolean, bigint, Date,
 * enums, then a single-argument constructor, a static `fromString(string)`, then a static `valueOf(string)`.
 * Returns undefined when none applies (a reader is needed).
 */
export function converterFor(type: ArgumentType | undefined): Converter | undefined {
  if (type === undefined || type === String || type === Object) return toString;
  if (type === Number) return toNumber;
  if (type === Boolean) return toBoolean;
  if (type === BigInt) return toBigInt;
  if (type === Date) return toDate;
  if (Array.isArray(type)) return converterFor(type[0]);
  if (typeof type === 'object' && type !== null) return enumConverter(type as Record<string, string | number>);
  if (typeof type === 'function') return classConverter(type);
  return undefined;
}

/** Is this an array type (explicit `[Type]` or TypeScript's `Array`)? */
export function isArrayType(type: ArgumentType | undefined): boolean {
  return Array.isArray(type) || type === Array;
}

/**
 * Can an empty value (`?flag`, `?n=`) not be a value of this type? Then it counts as absent, so a
 * `@DefaultValue` applies (the reference library's rule). Strings (and classes) take `''` as a value.
 */
export function emptyMeansAbsent(type: ArgumentType | undefined): boolean {
  if (Array.isArray(type)) return emptyMeansAbsent(type[0]);
  if (type === Number || type === Boolean || type === BigInt || type === Date) return true;
  if (typeof type === 'object' && type !== null) return !Object.values(type).includes('');
  return false;
}
