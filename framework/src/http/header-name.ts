/**
 * A header name in lower case. Names are nearly always written in lower case already (the framework's
 * own, and what HTTP/2-era code writes): a scan for upper-case letters spares String#toLowerCase,
 * which costs more than the scan even when it changes nothing.
 */
export function lowerCaseName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 65 && c <= 90) return lowerMixedCase(name);
  }
  return name;
}

/**
 * Mixed-case names seen before, lower-cased: an app writes the same few ('Content-Type', CORS's) on every request,
 * and a lookup of a constant string (its hash kept in it) costs less than lower-casing it into a new string again.
 * Bounded: names made per request cannot grow it past MAX_LOWERED.
 */
const lowered = new Map<string, string>();
const MAX_LOWERED = 512;

function lowerMixedCase(name: string): string {
  let lower = lowered.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowered.size < MAX_LOWERED) lowered.set(name, lower);
  }
  return lower;
}
