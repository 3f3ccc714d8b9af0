import { CODE } from './factories';
import { BadRequestException } from './http-errors';

/** One broken constraint, as clients see it. */
export interface ConstraintViolation {
  /** Where the value came from: `body`, `query`, `path`, `header`, `cookie`, `matrix`, `form`, `bean`, `context`. */
  in?: string;
  /** The property path inside that value (`address.city`, `items[0].qty`), or the parameter name. */
  path: string;
  /** The constraint's name (`min`, `isEmail`, `notBlank`...). */
  constraint: string;
  /** What is wrong, for people (class-validator's message, or the constraint's own). */
  message: string;
  /**
   * The constraint's `context` option (class-validator's `ValidationError.contexts[constraint]`), such as an
   * error code of the API: `@IsIn(['json', 'msgpack'], { context: { code: 'invalid_format' } })`. Absent when the
   * constraint has none.
   */
  context?: Record<string, unknown>;
}

/**
 * A validation failure: 400 with `X-Status-Reason: Validation failed`. Its built-in handler,
 * `ConstraintExceptionHandler`, answers with every violation as JSON.
 */
export class ConstraintException extends BadRequestException<typeof CODE.RU_ERR_VALIDATION> {
  /** Every violation found in the request. */
  readonly violations: readonly ConstraintViolation[];

  constructor(violations: readonly ConstraintViolation[], message = 'Validation failed') {
    super(message, { code: CODE.RU_ERR_VALIDATION, headers: { 'X-Status-Reason': 'Validation failed' } });
    this.violations = violations;
  }
}
