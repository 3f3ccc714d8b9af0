import { CompiledTransform } from './compiled/compiled-transform';
import { CompiledValidation } from './compiled/compiled-validation';
import { JsonOnePass, NOT_SIMPLE } from './compiled/json-one-pass';
import type { ConstraintViolation } from '../../plugin';
import { flattenErrors } from './flatten-errors';
import { classTransformer, classValidator } from './optional-packages';
import { withoutPrototypeKeys } from './without-prototype-keys';

/**
 * Validates argument values (the spec's validation-standard implementation, given with
 * `RestBuilder.validateWith`). `ClassValidator` is the ready one.
 */
export interface Validator {
  /** The violations of an object of a class carrying constraints; an empty list when it is valid. */
  validate(value: object): readonly ConstraintViolation[] | Promise<readonly ConstraintViolation[]>;
  /** Turns a parsed body into an instance of `type`, nested typed objects included. */
  toInstance?(type: Function, plain: unknown): unknown;
  /** Called at route registration with each body or bean class the route validates: a chance to get ready (compile). */
  prepare?(type: Function): void;
}

/** Whether a class is handled by generated code, or by the package itself and why (`ClassValidator.compilation`). */
export type CompilationMode = CompiledMode | NotCompiledMode;

/** Handled by generated code. */
export interface CompiledMode {
  /** Always true. */
  compiled: true;
}

/** Handled by class-validator or class-transformer themselves. */
export interface NotCompiledMode {
  /** Always false. */
  compiled: false;
  /** Why (an option, the package version, or the decorator the compiler leaves to the package). */
  reason: string;
}

/** How a class is validated and built (`ClassValidator.compilation`). */
export interface Compilation {
  /** class-validator's part: the violations. */
  validation: CompilationMode;
  /** class-transformer's part: the instance made from a body. */
  transform: CompilationMode;
}

/** Options of `ClassValidator`, passed on to class-validator and class-transformer. */
export interface ClassValidatorOptions {
  /** class-validator's options (`whitelist`, `forbidNonWhitelisted`, `groups`, `stopAtFirstError`...). `forbidUnknownValues` defaults to false here. */
  validator?: import('class-validator').ValidatorOptions;
  /** class-transformer's options for turning bodies into instances (`excludeExtraneousValues`, `enableImplicitConversion`...). */
  transformer?: import('class-transformer').ClassTransformOptions;
  /** Run asynchronous constraints too (class-validator's `validate` instead of `validateSync`); routes with `@Valid` then wait. */
  async?: boolean;
  /**
   * Validate and build instances with generated functions, one per class (default true): the same
   * violations in the same order as class-validator, the same instances as class-transformer, without
   * their per-call metadata lookups. `false`: class-validator and class-transformer every time.
   */
  compile?: boolean;
}

/** @internal Key of ClassValidator's `toInstance` for JSON.parse's output as it is (the validation plugin's; not exported by index.ts). */
export const kToInstanceOfJson: unique symbol = Symbol('rest.uws.validator.toInstanceOfJson');

/** @internal Key of ClassValidator's one pass for a `@Valid` JSON body (the validation plugin's; not exported by index.ts). */
export const kValidInstanceOfJson: unique symbol = Symbol('rest.uws.validator.validInstanceOfJson');

/** @internal Key of whether `[kToInstanceOfJson]` checks the JSON depth limit itself (the compiled transform does, as it walks). */
export const kBoundsJsonDepth: unique symbol = Symbol('rest.uws.validator.boundsJsonDepth');

/** The one-pass function of a validator without one pass: it never decides. */
const notSimple = (): typeof NOT_SIMPLE => NOT_SIMPLE;

/**
 * Validation with class-validator (constraints declared with its decorators, or with rest.uws's
 * `@Min`, `@NotBlank`...), bodies turned into instances with class-transformer's `plainToInstance`.
 * Synchronous unless `async: true`.
 *
 * ```ts
 * new RestBuilder().validateWith(new ClassValidator({ validator: { whitelist: true, forbidNonWhitelisted: true } }))
 * ```
 */
export class ClassValidator implements Validator {
  private readonly validatorOptions: import('class-validator').ValidatorOptions;
  private readonly transformOptions: import('class-transformer').ClassTransformOptions | undefined;
  private readonly async: boolean;
  private readonly compiled: CompiledValidation | undefined;
  private readonly compiledTransform: CompiledTransform | undefined;
  private readonly onePass: JsonOnePass | undefined;
  private readonly compileOff: string | undefined;

  constructor(options: ClassValidatorOptions = {}) {
    this.validatorOptions = { forbidUnknownValues: false, ...options.validator };
    this.transformOptions = options.transformer;
    this.async = options.async === true;
    // Fail at startup, not on the first request, when the packages are missing.
    classValidator();
    this.compileOff = options.compile === false ? 'compile: false' : undefined;
    this.compiled =
      options.compile === false ? undefined : CompiledValidation.create(this.validatorOptions, this.async);
    this.compiledTransform = options.compile === false ? undefined : CompiledTransform.create(this.transformOptions);
    this.onePass =
      this.compiled !== undefined && this.compiledTransform !== undefined
        ? new JsonOnePass(this.compiled.environment(), this.compiledTransform)
        : undefined;
  }

  /** class-validator's violations of the object, flattened (`address.city`, `items[0].qty`). */
  validate(value: object): readonly ConstraintViolation[] | Promise<readonly ConstraintViolation[]> {
    if (this.compiled !== undefined) return this.compiled.validate(value);
    const cv = classValidator();
    if (this.async) return cv.validate(value, this.validatorOptions).then((errors) => flattenErrors(errors));
    return flattenErrors(cv.validateSync(value, this.validatorOptions));
  }

  /** class-transformer's `plainToInstance`, after dropping prototype keys at every depth. */
  toInstance(type: Function, plain: unknown): unknown {
    if (plain === null || typeof plain !== 'object') return plain;
    if (this.compiledTransform !== undefined) return this.compiledTransform.toInstanceOfBody(type, plain);
    return classTransformer().plainToInstance(
      type as new () => object,
      withoutPrototypeKeys(plain),
      this.transformOptions,
    );
  }

  /** @internal Whether `[kToInstanceOfJson]` throws jsonTooDeep() for a value nested past MAX_JSON_DEPTH. */
  get [kBoundsJsonDepth](): boolean {
    return this.compiledTransform !== undefined;
  }

  /**
   * @internal `toInstance` of a value that is JSON.parse's output as it is: plain objects, arrays and primitives
   * only, with its depth not yet checked (see `kBoundsJsonDepth`).
   */
  [kToInstanceOfJson](type: Function, parsed: unknown): unknown {
    if (parsed === null || typeof parsed !== 'object') return parsed;
    if (this.compiledTransform !== undefined) return this.compiledTransform.toInstanceOfJson(type, parsed);
    return this.toInstance(type, parsed);
  }

  /**
   * @internal The function giving the valid instance of `type` from JSON.parse's output, in one pass, or NOT_SIMPLE when that
   * pass does not decide (an invalid body, an unusual one, a class with metadata it does not cover): then
   * `[kToInstanceOfJson]` and `validate` run as always. When it answers an instance, they would have built the same
   * and reported no violation.
   */
  [kValidInstanceOfJson](type: Function): (parsed: unknown) => unknown {
    // Asked once per route (the route's check keeps the function), not once per body.
    return this.onePass === undefined ? notSimple : this.onePass.passFor(type);
  }

  /** Compiles the class's validator and transformer now (rest.uws calls it when a route is registered). */
  prepare(type: Function): void {
    this.compiled?.prepare(type);
    this.compiledTransform?.prepare(type);
    this.onePass?.prepare(type);
  }

  /**
   * How objects of `type` are validated and built: by generated code, or by class-validator /
   * class-transformer and why (`compile: false`, an unsupported package version or option, or a
   * decorator the compiler leaves to the package). Nested classes are reported when asked for.
   */
  compilation(type: Function): Compilation {
    const off = (why: string): CompilationMode => ({ compiled: false, reason: why });
    return {
      validation:
        this.compiled?.modeOf(type) ?? off(this.compileOff ?? 'class-validator version or options not compiled'),
      transform:
        this.compiledTransform?.modeOf(type) ??
        off(this.compileOff ?? 'class-transformer version or options not compiled'),
    };
  }
}
