import { PARAMETER_CONSTRAINTS, errors, metadataExtensions } from '../../plugin';
import { rememberDirectConstraint } from './direct-constraints';
import { classValidator } from './optional-packages';
import type { ConstraintOptions, DirectConstraint, PropertyDecoratorFactory } from './constraint-types';

/** Decorates a DTO field (class-validator metadata at once) or a method parameter (validated by the route). */
export type ConstraintDecorator = (
  target: object,
  key: string | symbol | undefined,
  indexOrDescriptor?: number | PropertyDescriptor,
) => void;

/** Records property decorators for a method parameter, or applies them to a field. */
function constraintFrom(factories: PropertyDecoratorFactory[], name: string): ConstraintDecorator {
  return (target, key, indexOrDescriptor) => {
    if (typeof indexOrDescriptor === 'number') {
      if (key === undefined)
        throw errors.RU_ERR_DECORATOR_TARGET(
          `rest.uws: ${name} on a constructor parameter is not supported; put it on the bean's field`,
        );
      const extensions = metadataExtensions(target, key);
      const all =
        (extensions.get(PARAMETER_CONSTRAINTS) as Map<number, PropertyDecoratorFactory[]> | undefined) ??
        new Map<number, PropertyDecoratorFactory[]>();
      all.set(indexOrDescriptor, [...factories, ...(all.get(indexOrDescriptor) ?? [])]);
      extensions.set(PARAMETER_CONSTRAINTS, all);
      return;
    }
    if (key === undefined)
      throw errors.RU_ERR_DECORATOR_TARGET(`rest.uws: ${name} goes on a field or a method parameter`);
    for (const make of factories) make()(target, key);
  };
}

/**
 * Applies any class-validator property decorators to a method parameter (they also work on fields).
 * An absent optional argument skips them (use `@NotNull` to require a value):
 *
 * ```ts
 * list(@QueryParam('sort') @Constraint(IsIn(['asc', 'desc'])) sort: string)
 * ```
 */
export function Constraint(...decorators: PropertyDecorator[]): ConstraintDecorator {
  if (decorators.length === 0 || decorators.some((d) => typeof d !== 'function'))
    throw errors.RU_ERR_DECORATOR_ARGUMENT(
      'rest.uws: @Constraint takes class-validator decorators, e.g. @Constraint(IsIn(["a", "b"]))',
    );
  return constraintFrom(
    decorators.map((d) => () => d),
    '@Constraint',
  );
}

/**
 * A Bean Validation style constraint: absent values (null, undefined) pass, except for the
 * NotNull/NotEmpty/NotBlank family, like the standard.
 */
function standard(
  name: string,
  constraints: unknown[],
  test: (value: unknown) => boolean,
  message: string,
  options: ConstraintOptions,
  nullPasses = true,
): ConstraintDecorator {
  const direct: DirectConstraint = { name, constraints, test, nullPasses, message, options };
  const factory: PropertyDecoratorFactory = () => {
    const cv = classValidator();
    const decorator = cv.ValidateBy(
      {
        name,
        constraints,
        validator: {
          validate: (value: unknown) => (value === null || value === undefined ? nullPasses : test(value)),
          defaultMessage: cv.buildMessage((each) => `${each}${message}`, { each: options.each }),
        },
      },
      { message: options.message, groups: options.groups, each: options.each, context: options.context },
    );
    return (target: object, key: string | symbol) => {
      decorator(target, key);
      // The validator compiler calls `test` itself for this constraint (see direct-constraints.ts).
      rememberDirectConstraint(target, key, direct);
    };
  };
  factory.requiresValue = !nullPasses;
  factory.direct = direct;
  return constraintFrom([factory], `@${name[0]!.toUpperCase()}${name.slice(1)}`);
}

const isNumeric = (v: unknown): v is number | bigint =>
  (typeof v === 'number' && !Number.isNaN(v)) || typeof v === 'bigint';
const sizeOf = (v: unknown): number | undefined =>
  typeof v === 'string' || Array.isArray(v) ? v.length : v instanceof Map || v instanceof Set ? v.size : undefined;
const time = (v: unknown): number | undefined =>
  v instanceof Date ? v.getTime() : typeof v === 'string' || typeof v === 'number' ? new Date(v).getTime() : undefined;

/** The number is at least `min`. */
export function Min(min: number | bigint, options: ConstraintOptions = {}): ConstraintDecorator {
  return standard(
    'min',
    [min],
    (v) => isNumeric(v) && v >= min,
    '$property must not be less than $constraint1',
    options,
  );
}

/** The number is at most `max`. */
export function Max(max: number | bigint, options: ConstraintOptions = {}): ConstraintDecorator {
  return standard(
    'max',
    [max],
    (v) => isNumeric(v) && v <= max,
    '$property must not be greater than $constraint1',
    options,
  );
}

/** The number is greater than 0. */
export function Positive(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard('positive', [], (v) => isNumeric(v) && v > 0, '$property must be positive', options);
}

/** The number is 0 or more. */
export function PositiveOrZero(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard('positiveOrZero', [], (v) => isNumeric(v) && v >= 0, '$property must be positive or zero', options);
}

/** The number is less than 0. */
export function Negative(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard('negative', [], (v) => isNumeric(v) && v < 0, '$property must be negative', options);
}

/** The number is 0 or less. */
export function NegativeOrZero(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard('negativeOrZero', [], (v) => isNumeric(v) && v <= 0, '$property must be negative or zero', options);
}

/** The length of a string or array (size of a Map or Set) is within `min`..`max`. */
export function Size(min: number, max = Number.MAX_SAFE_INTEGER, options: ConstraintOptions = {}): ConstraintDecorator {
  return standard(
    'size',
    [min, max],
    (v) => {
      const n = sizeOf(v);
      return n !== undefined && n >= min && n <= max;
    },
    max === Number.MAX_SAFE_INTEGER
      ? '$property must have at least $constraint1 elements or characters'
      : '$property must have between $constraint1 and $constraint2 elements or characters',
    options,
  );
}

/** The whole string matches the regular expression. */
export function Pattern(regex: RegExp | string, options: ConstraintOptions = {}): ConstraintDecorator {
  const source = typeof regex === 'string' ? regex : regex.source;
  const whole = new RegExp(`^(?:${source})$`, typeof regex === 'string' ? '' : regex.flags.replace(/[gy]/g, ''));
  return standard(
    'pattern',
    [source],
    (v) => typeof v === 'string' && whole.test(v),
    '$property must match $constraint1',
    options,
  );
}

/** The string is an e-mail address (validator.js's check). */
export function Email(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard(
    'email',
    [],
    (v) => typeof v === 'string' && classValidator().isEmail(v),
    '$property must be an email',
    options,
  );
}

/** The value is present (not null or undefined). */
export function NotNull(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard('notNull', [], () => true, '$property must not be null', options, false);
}

/** The value is present and, for a string, array, Map or Set, not empty. */
export function NotEmpty(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard('notEmpty', [], (v) => (sizeOf(v) ?? 1) > 0, '$property must not be empty', options, false);
}

/** The value is a string with at least one non-whitespace character. */
export function NotBlank(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard(
    'notBlank',
    [],
    (v) => typeof v === 'string' && v.trim().length > 0,
    '$property must not be blank',
    options,
    false,
  );
}

/** The date (a Date, an ISO string or a timestamp) is in the past. */
export function Past(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard(
    'past',
    [],
    (v) => {
      const t = time(v);
      return t !== undefined && !Number.isNaN(t) && t < Date.now();
    },
    '$property must be in the past',
    options,
  );
}

/** The date (a Date, an ISO string or a timestamp) is in the future. */
export function Future(options: ConstraintOptions = {}): ConstraintDecorator {
  return standard(
    'future',
    [],
    (v) => {
      const t = time(v);
      return t !== undefined && !Number.isNaN(t) && t > Date.now();
    },
    '$property must be in the future',
    options,
  );
}
