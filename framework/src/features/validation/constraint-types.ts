/** The shapes of a constraint, shared by the decorators (constraints.ts) and what evaluates them directly. */

/**
 * A class-validator property decorator, made on demand (class-validator loads only when used).
 * `requiresValue` marks NotNull/NotEmpty/NotBlank: other constraints let an absent optional argument pass.
 */
export type PropertyDecoratorFactory = (() => PropertyDecorator) & {
  requiresValue?: boolean;
  direct?: DirectConstraint;
};

/** A rest.uws constraint in a form the route can evaluate itself, without a class-validator call. */
export interface DirectConstraint {
  name: string;
  constraints: readonly unknown[];
  test(value: unknown): boolean;
  nullPasses: boolean;
  /** Default message template (`$property`, `$value`, `$constraint1`...). */
  message: string;
  options: ConstraintOptions;
}

/** Options every constraint accepts. */
export interface ConstraintOptions {
  /** Replaces the default message; `$property`, `$value` and `$constraint1` are filled in. */
  message?: string;
  /** Validation groups (class-validator's). */
  groups?: string[];
  /** On an array field, check each element. */
  each?: boolean;
  /** Given with the violation (`ConstraintViolation.context`), e.g. an error code of the API (class-validator's `context`). */
  context?: Record<string, unknown>;
}
