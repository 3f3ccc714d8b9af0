import type { DirectConstraint } from './constraint-types';
import { classValidator } from './optional-packages';

/**
 * rest.uws's own constraints (`@Min`, `@NotBlank`...) on DTO fields are class-validator metadata whose
 * check is a rest.uws function. Their constraint classes are remembered here, so the validator
 * compiler calls that function directly instead of guessing from the constraint's name (rest.uws's
 * `min` lets null pass, class-validator's `min` does not).
 */
const DIRECT = new WeakMap<Function, DirectConstraint>();

interface StoredMetadata {
  target: unknown;
  propertyName: string;
  constraintCls?: Function;
}

/** Remembers the constraint class of the metadata just registered for `key` on the prototype `target`. */
export function rememberDirectConstraint(target: object, key: string | symbol, direct: DirectConstraint): void {
  const ctor = (target as { constructor: Function }).constructor;
  const storage = classValidator().getMetadataStorage() as unknown as {
    getTargetValidationMetadatas(
      target: Function,
      schema: string | undefined,
      always: boolean,
      strictGroups: boolean,
    ): StoredMetadata[];
  };
  const own = storage
    .getTargetValidationMetadatas(ctor, undefined, true, false)
    .filter((m) => m.target === ctor && m.propertyName === key);
  const last = own[own.length - 1];
  if (last?.constraintCls !== undefined) DIRECT.set(last.constraintCls, direct);
}

/** The rest.uws constraint behind a constraint class, if it is one. */
export function directConstraintOf(constraintCls: Function | undefined): DirectConstraint | undefined {
  return constraintCls === undefined ? undefined : DIRECT.get(constraintCls);
}
