/** Validation of bodies, beans and parameters: decorators, validators, and the plugin that applies them. */
export { validationPlugin } from './validation-plugin';
export { VALIDATOR, toValidator } from './validate-with';
export { Valid, type SchemaDecorator } from './valid-decorator';
export type { StandardSchemaV1, StandardJsonSchemaConverter } from '../../plugin';
export {
  Constraint,
  Min,
  Max,
  Positive,
  PositiveOrZero,
  Negative,
  NegativeOrZero,
  Size,
  Pattern,
  Email,
  NotNull,
  NotEmpty,
  NotBlank,
  Past,
  Future,
  type ConstraintDecorator,
} from './constraints';
export type { ConstraintOptions } from './constraint-types';
export { ConstraintException, type ConstraintViolation } from '../../plugin';
export { ConstraintExceptionHandler } from './constraint-exception-handler';
export {
  ClassValidator,
  type Validator,
  type ClassValidatorOptions,
  type Compilation,
  type CompilationMode,
  type CompiledMode,
  type NotCompiledMode,
} from './validator';
