import { BodyParam, errors, marker, methodMetadata } from '../../plugin';

/** Metadata key: indexes of the method parameters marked `@Valid` (a method-level `@Valid` marks all body and bean parameters). */
export const VALID = Symbol('rest.uws:valid');

/** `VALID` value for a method-level `@Valid`. */
export const ALL_PARAMETERS = -1;

/**
 * Validates a body or `@BeanParam` argument against the constraints of its class (class-validator
 * decorators) before the method runs; a body is first turned into a real instance of its class,
 * nested `@Type(() => ...)` objects included. Violations answer 400 (see ConstraintExceptionHandler).
 *
 * ```ts
 * @POST @Path('/users') create(@Valid user: NewUser) { ... }
 * ```
 */
export const Valid = marker((target: object, key?: string | symbol, index?: number | PropertyDescriptor) => {
  if (key === undefined)
    throw errors.RU_ERR_DECORATOR_TARGET(
      'rest.uws: @Valid goes on a method parameter (or on a method, for all its body and bean parameters)',
    );
  const meta = methodMetadata(target, key);
  const indexes = new Set((meta.extensions.get(VALID) as Set<number> | undefined) ?? []);
  indexes.add(typeof index === 'number' ? index : ALL_PARAMETERS);
  meta.extensions.set(VALID, indexes);
  // Make sure the parameter has a metadata record (an undecorated parameter is the body).
  if (typeof index === 'number' && !meta.params.has(index)) BodyParam()(target, key, index);
});
