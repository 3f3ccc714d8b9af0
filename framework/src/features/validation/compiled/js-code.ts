/**
 * The only ways generated code refers to values: literals written by `literal` (strings through
 * JSON.stringify, numbers spelled out) and everything else through a constants table the generated
 * function receives. No value from metadata or a request is ever pasted into source text unescaped.
 */

/**
 * Constants handed to generated code as the array `K`, referred to by the names `K0`, `K1`...: local constants
 * bound once, when the function is made (see `strictSource`).
 */
export class ConstantTable {
  readonly values: unknown[] = [];

  /** `Ki` for the value (the same value reuses its slot). */
  ref(value: unknown): string {
    let i = this.values.indexOf(value);
    if (i < 0 || Number.isNaN(value)) {
      i = this.values.length;
      this.values.push(value);
    }
    return `K${i}`;
  }

  /** The declarations of the names `ref` gave out, from the array `K`. */
  declarations(): string {
    return this.values.length === 0 ? '' : `const ${this.values.map((_, i) => `K${i} = K[${i}]`).join(', ')};`;
  }

  /** A literal for strings, numbers, booleans, null and undefined; a `Ki` reference for anything else. */
  literal(value: unknown): string {
    switch (typeof value) {
      case 'string':
        return JSON.stringify(value);
      case 'number':
        if (Number.isNaN(value)) return '(0/0)';
        if (value === Infinity) return '(1/0)';
        if (value === -Infinity) return '(-1/0)';
        if (Object.is(value, -0)) return '(-0)';
        return value < 0 ? `(${String(value)})` : String(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'undefined':
        return '(void 0)';
      default:
        return value === null ? 'null' : this.ref(value);
    }
  }
}

/** A JavaScript string literal for a property name or text. */
export function stringLiteral(text: string): string {
  return JSON.stringify(text);
}

/**
 * The source of a generated function maker, in strict mode, that binds the table's constants before `lines` (which
 * make and return the function). Constants in local `const`s, not loaded from `K[i]` on each call, are what V8's
 * optimising compiler folds: a pattern's `test` then runs the compiled expression directly, a class is constructed
 * without a lookup.
 */
export function strictSource(k: ConstantTable, lines: readonly string[]): string {
  return ['"use strict";', k.declarations(), ...lines].join('\n');
}
