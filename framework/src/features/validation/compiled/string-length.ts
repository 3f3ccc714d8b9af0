/**
 * class-validator's Length/MinLength/MaxLength count a string as validator.js's isLength does: surrogate
 * pairs and variation selectors (U+FE0E, U+FE0F) shrink the count. A string without any of those
 * characters counts its plain `length`, and the count is never more than `length`: so the exact count
 * (the package's own function) is only needed when such a character is present and matters.
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: lone surrogates are what this class looks for
const COUNTED_SPECIALLY = /[\uD800-\uDFFF\uFE0E\uFE0F]/;

/**
 * Is the validator.js length of `s` within `min`..`max` (`max` undefined: no upper bound)? `exact`
 * is the package's own check, called only when the plain length cannot decide.
 */
export function lengthWithin(s: string, min: number, max: number | undefined, exact: (s: string) => boolean): boolean {
  const n = s.length;
  if (n < min) return false;
  if (max !== undefined && n > max) return COUNTED_SPECIALLY.test(s) && exact(s);
  // Within `length`, only the lower bound can fail. A character outside the special ones counts one whatever
  // surrounds it, so `min` of them settle it: a look at the first few characters, not a scan of the string
  // (a `Length(1, 200)` field is decided by its first character).
  let plain = 0;
  for (let i = 0; i < n && plain < min; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || (c > 0xdfff && c !== 0xfe0e && c !== 0xfe0f)) plain++;
  }
  return plain >= min || exact(s);
}
