import { Transform } from 'class-transformer';

/**
 * Constraint messages in the partner API's words. The exception handler turns a violation into
 * `Missing required parameter: <path>` (E_MISSING_PARAMETER) for @IsDefined and @IsNotEmpty, else into
 * `Invalid <path>: <message>` (E_INVALID_ARGUMENT).
 */
export const MISSING = { message: 'missing' };
export const EXPECTED_STRING = { message: 'expected a string' };
export const EXPECTED_NUMBER = { message: 'expected a number' };
export const EXPECTED_INTEGER = { message: 'expected an integer' };
export const EXPECTED_BOOLEAN = { message: 'expected true or false' };
export const EXPECTED_ARRAY = { message: 'expected an array' };
export const EXPECTED_OBJECT = { message: 'expected an object' };

/** A text of white space only is no text: read it as empty, so `@IsNotEmpty(MISSING)` names the field as missing. */
const blankAsEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? '' : value);

/** For required texts: white space only counts as missing. */
export const BlankAsMissing = () => Transform(({ value }) => blankAsEmpty(value));

/**
 * Ids and values may come as numbers (partners send both `"2001"` and `2001`): read them as strings. White space
 * only counts as missing.
 */
export const NumberAsString = () =>
  Transform(({ value }) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : blankAsEmpty(value)));
