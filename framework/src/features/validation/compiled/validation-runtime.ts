import type { ConstraintViolation } from '../../../plugin';
import { flattenErrors } from '../flatten-errors';
import type {
  ClassValidatorInternals,
  ConstraintInstance,
  ConstraintMetadataRecord,
  ValidationArgumentsRecord,
  ValidationMetadataRecord,
} from './internals';
import { isEnum, isIn } from './known-constraints';
import { lengthWithin } from './string-length';
import { childPath } from './violation-paths';

/**
 * Adds one object's violations to `out`. The object sits at `path` (`''` at the top), or at element
 * `index` of the array at `path`: that string is only built when a violation needs it.
 */
export type ObjectValidator = (object: any, out: ConstraintViolation[], path: string, index?: number) => void;

/** The path of an object given as (path, index). */
function pathOf(path: string, index: number | undefined): string {
  return index === undefined ? path : `${path}[${index}]`;
}

/** Where a broken-constraint record keeps the contexts of its constraints (a symbol: `Object.keys` lists only the constraints). */
const CONTEXTS = Symbol('rest.uws:contexts');

/**
 * A property's broken-constraint record: `constraints[type] = message`, in class-validator's order, and the
 * contexts of those constraints (`ValidationError.contexts`) once `contexts` has mapped them.
 */
export type Broken = Record<string, string> & { [CONTEXTS]?: Record<string, Record<string, unknown>> };

/** A property's `context` options to map, as `[constraint type, context]` in class-validator's order. */
export type ContextPlan = ReadonlyArray<readonly [string, Record<string, unknown>]>;

/** A constraint metadata as generated code sees it (`M[i]`). */
export interface CheckSite {
  metadata: ValidationMetadataRecord;
  constraint: ConstraintMetadataRecord;
  /** Resolved once, when compiling (class-validator resolves it through its container on every call). */
  instance: ConstraintInstance;
}

/** A `@ValidateNested` property as generated code sees it: the metadata, and a one-class cache of the validator of its values. */
export interface NestedSite {
  metadata: ValidationMetadataRecord;
  cell: DispatchCell;
}

export interface DispatchCell {
  ctor: unknown;
  fn: ObjectValidator | undefined;
}

/** Thrown (and caught by `CompiledValidation`) when only class-validator's asynchronous `validate` can answer. */
export const NEEDS_CLASS_VALIDATOR = Symbol('rest.uws:needs-class-validator');

const isThenable = (v: unknown): boolean =>
  v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function';

/** Validator options the runtime reads (class-validator's names). */
export interface RuntimeOptions {
  stopAtFirstError: boolean;
  dismissDefaultMessages: boolean;
  forbidNonWhitelisted: boolean;
  skipUndefinedProperties: boolean;
  skipNullProperties: boolean;
  skipMissingProperties: boolean;
  async: boolean;
}

/**
 * What generated validators call: message building (class-validator's `createValidationError`),
 * nested validation (`nestedValidations`/`performValidations` for elements), whitelisting, generic
 * custom constraints, and the per-class dispatch. Everything here copies the package's executor step
 * by step (node_modules/class-validator/cjs/validation/ValidationExecutor.js).
 */
export class ValidationRuntime {
  constructor(
    private readonly internals: ClassValidatorInternals,
    readonly options: RuntimeOptions,
    private readonly validatorFor: (ctor: unknown) => ObjectValidator,
  ) {}

  /** The validation arguments class-validator gives constraints and message functions. */
  private args(object: any, value: unknown, metadata: ValidationMetadataRecord): ValidationArgumentsRecord {
    return {
      targetName: object.constructor ? object.constructor.name : undefined,
      property: metadata.propertyName,
      object,
      value,
      constraints: metadata.constraints,
    };
  }

  /** Records a broken constraint: `createValidationError` with the constraint's default message. */
  readonly fail = (broken: Broken | undefined, object: any, value: unknown, site: CheckSite): Broken => {
    const { metadata, constraint } = site;
    const type = constraint?.name ? constraint.name : metadata.type;
    const args = this.args(object, value, metadata);
    let message: unknown = metadata.message || '';
    if (!metadata.message && !this.options.dismissDefaultMessages) {
      const instance = constraint.instance;
      if (instance.defaultMessage instanceof Function) message = instance.defaultMessage(args);
    }
    const text = this.internals.replaceMessageSpecialTokens(message, args);
    const out = broken ?? {};
    out[type] = text;
    return out;
  };

  /** Adds one property's broken constraints as violations, each with its context when it has one. */
  readonly flush = (out: ConstraintViolation[], path: string, broken: Broken): void => {
    const contexts = broken[CONTEXTS];
    for (const constraint of Object.keys(broken)) {
      const context = contexts?.[constraint];
      out.push(
        context === undefined
          ? { path, constraint, message: broken[constraint]! }
          : { path, constraint, message: broken[constraint]!, context },
      );
    }
  };

  /**
   * class-validator's `mapContexts`: the context of every metadata whose constraint type is broken (its message
   * not empty) is merged into that type's context, in the plan's order.
   */
  readonly contexts = (broken: Broken, plan: ContextPlan): Broken => {
    for (const [type, context] of plan) {
      if (!broken[type]) continue;
      const all = (broken[CONTEXTS] ??= {});
      all[type] = Object.assign(all[type] || {}, context);
    }
    return broken;
  };

  /** A constraint evaluated by its own `validate` (class-validator's `customValidations`, for one constraint class). */
  readonly custom = (object: any, value: unknown, site: CheckSite): boolean => {
    const { metadata, instance } = site;
    const args = this.args(object, value, metadata);
    if (!metadata.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      const result = instance.validate(value, args);
      if (isThenable(result)) return this.asynchronous(result);
      return !!result;
    }
    const results = toArray(value).map((sub) => instance.validate(sub, args));
    const pending = results.filter(isThenable);
    if (pending.length > 0) {
      for (const r of pending.slice(1)) (r as Promise<unknown>).then(undefined, () => undefined);
      return this.asynchronous(pending[0]);
    }
    return results.every((r) => r);
  };

  /** A promise where validateSync would ignore it (it only counts in class-validator's asynchronous `validate`). */
  private asynchronous(result: unknown): boolean {
    // Either way this promise is dropped (validateSync leaves it pending; validate() runs the constraint
    // again): its rejection must not become an unhandled one.
    (result as Promise<unknown>).then(undefined, () => undefined);
    if (this.options.async) throw NEEDS_CLASS_VALIDATOR;
    return true;
  }

  /** `whitelist`: properties without metadata are violations (forbidNonWhitelisted) or deleted. */
  readonly whitelist = (
    object: any,
    out: ConstraintViolation[],
    path: string,
    grouped: Record<string, unknown[]>,
  ): void => {
    const notAllowed: string[] = [];
    for (const property of Object.keys(object)) {
      if (!grouped[property] || grouped[property].length === 0) notAllowed.push(property);
    }
    if (notAllowed.length === 0) return;
    if (this.options.forbidNonWhitelisted) {
      for (const property of notAllowed)
        out.push({
          path: childPath(path, property),
          constraint: 'whitelistValidation',
          message: `property ${property} should not exist`,
        });
    } else {
      for (const property of notAllowed) delete object[property];
    }
  };

  /** `nestedValidations` for one property value; returns the property's broken constraints still to flush. */
  readonly nested = (
    value: unknown,
    broken: Broken | undefined,
    out: ConstraintViolation[],
    path: string,
    index: number | undefined,
    site: NestedSite,
  ): Broken | undefined => {
    if (value === undefined) return broken;
    if (this.options.stopAtFirstError && broken !== undefined) return broken;
    if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
      const base = pathOf(path, index);
      if (broken !== undefined) this.flush(out, base, broken);
      if (value instanceof Map) {
        value.forEach((sub: unknown, key: { toString(): string }) =>
          this.element(sub, childPath(base, key.toString()), undefined, out, site),
        );
      } else {
        const list: unknown[] = value instanceof Set ? Array.from(value) : value;
        const n = list.length;
        for (let i = 0; i < n; i++) {
          if (!(i in list)) continue;
          const sub = list[i];
          // The common case first: an object element is validated by its class (no skip option applies to it).
          if (
            sub !== null &&
            typeof sub === 'object' &&
            !Array.isArray(sub) &&
            !(sub instanceof Set) &&
            !(sub instanceof Map) &&
            sub instanceof Object
          ) {
            this.object(sub, out, base, i, site.cell);
          } else {
            this.element(sub, base, i, out, site);
          }
        }
      }
      return undefined;
    }
    if (value instanceof Object) {
      if (broken !== undefined) this.flush(out, pathOf(path, index), broken);
      this.object(value, out, path, index, site.cell);
      return undefined;
    }
    // A primitive where an object was expected: class-validator's message, with the class as `object`.
    const metadata = site.metadata;
    const args = this.args(metadata.target, value, metadata);
    const text = this.internals.replaceMessageSpecialTokens(metadata.message || '', args);
    const result = broken ?? {};
    result[metadata.type] = text;
    return result;
  };

  /** `performValidations` of one element of a nested array (only nested metadata applies there). */
  private element(
    sub: unknown,
    path: string,
    index: number | undefined,
    out: ConstraintViolation[],
    site: NestedSite,
  ): void {
    const o = this.options;
    if (sub === undefined && o.skipUndefinedProperties) return;
    if (sub === null && o.skipNullProperties) return;
    if ((sub === null || sub === undefined) && o.skipMissingProperties) return;
    const broken = this.nested(sub, undefined, out, path, index, site);
    if (broken === undefined) return;
    // The element's own performValidations maps the nested metadata's context.
    const context = site.metadata.context;
    if (context) this.contexts(broken, [[site.metadata.type, context]]);
    this.flush(out, pathOf(path, index), broken);
  }

  /** `execute` for a nested object: the validator of its class, remembered in the site's cell. */
  object(value: any, out: ConstraintViolation[], path: string, index: number | undefined, cell: DispatchCell): void {
    const ctor = value.constructor;
    let fn = cell.fn;
    if (cell.ctor !== ctor || fn === undefined) {
      fn = this.validatorFor(ctor);
      cell.ctor = ctor;
      cell.fn = fn;
    }
    fn(value, out, path, index);
  }

  /** class-validator itself for one object (a class the compiler leaves alone), its violations under `path`. */
  fallback(validatorOptions: object): ObjectValidator {
    const cv = this.internals.module;
    return (object, out, path, index) => {
      if (this.options.async) throw NEEDS_CLASS_VALIDATOR;
      const violations = flattenErrors(cv.validateSync(object, validatorOptions), pathOf(path, index));
      for (const v of violations) out.push(v);
    };
  }

  /** Helpers generated code destructures once. */
  helpers(): Record<string, unknown> {
    return {
      fail: this.fail,
      flush: this.flush,
      contexts: this.contexts,
      custom: this.custom,
      whitelist: this.whitelist,
      nested: this.nested,
      pathOf,
      toArray,
      lengthWithin,
      isIn,
      isEnum,
    };
  }
}

/** class-validator's `convertToArray`. */
function toArray(value: unknown[] | Set<unknown> | Map<unknown, unknown>): unknown[] {
  if (value instanceof Map) return Array.from(value.values());
  return Array.isArray(value) ? value : Array.from(value);
}
