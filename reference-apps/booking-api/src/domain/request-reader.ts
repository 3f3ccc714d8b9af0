import { BookingError } from './booking-error';

/**
 * Reads one JSON value at a named path and refuses wrong input with a message naming the path
 * (`customersDetails.customers[1].personType`), so a partner sees exactly which field to fix.
 */
export class RequestReader {
  constructor(
    readonly value: unknown,
    readonly path: string,
  ) {}

  static root(value: unknown, name = 'body'): RequestReader {
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      throw BookingError.missing(name);
    }
    if (typeof value !== 'object' || Array.isArray(value)) throw BookingError.invalid(name, 'expected a JSON object');
    return new RequestReader(value, '');
  }

  private childPath(key: string | number): string {
    if (typeof key === 'number') return `${this.path}[${key}]`;
    return this.path ? `${this.path}.${key}` : key;
  }

  /** A field of this object; undefined and null both count as absent. */
  field(key: string): RequestReader {
    const object = this.value as Record<string, unknown>;
    return new RequestReader(object[key] ?? undefined, this.childPath(key));
  }

  get present(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  object(): RequestReader {
    if (!this.present) throw BookingError.missing(this.path);
    if (typeof this.value !== 'object' || Array.isArray(this.value))
      throw BookingError.invalid(this.path, 'expected an object');
    return this;
  }

  /** A non-empty string (a number is accepted for ids: partners send both). */
  string(options: { allowNumber?: boolean; maxLength?: number } = {}): string {
    if (!this.present) throw BookingError.missing(this.path);
    let text: string;
    if (typeof this.value === 'string') text = this.value;
    else if (options.allowNumber && typeof this.value === 'number' && Number.isFinite(this.value))
      text = String(this.value);
    else throw BookingError.invalid(this.path, `expected a string, got ${describe(this.value)}`);
    if (text.trim() === '') throw BookingError.missing(this.path);
    const maxLength = options.maxLength ?? 1000;
    if (text.length > maxLength) throw BookingError.invalid(this.path, `longer than ${maxLength} characters`);
    return text;
  }

  optionalString(options: { maxLength?: number } = {}): string | undefined {
    return this.present ? this.string(options) : undefined;
  }

  number(): number {
    if (!this.present) throw BookingError.missing(this.path);
    if (typeof this.value !== 'number' || !Number.isFinite(this.value)) {
      throw BookingError.invalid(this.path, `expected a number, got ${describe(this.value)}`);
    }
    return this.value;
  }

  integer(min: number, max: number): number {
    const value = this.number();
    if (!Number.isInteger(value) || value < min || value > max) {
      throw BookingError.invalid(this.path, `expected an integer from ${min} to ${max}, got ${value}`);
    }
    return value;
  }

  boolean(defaultValue?: boolean): boolean {
    if (!this.present) {
      if (defaultValue !== undefined) return defaultValue;
      throw BookingError.missing(this.path);
    }
    if (typeof this.value !== 'boolean')
      throw BookingError.invalid(this.path, `expected true or false, got ${describe(this.value)}`);
    return this.value;
  }

  /** Array elements as readers; absent gives [] when optional. */
  array(options: { optional?: boolean; maxItems?: number } = {}): RequestReader[] {
    if (!this.present) {
      if (options.optional) return [];
      throw BookingError.missing(this.path);
    }
    if (!Array.isArray(this.value))
      throw BookingError.invalid(this.path, `expected an array, got ${describe(this.value)}`);
    const maxItems = options.maxItems ?? 100;
    if (this.value.length > maxItems) throw BookingError.invalid(this.path, `at most ${maxItems} entries allowed`);
    return this.value.map((item, index) => new RequestReader(item, this.childPath(index)));
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
