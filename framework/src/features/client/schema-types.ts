/** A JSON Schema object as the documents hold it. */
export type Schema = Record<string, unknown>;

/** Names TypeScript or the browser already give a meaning; a schema of such a name gets `Api` before it. */
const TAKEN = new Set([
  'Error',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Date',
  'Map',
  'Set',
  'Promise',
  'Response',
  'Headers',
  'Request',
  'URL',
  'WebSocket',
  'Record',
  'Partial',
  'Required',
  'Readonly',
  'Pick',
  'Omit',
  'Blob',
  'FormData',
  'Buffer',
  'Symbol',
  'Function',
  'JSON',
  'Math',
  'File',
  'Event',
  'Uint8Array',
  'ArrayBuffer',
  'Answer',
  'ClientOptions',
  'TypedSocket',
  'createClient',
]);

/** A TypeScript identifier for a schema name (`Booking`, `Booking.v2` -> `Booking_v2`, `Error` -> `ApiError`). */
export function typeName(name: string): string {
  let id = name.replace(/[^A-Za-z0-9_$]/g, '_');
  if (/^[0-9]/.test(id)) id = `_${id}`;
  return TAKEN.has(id) ? `Api${id}` : id;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key as written in a type literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/**
 * Writes a JSON Schema as a TypeScript type. `$ref`s to `#/components/schemas/X` name the type `refs` maps X to;
 * `binary` tells what a `format: binary` string is (base64 text in JSON, bytes in a body of its own).
 */
export function schemaType(schema: unknown, refs: (ref: string) => string, depth = 0): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (schema === null || typeof schema !== 'object') return 'unknown';
  const s = schema as Schema;
  if (depth > 40) return 'unknown';
  const next = (x: unknown) => schemaType(x, refs, depth + 1);
  if (typeof s.$ref === 'string') return refs(s.$ref);
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? 'never' : s.enum.map(literal).join(' | ');
  if (Array.isArray(s.allOf)) return s.allOf.map((x) => wrap(next(x))).join(' & ');
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(s[key])) return (s[key] as unknown[]).map((x) => wrap(next(x))).join(' | ');
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : undefined;
  if (types === undefined) {
    if (s.properties !== undefined) return objectType(s, next);
    if (s.items !== undefined) return arrayType(s, next);
    return 'unknown';
  }
  const parts = types.map((t) => {
    switch (t) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array':
        return arrayType(s, next);
      case 'object':
        return objectType(s, next);
      default:
        return 'unknown';
    }
  });
  return [...new Set(parts)].join(' | ');
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !/^[{(]/.test(type) ? `(${type})` : type;
}

function literal(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

function arrayType(s: Schema, next: (x: unknown) => string): string {
  if (Array.isArray(s.prefixItems)) return `[${(s.prefixItems as unknown[]).map(next).join(', ')}]`;
  return `Array<${next(s.items)}>`;
}

function objectType(s: Schema, next: (x: unknown) => string): string {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const members = Object.entries(properties).map(
    ([name, p]) => `${propertyKey(name)}${required.has(name) ? '' : '?'}: ${next(p)}`,
  );
  const extra = s.additionalProperties;
  if (extra !== undefined && extra !== false && extra !== true)
    members.push(`[key: string]: ${members.length === 0 ? next(extra) : 'unknown'}`);
  else if (members.length === 0 && extra !== false) return 'Record<string, unknown>';
  return `{ ${members.join('; ')} }`;
}
