/** A JSON Schema (2020-12, OpenAPI 3.1's dialect) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** What class-validator records per constraint (the fields read here). */
export interface ConstraintRecord {
  type: string;
  name?: string;
  propertyName: string;
  constraints?: unknown[];
  each?: boolean;
}

/** Constraints that make a property required whatever else is declared. */
const REQUIRED_MARKERS = new Set(['isDefined', 'notNull', 'notEmpty', 'notBlank', 'isNotEmpty', 'arrayNotEmpty']);

/**
 * class-validator's own checks (and `@ValidateNested`) reject `undefined`, so a property carrying one is required unless
 * `@IsOptional`. The framework's Bean Validation style constraints (`min`, `size`, `pattern`...) let
 * absent values pass, like the standard, so they do not make a property required.
 */
const CLASS_VALIDATOR_CHECK =
  /^(is(?!Optional$)[A-Z]\w*|matches|minLength|maxLength|length|arrayMinSize|arrayMaxSize|arrayContains|arrayUnique|equals|notEquals|contains|notContains)$/;

/** Whether a property with these constraints must be present. */
export function isRequired(records: readonly ConstraintRecord[]): boolean {
  // @ValidateIf: its constraints (@IsDefined too) run only when the condition holds, which the document cannot know.
  if (records.some((r) => r.type === 'conditionalValidation' && r.name !== 'isOptional')) return false;
  if (records.some((r) => r.type === 'conditionalValidation' && r.name === 'isOptional'))
    return records.some((r) => REQUIRED_MARKERS.has(r.name ?? ''));
  // @ValidateNested rejects a missing object too ("must be either object or array").
  return records.some(
    (r) =>
      REQUIRED_MARKERS.has(r.name ?? '') ||
      (r.type === 'customValidation' && CLASS_VALIDATOR_CHECK.test(r.name ?? '')) ||
      r.type === 'isDefined' ||
      r.type === 'nestedValidation',
  );
}

const FORMATS: Record<string, [type: string, format?: string]> = {
  isString: ['string'],
  isInt: ['integer'],
  isNumber: ['number'],
  isNumberString: ['string'],
  isBoolean: ['boolean'],
  isDate: ['string', 'date-time'],
  isDateString: ['string', 'date-time'],
  isISO8601: ['string', 'date-time'],
  isIso8601: ['string', 'date-time'],
  isEmail: ['string', 'email'],
  email: ['string', 'email'],
  isUrl: ['string', 'uri'],
  isURL: ['string', 'uri'],
  isUUID: ['string', 'uuid'],
  isUuid: ['string', 'uuid'],
  isIP: ['string'],
  isArray: ['array'],
  isObject: ['object'],
};

/** Adds the keywords a constraint stands for to a property schema (or its items, for `each`). */
export function applyConstraint(schema: JsonSchema, record: ConstraintRecord): void {
  const target =
    record.each === true ? (((schema.items as JsonSchema | undefined) ?? (schema.items = {})) as JsonSchema) : schema;
  const c = record.constraints ?? [];
  const name = record.name ?? record.type;
  const format = FORMATS[name];
  if (format !== undefined) {
    target.type = format[0];
    if (format[1] !== undefined) target.format = format[1];
    return;
  }
  const isArray = target.type === 'array';
  switch (name) {
    case 'min':
      if (typeof c[0] === 'number') target.minimum = c[0];
      break;
    case 'max':
      if (typeof c[0] === 'number') target.maximum = c[0];
      break;
    case 'isPositive':
    case 'positive':
      target.exclusiveMinimum = 0;
      break;
    case 'positiveOrZero':
      target.minimum = 0;
      break;
    case 'isNegative':
    case 'negative':
      target.exclusiveMaximum = 0;
      break;
    case 'negativeOrZero':
      target.maximum = 0;
      break;
    case 'minLength':
      target.minLength = c[0];
      break;
    case 'maxLength':
      target.maxLength = c[0];
      break;
    case 'isLength':
    case 'length':
      if (typeof c[0] === 'number') target.minLength = c[0];
      if (typeof c[1] === 'number') target.maxLength = c[1];
      break;
    case 'size': {
      const [lo, hi] = [c[0] as number | undefined, c[1] as number | undefined];
      const big = hi === undefined || hi >= Number.MAX_SAFE_INTEGER;
      if (isArray) {
        if (typeof lo === 'number' && lo > 0) target.minItems = lo;
        if (!big) target.maxItems = hi;
      } else {
        if (typeof lo === 'number' && lo > 0) target.minLength = lo;
        if (!big) target.maxLength = hi;
      }
      break;
    }
    case 'arrayMinSize':
      target.minItems = c[0];
      break;
    case 'arrayMaxSize':
      target.maxItems = c[0];
      break;
    case 'arrayNotEmpty':
      target.minItems = 1;
      break;
    case 'arrayUnique':
      target.uniqueItems = true;
      break;
    case 'isNotEmpty':
    case 'notEmpty':
      if (isArray) target.minItems = 1;
      else if (target.type === 'string') target.minLength = 1;
      break;
    case 'notBlank':
      target.type = 'string';
      target.minLength = 1;
      target.pattern = '\\S';
      break;
    case 'matches':
    case 'pattern': {
      const p = c[0];
      target.pattern = p instanceof RegExp ? p.source : String(p);
      break;
    }
    case 'isEnum': {
      const values = Array.isArray(c[1]) ? (c[1] as unknown[]) : enumValues(c[0]);
      target.enum = values;
      break;
    }
    case 'isIn':
      if (Array.isArray(c[0])) target.enum = [...(c[0] as unknown[])];
      break;
    case 'isNotIn':
      if (Array.isArray(c[0])) target.not = { enum: [...(c[0] as unknown[])] };
      break;
    case 'equals':
      target.const = c[0];
      break;
    case 'isAlpha':
      target.pattern = '^[A-Za-z]+$';
      break;
    case 'isAlphanumeric':
      target.pattern = '^[A-Za-z0-9]+$';
      break;
    case 'isLatitude':
      Object.assign(target, { minimum: -90, maximum: 90 });
      break;
    case 'isLongitude':
      Object.assign(target, { minimum: -180, maximum: 180 });
      break;
    default:
      break; // custom constraints have no JSON Schema equivalent
  }
}

/** The values of a TypeScript enum object (numeric enums carry reverse mappings, left out). */
export function enumValues(e: unknown): unknown[] {
  if (e === null || typeof e !== 'object') return [];
  const obj = e as Record<string, unknown>;
  return Object.keys(obj)
    .filter((k) => !(typeof obj[obj[k] as string] === 'number' && typeof obj[k] === 'string' && /^\d+$/.test(k)))
    .map((k) => obj[k]);
}
