/**
 * A header name in lower case. Names are nearly always written in lower case already (the framework's
 * own, and what HTTP/2-era code writes): a scan for upper-case letters spares String#toLowerCase,
 * which costs more than the scan even when it changes nothing.
 */
export function lowerCaseName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 65 && c <= 90) return name.toLowerCase();
  }
  return name;
}
