import { Buffer } from 'node:buffer';
import { assertJsonDepthFrom } from '../../../plugin';
import { PROTOTYPE_KEYS_DEPTH, withoutPrototypeKeys } from '../without-prototype-keys';
import { loadClassTransformerInternals, type ClassTransformerInternals } from './internals';
import { compileClassTransformer } from './transform-compiler';
import {
  type BodyTransformer,
  type ClassTransformers,
  type ObjectTransformer,
  type TransformSite,
} from './transform-types';

/** How a class is built: by its compiled function, or by class-transformer (and why). */
export type TransformMode = { compiled: true } | { compiled: false; reason: string };

/**
 * class-transformer's `plainToInstance` with the same result, from one generated function per class.
 * Only for the default transform options (anything else: undefined from `create`, class-transformer
 * as before); a class with metadata the compiler does not mirror (@Expose, @Exclude, discriminators)
 * and any value outside plain data (Sets, Maps, Dates, promises, class instances) are handed to
 * class-transformer's own executor for that part of the tree. Every step copies
 * node_modules/class-transformer/cjs/TransformOperationExecutor.js (`transform`, PLAIN_TO_CLASS).
 */
export class CompiledTransform implements TransformSite {
  private readonly transformers = new Map<Function, ClassTransformers>();
  private readonly modes = new Map<Function, TransformMode>();
  /** The options object of the current `toInstance` call (class-transformer makes one per call), made when first needed. */
  private callOptions: object | undefined;

  private constructor(
    readonly internals: ClassTransformerInternals,
    private readonly userOptions: object | undefined,
  ) {}

  /** A compiled transform, or undefined when class-transformer is not 0.5.x or the options are not its defaults. */
  static create(
    options: object | undefined,
    internals = loadClassTransformerInternals(),
  ): CompiledTransform | undefined {
    if (internals === undefined) return undefined;
    const merged: Record<string, unknown> = { ...internals.defaultOptions, ...options };
    for (const key of Object.keys(internals.defaultOptions))
      if (merged[key] !== internals.defaultOptions[key]) return undefined;
    return new CompiledTransform(internals, options);
  }

  /**
   * `plainToInstance(type, withoutPrototypeKeys(plain), options)`, with the prototype keys skipped while
   * building rather than in a copy first; the copy is still made for the parts of the tree where
   * anything could tell the difference (@Transform and type functions with parameters see it, values that
   * are not plain JSON data, class-transformer's own executor).
   */
  toInstanceOfBody(type: Function, plain: unknown): unknown {
    const saved = this.callOptions;
    this.callOptions = undefined;
    try {
      return this.body(plain, type, undefined, undefined, 0);
    } finally {
      this.callOptions = saved;
    }
  }

  /** `toInstanceOfBody` for JSON.parse's output as it is: its objects are plain JSON objects, not checked one by one. */
  toInstanceOfJson(type: Function, parsed: unknown): unknown {
    const saved = this.callOptions;
    this.callOptions = undefined;
    try {
      return this.body(parsed, type, undefined, undefined, 0, true);
    } finally {
      this.callOptions = saved;
    }
  }

  /** `transform(undefined, withoutPrototypeKeys(raw, depth), targetType, arrayType, isMap)`; `json` as in BodyTransformer. */
  readonly body = (
    raw: unknown,
    targetType: unknown,
    arrayType: unknown,
    isMap: unknown,
    depth: number,
    json = false,
  ): unknown => {
    if (raw === null || typeof raw !== 'object') return this.value(raw, targetType, arrayType, isMap);
    if (depth > PROTOTYPE_KEYS_DEPTH) {
      // Real bodies never get here; a deep one is measured before the walk below, which does not count levels.
      if (json) assertJsonDepthFrom(raw, depth + 1);
      return this.value(raw, targetType, arrayType, isMap);
    }
    if (targetType && typeof targetType !== 'function')
      return this.copied(raw, targetType, arrayType, isMap, depth, json);
    if (Array.isArray(raw)) {
      const out: unknown[] | Set<unknown> = arrayType
        ? instantiateArrayType(arrayType as new () => unknown[] | Set<unknown>)
        : [];
      const n = raw.length;
      const deeper = depth + 1;
      // Elements that are plain JSON objects of a class go straight to the class's transformer.
      const elementClass =
        deeper <= PROTOTYPE_KEYS_DEPTH && typeof targetType === 'function' && !isBuiltInTarget(targetType)
          ? targetType
          : undefined;
      const elementBody = elementClass === undefined ? undefined : this.transformersFor(elementClass).body;
      const set = out instanceof Set ? out : undefined;
      for (let i = 0; i < n; i++) {
        // JSON.parse makes no holes.
        if (!json && !(i in raw)) continue;
        const sub: unknown = raw[i];
        let v: unknown;
        if (
          elementBody !== undefined &&
          sub !== null &&
          typeof sub === 'object' &&
          !Array.isArray(sub) &&
          (json || plainShaped(sub, elementClass!))
        )
          v = elementBody(sub, deeper, json);
        else
          v = this.body(sub, targetType, undefined, deeper > PROTOTYPE_KEYS_DEPTH && sub instanceof Map, deeper, json);
        if (set !== undefined) set.add(v);
        else (out as unknown[]).push(v);
      }
      return out;
    }
    // The copy would be a plain object: only the plain-object branches are taken here, on plain JSON objects.
    if (isMap || isBuiltInTarget(targetType)) return this.copied(raw, targetType, arrayType, isMap, depth, json);
    if (!json && !plainShaped(raw, targetType)) return this.copied(raw, targetType, arrayType, isMap, depth);
    if (!targetType) return this.plainCopyOfBody(raw as Record<string, unknown>, depth, json);
    return this.transformersFor(targetType as Function).body(raw, depth, json);
  };

  /** The exact way: the stripped copy of this part of the tree, then the transform. */
  private copied(
    raw: unknown,
    targetType: unknown,
    arrayType: unknown,
    isMap: unknown,
    depth: number,
    json = false,
  ): unknown {
    if (json) assertJsonDepthFrom(raw, depth + 1);
    return this.value(withoutPrototypeKeys(raw, depth), targetType, arrayType, isMap);
  }

  /** `plainCopy` of the stripped copy of a plain JSON object. */
  private plainCopyOfBody(raw: Record<string, unknown>, depth: number, json: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = Object.keys(raw);
    const deeper = depth + 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
      const sub = raw[key];
      if (key in Object.prototype) {
        const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, key);
        if ((descriptor && !descriptor.set) || out[key] instanceof Function) continue;
      }
      out[key] =
        sub === null || typeof sub !== 'object'
          ? sub
          : this.body(sub, undefined, undefined, deeper > PROTOTYPE_KEYS_DEPTH && sub instanceof Map, deeper, json);
    }
    return out;
  }

  /** The exact way for one class: copy, then the class's transformer. */
  readonly copyThen =
    (plain: ObjectTransformer): BodyTransformer =>
    (raw: unknown, depth: number, json?: boolean): unknown => {
      if (json) assertJsonDepthFrom(raw, depth + 1);
      return plain(withoutPrototypeKeys(raw, depth));
    };

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
      const out: unknown[] | Set<unknown> = arrayType
        ? instantiateArrayType(arrayType as new () => unknown[] | Set<unknown>)
        : [];
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
      if (targetType === Date || value instanceof Date || targetType === Buffer || value instanceof Buffer)
        return this.delegate(value, targetType, arrayType, isMap);
    }
    if (value === null || typeof value !== 'object') return value;
    // Promises, thenables, Maps: the executor's own branches.
    if (isMap || typeof (value as { then?: unknown }).then === 'function')
      return this.delegate(value, targetType, arrayType, isMap);
    if (!targetType)
      return value.constructor === Object
        ? this.plainCopy(value as Record<string, unknown>)
        : this.delegate(value, targetType, arrayType, isMap);
    if (typeof targetType !== 'function') return this.delegate(value, targetType, arrayType, isMap);
    return this.transformersFor(targetType).plain(value);
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
      out[key] =
        sub === null || typeof sub !== 'object' ? sub : this.value(sub, undefined, undefined, sub instanceof Map);
    }
    return out;
  }

  /** Compiles the class now rather than on its first body. */
  prepare(ctor: Function): void {
    this.transformersFor(ctor);
  }

  /** Whether objects of the class are built by compiled code (compiling it if needed). */
  modeOf(ctor: Function): TransformMode {
    this.transformersFor(ctor);
    return this.modes.get(ctor)!;
  }

  /** The generated source of the class's transformers, when it has them. */
  sourceOf(ctor: Function): string | undefined {
    if (!this.modeOf(ctor).compiled) return undefined;
    const { plain, body } = this.transformersFor(ctor);
    return `${plain.toString()}\n${body.toString()}`;
  }

  private transformersFor(ctor: Function): ClassTransformers {
    let fns = this.transformers.get(ctor);
    if (fns !== undefined) return fns;
    try {
      fns = compileClassTransformer(ctor, this);
      this.modes.set(ctor, { compiled: true });
    } catch (err) {
      const plain: ObjectTransformer = (value) => this.delegate(value, ctor, undefined, false);
      fns = { plain, body: this.copyThen(plain) };
      this.modes.set(ctor, { compiled: false, reason: err instanceof Error ? err.message : String(err) });
    }
    this.transformers.set(ctor, fns);
    return fns;
  }
}

/** Targets with their own branch in class-transformer (never a class to build). */
function isBuiltInTarget(targetType: unknown): boolean {
  return (
    targetType === String ||
    targetType === Number ||
    targetType === Boolean ||
    targetType === Date ||
    targetType === Buffer
  );
}

/**
 * A JSON object, form fields (no prototype) or the reader's shallow instance of the target class: its
 * own keys are the keys of its stripped copy. Anything else, or anything that may be a thenable, is not.
 */
function plainShaped(raw: object, targetType: unknown): boolean {
  const proto = Object.getPrototypeOf(raw) as object | null;
  if (
    proto !== Object.prototype &&
    proto !== null &&
    (typeof targetType !== 'function' || proto !== targetType.prototype)
  )
    return false;
  return typeof (raw as { then?: unknown }).then !== 'function';
}

/** class-transformer's `instantiateArrayType`. */
function instantiateArrayType(arrayType: new () => unknown[] | Set<unknown>): unknown[] | Set<unknown> {
  const array = new arrayType();
  if (!(array instanceof Set) && !('push' in array)) return [];
  return array;
}
