/**
 * Tolerant MIME type parsing: real clients send `audio/ogg; codecs=opus`, `audio/ogg;codecs=opus`
 * and even a trailing `;` (`audio/webm;codecs=opus;`), so spaces, case and empty parameters are ignored.
 */
export interface MediaType {
  /** `type/subtype`, lower case. */
  readonly essence: string;
  /** Parameter names and values, lower case, quotes removed. */
  readonly parameters: Readonly<Record<string, string>>;
}

const TOKEN = /^[a-z0-9!#$&^_.+-]+$/;

/** Parses a MIME type; returns `undefined` when it is not `type/subtype` with well-formed parameters. */
export function parseMediaType(text: unknown): MediaType | undefined {
  if (typeof text !== 'string') return undefined;
  const [head, ...rest] = text.split(';');
  const essence = head.trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0 || slash === essence.length - 1) return undefined;
  if (!TOKEN.test(essence.slice(0, slash)) || !TOKEN.test(essence.slice(slash + 1))) return undefined;
  const parameters: Record<string, string> = {};
  for (const part of rest) {
    if (part.trim() === '') continue;
    const equals = part.indexOf('=');
    if (equals <= 0) return undefined;
    const name = part.slice(0, equals).trim().toLowerCase();
    let value = part.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    value = value.trim().toLowerCase();
    if (!TOKEN.test(name) || value === '') return undefined;
    if (name in parameters) return undefined;
    parameters[name] = value;
  }
  return { essence, parameters };
}

/** Canonical spelling: `type/subtype;name=value` in the order given, without spaces. */
export function formatMediaType(
  type: MediaType,
  parameterOrder: readonly string[] = Object.keys(type.parameters),
): string {
  const parts = [type.essence];
  for (const name of parameterOrder) {
    const value = type.parameters[name];
    if (value !== undefined) parts.push(`${name}=${value}`);
  }
  return parts.join(';');
}
