/**
 * The only ways generated code refers to values: literals written by `literal` (strings through
 * JSON.stringify, numbers spelled out) and everything else through a constants table the generated
 * function receives. No value from metadata or a request is ever pasted into source text unescaped.
 */

/** Constants handed to generated code, referred to as `K[i]`. */
export class ConstantTable {
  readonly values: unknown[] = [];

  /** `K[i]` for the value (the same value reuses its slot). */
  ref(value: unknown): string {
    let i = this.values.indexOf(value);
    if (i < 0 || Number.isNaN(value)) {
      i = this.values.length;
      this.values.push(value);
    }
    return `K[${i}]`;
  }

  /** A literal for strings, numbers, booleans, null and undefined; a `K[i]` reference for anything else. */
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
