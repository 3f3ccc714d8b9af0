/**
 * JSON.stringify's text for a response body, faster for class instances: one function per class, written
 * from the shape of its first instance (its own keys in order, and the kind of each value), as
 * fast-json-stringify writes one from a schema. A compiled function emits the keys as constant text and
 * joins the values without asking each object for `toJSON` through the whole prototype chain or escaping
 * each key again. It is exact or it steps aside: an object whose keys or value kinds differ from the
 * learned shape takes the generic path (every own key, as JSON.stringify walks it), and anything the
 * code does not mirror (a `toJSON` result that is itself an object with `toJSON`, BigInts, nesting deeper
 * than MAX_DEPTH, classes derived from built-ins) hands the whole value to JSON.stringify. Plain objects,
 * and arrays that hold no class instances, go to JSON.stringify at once: V8's own is the fastest there.
 *
 * What differs from JSON.stringify, on purpose: an own getter of an instance may run twice when the
 * compiled path gives up after reading it (the text is the same for getters that return the same value).
 */

/** Nesting handled by compiled code; deeper values (and cycles) go to JSON.stringify, which also reports cycles. */
const MAX_DEPTH = 100;

/** A property or element JSON.stringify leaves out (undefined, functions, symbols): never valid JSON text. */
const SKIP = '';

/** Writes one object: its JSON text, SKIP (toJSON gave undefined), or undefined to hand the whole value to JSON.stringify. */
type ClassWriter = (o: any, key: string | number, depth: number) => string | undefined;

interface ClassEntry {
  write: ClassWriter;
}

/** Per class: its compiled writer, or null when its instances go to JSON.stringify. Weak: apps may make classes at run time. */
const writers = new WeakMap<Function, ClassEntry | null>();

/** Code units JSON.stringify escapes (control characters, `"`, `\`), and surrogates (a lone one is escaped). */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A string's JSON text without its quotes. */
function escaped(s: string): string {
  const n = s.length;
  if (n < 24) {
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s).slice(1, -1);
    }
    return s;
  }
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s).slice(1, -1) : s;
}

/** A number's JSON text. */
function numberText(n: number): string {
  return Number.isFinite(n) ? '' + n : 'null';
}

/**
 * JSON.stringify(value), from compiled code where it is faster. Returns undefined where JSON.stringify does
 * (undefined, a function, a symbol, a `toJSON` that gives one of those); throws what JSON.stringify throws.
 */
export function toJsonText(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  let text: string | undefined;
  if (Array.isArray(value)) {
    if (!holdsClassInstances(value)) return JSON.stringify(value);
    text = objectText(value, '', 0);
  } else {
    const entry = entryFor((value as object).constructor, value);
    if (entry === null) return JSON.stringify(value);
    text = entry.write(value, '', 0);
  }
  if (text === undefined) return JSON.stringify(value);
  return text === SKIP ? undefined : text;
}

/** Whether an array's first object element is an instance of a class with a compiled writer. */
function holdsClassInstances(array: unknown[]): boolean {
  const n = Math.min(array.length, 8);
  for (let i = 0; i < n; i++) {
    const e = array[i];
    if (e !== null && typeof e === 'object') return !Array.isArray(e) && entryFor((e as object).constructor, e) !== null;
  }
  return false;
}

/** The compiled writer of a class, made from `sample` the first time; null for plain objects and built-ins. */
function entryFor(ctor: unknown, sample: object): ClassEntry | null {
  if (typeof ctor !== 'function' || ctor === Object) return null;
  let entry = writers.get(ctor);
  if (entry === undefined) {
    entry = compilable(ctor, sample) ? { write: compileWriter(ctor, sample) } : null;
    writers.set(ctor, entry);
  }
  return entry;
}

/**
 * A class of the application: its instances are ordinary objects whose prototype is the class's. Classes
 * derived from built-ins (arrays, boxed primitives, Date, Map...) are left to JSON.stringify.
 */
function compilable(ctor: Function, sample: object): boolean {
  const prototype = ctor.prototype as object | undefined;
  if (prototype === undefined || prototype === null || Object.getPrototypeOf(sample) !== prototype) return false;
  for (let p: object | null = prototype; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const owner = Object.getOwnPropertyDescriptor(p, 'constructor')?.value as unknown;
    if (typeof owner === 'function' && isNative(owner)) return false;
  }
  return true;
}

function isNative(fn: Function): boolean {
  return /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(fn));
}

/** Any value's JSON text as a property or element: SKIP where JSON.stringify leaves it out, undefined to give up. */
function valueText(v: unknown, key: string | number, depth: number): string | undefined {
  switch (typeof v) {
    case 'string':
      return '"' + escaped(v) + '"';
    case 'number':
      return numberText(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      return v === null ? 'null' : objectText(v, key, depth);
    case 'undefined':
    case 'symbol':
      return SKIP;
    case 'function':
      // A function with its own toJSON is serialized through it: left to JSON.stringify.
      return typeof (v as { toJSON?: unknown }).toJSON === 'function' ? undefined : SKIP;
    default:
      return undefined; // bigint: JSON.stringify throws (or calls a BigInt.prototype.toJSON)
  }
}

/** An object's JSON text (its toJSON applied), by its class's writer where it has one. */
function objectText(v: object, key: string | number, depth: number): string | undefined {
  if (Array.isArray(v)) {
    const toJson = (v as { toJSON?: unknown }).toJSON;
    return typeof toJson === 'function' ? viaToJson(v, toJson, key, depth) : arrayText(v, depth);
  }
  const entry = entryFor(v.constructor, v);
  if (entry !== null) return entry.write(v, key, depth);
  const toJson = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return viaToJson(v, toJson, key, depth);
  // No toJSON at its top: JSON.stringify gives the same text for it alone as inside the whole value.
  return JSON.stringify(v);
}

/** The value's toJSON(key), serialized as JSON.stringify serializes it (without asking the result for toJSON again). */
function viaToJson(v: object, toJson: Function, key: string | number, depth: number): string | undefined {
  const result: unknown = toJson.call(v, '' + key);
  if (result !== null && (typeof result === 'object' || typeof result === 'function')) {
    // An object result is serialized without its own toJSON; JSON.stringify alone would call it: give up.
    if (typeof (result as { toJSON?: unknown }).toJSON === 'function') return undefined;
    if (typeof result === 'function') return SKIP;
    return objectText(result, key, depth);
  }
  return valueText(result, key, depth);
}

/** An array's JSON text: holes and left-out values as null; consecutive elements of one class share a lookup. */
function arrayText(a: unknown[], depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const n = a.length;
  if (n === 0) return '[]';
  const deeper = depth + 1;
  let s = '[';
  let lastCtor: unknown = undefined;
  let lastEntry: ClassEntry | null = null;
  for (let i = 0; i < n; i++) {
    const e = a[i];
    let x: string | undefined;
    if (e !== null && typeof e === 'object' && !Array.isArray(e)) {
      const ctor = (e as object).constructor;
      if (ctor !== lastCtor) {
        lastCtor = ctor;
        lastEntry = entryFor(ctor, e);
      }
      x = lastEntry !== null ? lastEntry.write(e, i, deeper) : objectText(e, i, deeper);
    } else {
      x = valueText(e, i, deeper);
    }
    if (x === undefined) return undefined;
    s += (i === 0 ? '' : ',') + (x === SKIP ? 'null' : x);
  }
  return s + ']';
}

/** An object's JSON text from its own keys, whatever its shape (the compiled writers' way out). */
function genericObjectText(o: any, keys: string[], depth: number): string | undefined {
  let s = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const x = valueText(o[key], key, depth + 1);
    if (x === undefined) return undefined;
    if (x !== SKIP) s += (s.length === 1 ? '"' : ',"') + escaped(key) + '":' + x;
  }
  return s + '}';
}

/** What a compiled writer expects of a property's value, learned from the first instance. */
type Kind = 'string' | 'number' | 'boolean' | 'any';

function kindOf(sample: object, key: string): Kind {
  const descriptor = Object.getOwnPropertyDescriptor(sample, key);
  // Accessors are not called while compiling.
  if (descriptor === undefined || !('value' in descriptor)) return 'any';
  const t = typeof descriptor.value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'any';
}

/** Shapes a writer learns again when its instances keep missing the learned one. */
const RELEARN_AFTER_MISSES = 64;
const MAX_RELEARNS = 4;

/**
 * The class's writer. The generated function checks the object's own keys against the learned list and each
 * value's kind, then writes the text with the keys as constants (a string value's closing quote joined to the
 * next key's text); on a mismatch it takes the generic path. After RELEARN_AFTER_MISSES misses in a row it
 * learns the current object's shape (at most MAX_RELEARNS times).
 */
function compileWriter(ctor: Function, sample: object): ClassWriter {
  let compiled = generate(ctor, sample);
  let misses = 0;
  let relearned = 0;
  const writer: ClassWriter = (o, key, depth) => {
    const out = compiled(o, key, depth);
    if (out !== MISS) {
      misses = 0;
      return out as string | undefined;
    }
    if (++misses >= RELEARN_AFTER_MISSES && relearned < MAX_RELEARNS) {
      relearned++;
      misses = 0;
      compiled = generate(ctor, o);
    }
    return genericObjectText(o, Object.keys(o), depth);
  };
  return writer;
}

/** Returned by generated code when the object does not have the learned shape. */
const MISS = Symbol('rest.uws:json-shape-miss');

type Generated = (o: any, key: string | number, depth: number) => string | undefined | typeof MISS;

function generate(ctor: Function, sample: object): Generated {
  const keys = Object.keys(sample);
  const kinds = keys.map((k) => kindOf(sample, k));
  const shape = [`keys.length === ${keys.length}`, ...keys.map((k, i) => `keys[${i}] === ${JSON.stringify(k)}`)];
  const reads = keys.map((k, i) => `const v${i} = o[${JSON.stringify(k)}];`);
  const kindChecks = kinds.flatMap((kind, i) => (kind === 'any' ? [] : [`typeof v${i} === ${JSON.stringify(kind)}`]));
  // The text is built as one expression per run of known kinds; an `any` value ends the run (it may be left out).
  const lines: string[] = [];
  let pending = '{'; // constant text not yet written
  let expr: string[] = []; // parts of the current expression
  const flush = () => {
    if (pending !== '') expr.push(JSON.stringify(pending));
    pending = '';
    if (expr.length > 0) lines.push(`s += ${expr.join(' + ')};`);
    expr = [];
  };
  keys.forEach((k, i) => {
    const name = JSON.stringify(k); // the key's JSON text
    const prefix = `${i === 0 ? '' : ','}${name}:`;
    switch (kinds[i]) {
      case 'string':
        expr.push(JSON.stringify(pending + prefix + '"'), `E(v${i})`);
        pending = '"';
        break;
      case 'number':
        expr.push(JSON.stringify(pending + prefix), `N(v${i})`);
        pending = '';
        break;
      case 'boolean':
        expr.push(JSON.stringify(pending + prefix), `(v${i} ? "true" : "false")`);
        pending = '';
        break;
      default:
        flush();
        lines.push(`x = V(v${i}, ${name}, deeper);`, 'if (x === undefined) return undefined;');
        // Left out: the constant text after it starts with a comma, right only when a key was written before.
        if (i === 0) lines.push('if (x === "") return MISS;', `s += ${JSON.stringify(prefix)} + x;`);
        else lines.push(`if (x !== "") s += ${JSON.stringify(prefix)} + x;`);
    }
  });
  pending += '}';
  flush();
  const name = `json_${(ctor.name || 'anonymous').replace(/[^A-Za-z0-9_$]/g, '_')}`;
  const source = [
    '"use strict";',
    `return function ${name}(o, key, depth) {`,
    '  const toJson = o.toJSON;',
    '  if (typeof toJson === "function") return T(o, toJson, key, depth);',
    `  if (depth > ${MAX_DEPTH}) return undefined;`,
    '  const keys = Object.keys(o);',
    `  if (!(${shape.join(' && ')})) return MISS;`,
    ...reads.map((r) => `  ${r}`),
    kindChecks.length > 0 ? `  if (!(${kindChecks.join(' && ')})) return MISS;` : '',
    '  const deeper = depth + 1;',
    '  let s = "", x;',
    ...lines.map((l) => `  ${l}`),
    '  return s;',
    '};',
  ].join('\n');
  return new Function('E', 'N', 'V', 'T', 'MISS', source)(escaped, numberText, valueText, viaToJson, MISS) as Generated;
}
