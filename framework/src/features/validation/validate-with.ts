import { registryChanged } from '../../io/generation';
import { RestBuilder } from '../../builder/rest-builder';
import { RestRouter } from '../../builder/rest-router';
import { globalSettings } from '../../settings/settings';
import { ClassValidator, type ClassValidatorOptions, type Validator } from './validator';

/** Settings key of the configured validator. */
export const VALIDATOR = Symbol('rest.uws:validator');

declare module '../../builder/rest-builder' {
  interface RestBuilder {
    /**
     * The validator of `@Valid` arguments and parameter constraints: a `Validator`, or options for the
     * ready `ClassValidator` (none: its defaults). With a validator configured, class-typed bodies read
     * by the built-in JSON and form readers become real instances (class-transformer), nested types included.
     */
    validateWith(validator?: Validator | ClassValidatorOptions): this;
  }
}

declare module '../../builder/rest-router' {
  namespace RestRouter {
    /** The validator of every app that configures none (see `RestBuilder.validateWith`). */
    function validateWith(validator?: Validator | ClassValidatorOptions): void;
  }
}

function toValidator(value: Validator | ClassValidatorOptions | undefined): Validator {
  if (value !== undefined && value !== null && typeof (value as Validator).validate === 'function') return value as Validator;
  if (value !== undefined && (value === null || typeof value !== 'object')) throw new TypeError('rest.uws: validateWith takes a Validator or ClassValidator options');
  return new ClassValidator(value as ClassValidatorOptions | undefined);
}

RestBuilder.prototype.validateWith = function (this: RestBuilder, validator) {
  this.settings.extensions.set(VALIDATOR, toValidator(validator));
  return this;
};

(RestRouter as unknown as { validateWith: typeof RestRouter.validateWith }).validateWith = (validator) => {
  globalSettings.extensions.set(VALIDATOR, toValidator(validator));
  registryChanged();
};
