import { ClassValidator, type ClassValidatorOptions, type Validator } from './validator';
import { errors } from '../../plugin';

/** Settings key of the configured validator (`RestBuilder.validateWith`, `RestRouter.validateWith`). */
export const VALIDATOR = Symbol('rest.uws:validator');

/** A `Validator` as given, or a `ClassValidator` made from options (none: its defaults). */
export function toValidator(value: Validator | ClassValidatorOptions | undefined): Validator {
  if (value !== undefined && value !== null && typeof (value as Validator).validate === 'function')
    return value as Validator;
  if (value !== undefined && (value === null || typeof value !== 'object'))
    throw errors.RU_ERR_VALIDATION_OPTIONS('rest.uws: validateWith takes a Validator or ClassValidator options');
  return new ClassValidator(value as ClassValidatorOptions | undefined);
}
