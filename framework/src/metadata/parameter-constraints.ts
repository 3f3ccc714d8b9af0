/**
 * Metadata key (method extension) of the constraints declared on a method's parameters: by parameter index, the
 * class-validator property decorators (made on demand) that check that argument. Constraint decorators write it
 * (`@Min(1) @QueryParam('page') page`); the validation plugin enforces it and API documents describe it.
 */
export const PARAMETER_CONSTRAINTS = Symbol('rest.uws:parameter-constraints');

/** What `PARAMETER_CONSTRAINTS` holds: per parameter index, a factory of each class-validator property decorator. */
export type ParameterConstraints = ReadonlyMap<number, ReadonlyArray<() => PropertyDecorator>>;
