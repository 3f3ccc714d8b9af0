import { loadClassTransformerInternals, type ClassTransformerInternals } from './internals';
import { compileClassTransformer } from './transform-compiler';

/** Turns one plain object into an instance of a class (class-transformer's object branch for that class). */
export type ObjectTransformer = (value: any) => unknown;

/** How a class is built: by its compiled function, or by class-transformer (and why). */
export type TransformMode = { compiled: true } | { compiled: false; reason: string };

/** Why a class is left to class-transformer. */
export class NotTransformable extends Error {}

/**
 * class-transformer's `plainToInstance` with the same result, from one generated function per class.
 * Only for the default transform options (anything else: undefined from `create`, class-transformer
 * as before); a class with metadata the compiler does not mirror (@Expose, @Exclude, discriminators)
 * and any value outside plain data (Sets, Maps, Dates, promises, class instances) are handed to
 * class-transformer's own executor for that part of the tree. Every step copies
 * node_modules/class-transformer/cjs/TransformOperationExecutor.js (`transform`, PLAIN_TO_CLASS).
 */
export class CompiledTransform {
  private readonly transformers = new Map<Function, ObjectTransformer>();
  private readonly modes = new Map<Function, TransformMode>();
  /** The options object of the current `toInstance` call (class-transformer makes one per call), made when first needed. */
  private callOptions: object | undefined;

  private constructor(
    readonly internals: ClassTransformerInternals,
    private readonly userOptions: object | undefined,
  ) {}

  /** A compiled transform, or undefined when class-transformer is not 0.5.x or the options are not its defaults. */
  static create(options: object | undefined, internals = loadClassTransformerInternals()): CompiledTransform | undefined {
    if (internals === undefined) return undefined;
    const merged: Record<string, unknown> = { ...internals.defaultOptions, ...options };
    for (const key of Object.keys(internals.defaultOptions)) if (merged[key] !== internals.defaultOptions[key]) return undefined;
    return new CompiledTransform(internals, options);
  }

  /** `plainToInstance(type, plain, options)`. */
  toInstance(type: Function, plain: unknown): unknown {
    const saved = this.callOptions;
    this.callOptions = undefined;
    try {
      return this.value(plain, type, undefined, undefined);
    } finally {
      this.callOptions = saved;
    }
  }

  /** The executor's options object for this call (given to @Transform functions). */
  readonly options = (): object => (this.callOptions ??= { ...this.internals.defaultOptions, ...this.userOptions });

  /** class-transformer's own executor for one value of the tree. */
  readonly delegate = (value: unknown, targetType: unknown, arrayType: unknown, isMap: unknown): unknown =>
    this.internals.executor(this.options()).transform(undefined, value, targetType, arrayType, isMap, 0);

  /** `transform(undefined, value, targetType, arrayType, isMap)`. */
  readonly value = (value: unknown, targetType: unknown, arrayType: unknown, isMap: unknown): unknown => {
    if (Array.isArray(value)) {
      const out: unknown[] | Set<unknown> = arrayType ? instantiateArrayType(arrayType as new () => unknown[] | Set<unknown>) : [];
      value.forEach((sub: unknown) => {
        const v = this.value(sub, targetType, undefined, sub instanceof Map);
        if (out instanceof Set) out.add(v);
        else out.push(v);
      });
      return out;
    }
    if (value instanceof Set) return this.delegate(value, targetType, arrayType, isMap);
    if (!isMap) {
      if (targetType === String) return value === null || value === undefined ? value : String(value);
      if (targetType === Number) return value === null || value === undefined ? value : Number(value);
      if (targetType === Boolean) return value === null || value === undefined ? value : Boolean(value);
      if (targetType === Date || value instanceof Date || targetType === Buffer || value instanceof Buffer) return this.delegate(value, targetType, arrayType, isMap);
    }
    if (value === null || typeof value !== 'object') return value;
    // Promises, thenables, Maps: the executor's own branches.
    if (isMap || typeof (value as { then?: unknown }).then === 'function') return this.delegate(value, targetType, arrayType, isMap);
    if (!targetType) return value.constructor === Object ? this.plainCopy(value as Record<string, unknown>) : this.delegate(value, targetType, arrayType, isMap);
    if (typeof targetType !== 'function') return this.delegate(value, targetType, arrayType, isMap);
    return this.transformerFor(targetType)(value);
  };

  /** An untyped plain object: a new `{}` with every key transformed (`Object.prototype` names skipped, as the executor does). */
  private plainCopy(value: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === '__proto__' || key === 'constructor') continue;
      const sub = value[key];
      if (key in Object.prototype) {
        const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, key);
        if ((descriptor && !descriptor.set) || out[key] instanceof Function) continue;
      }
      out[key] = sub === null || typeof sub !== 'object' ? sub : this.value(sub, undefined, undefined, sub instanceof Map);
    }
    return out;
  }

  /** Compiles the class now rather than on its first body. */
  prepare(ctor: Function): void {
    this.transformerFor(ctor);
  }

  /** Whether objects of the class are built by compiled code (compiling it if needed). */
  modeOf(ctor: Function): TransformMode {
    this.transformerFor(ctor);
    return this.modes.get(ctor)!;
  }

  /** The generated source of the class's transformer, when it has one. */
  sourceOf(ctor: Function): string | undefined {
    return this.modeOf(ctor).compiled ? this.transformerFor(ctor).toString() : undefined;
  }

  private transformerFor(ctor: Function): ObjectTransformer {
    let fn = this.transformers.get(ctor);
    if (fn !== undefined) return fn;
    try {
      fn = compileClassTransformer(ctor, this);
      this.modes.set(ctor, { compiled: true });
    } catch (err) {
      fn = (value) => this.delegate(value, ctor, undefined, false);
      this.modes.set(ctor, { compiled: false, reason: err instanceof Error ? err.message : String(err) });
    }
    this.transformers.set(ctor, fn);
    return fn;
  }
}

/** class-transformer's `instantiateArrayType`. */
function instantiateArrayType(arrayType: new () => unknown[] | Set<unknown>): unknown[] | Set<unknown> {
  const array = new arrayType();
  if (!(array instanceof Set) && !('push' in array)) return [];
  return array;
}
