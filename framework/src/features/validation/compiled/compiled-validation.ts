import type { ConstraintViolation } from '../../../plugin';
import { flattenErrors } from '../flatten-errors';
import { loadClassValidatorInternals, type ClassValidatorInternals } from './internals';
import { NEEDS_CLASS_VALIDATOR, ValidationRuntime, type ObjectValidator } from './validation-runtime';
import { compileClassValidator, type CompileEnvironment, type CompileOptions } from './validator-compiler';

/** How a class is validated: by its compiled function, or by class-validator (and why). */
export type ValidationMode = { compiled: true } | { compiled: false; reason: string };

/**
 * class-validator's `validateSync`/`validate` with the same violations in the same order, from one
 * generated function per class (compiled the first time an object of that class is validated, or
 * ahead with `prepare`). Classes the compiler does not mirror are validated by class-validator
 * itself, nested ones included; with `async`, anything asynchronous hands the whole object to
 * class-validator's `validate`.
 */
export class CompiledValidation {
  private readonly validators = new Map<Function, ObjectValidator>();
  private readonly modes = new Map<Function, ValidationMode>();
  private readonly runtime: ValidationRuntime;
  private readonly viaClassValidator: ObjectValidator;

  private constructor(
    private readonly internals: ClassValidatorInternals,
    private readonly validatorOptions: import('class-validator').ValidatorOptions,
    private readonly async: boolean,
  ) {
    const o = validatorOptions;
    this.runtime = new ValidationRuntime(
      internals,
      {
        stopAtFirstError: !!o.stopAtFirstError,
        dismissDefaultMessages: !!o.dismissDefaultMessages,
        forbidNonWhitelisted: !!o.forbidNonWhitelisted,
        skipUndefinedProperties: o.skipUndefinedProperties === true,
        skipNullProperties: o.skipNullProperties === true,
        skipMissingProperties: o.skipMissingProperties === true,
        async,
      },
      (ctor) => this.validatorFor(ctor),
    );
    this.viaClassValidator = this.runtime.fallback(validatorOptions);
  }

  /**
   * A compiled validation for these class-validator options, or undefined when the installed
   * class-validator is not a version the compiler mirrors or an option asks for what it does not
   * (`enableDebugMessages`).
   */
  static create(
    validatorOptions: import('class-validator').ValidatorOptions,
    async: boolean,
    internals = loadClassValidatorInternals(),
  ): CompiledValidation | undefined {
    if (internals === undefined || validatorOptions.enableDebugMessages === true) return undefined;
    return new CompiledValidation(internals, validatorOptions, async);
  }

  /** The violations of `object`, as `flattenErrors(validateSync(object, options))` gives them. */
  validate(object: object): readonly ConstraintViolation[] | Promise<readonly ConstraintViolation[]> {
    const out: ConstraintViolation[] = [];
    try {
      this.validatorFor((object as { constructor?: unknown }).constructor)(object, out, '');
    } catch (err) {
      if (err !== NEEDS_CLASS_VALIDATOR) throw err;
      return this.internals.module.validate(object, this.validatorOptions).then((errors) => flattenErrors(errors));
    }
    return out;
  }

  /** What the compiler writes each class's code with (the one pass for JSON bodies writes its tests with it too). */
  environment(): CompileEnvironment {
    return {
      internals: this.internals,
      options: this.validatorOptions as CompileOptions,
      runtime: this.runtime,
      async: this.async,
    };
  }

  /** Compiles the class now (route registration) rather than on its first request. */
  prepare(ctor: Function): void {
    this.validatorFor(ctor);
  }

  /** Whether objects of the class are validated by compiled code (compiling it if needed). */
  modeOf(ctor: Function): ValidationMode {
    this.validatorFor(ctor);
    return this.modes.get(ctor)!;
  }

  /** The generated source of the class's validator (undefined when class-validator validates it): for tests and curious readers. */
  sourceOf(ctor: Function): string | undefined {
    return this.modeOf(ctor).compiled ? this.validatorFor(ctor).toString() : undefined;
  }

  private validatorFor(ctor: unknown): ObjectValidator {
    if (typeof ctor !== 'function') return this.viaClassValidator;
    let fn = this.validators.get(ctor);
    if (fn !== undefined) return fn;
    try {
      fn = compileClassValidator(ctor, {
        internals: this.internals,
        options: this.validatorOptions as CompileOptions,
        runtime: this.runtime,
        async: this.async,
      });
      this.modes.set(ctor, { compiled: true });
    } catch (err) {
      fn = this.viaClassValidator;
      this.modes.set(ctor, { compiled: false, reason: err instanceof Error ? err.message : String(err) });
    }
    this.validators.set(ctor, fn);
    return fn;
  }
}
