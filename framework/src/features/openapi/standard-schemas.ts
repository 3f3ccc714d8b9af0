import { isThenable, jsonSchemaOf, type StandardSchemaV1 } from '../../plugin';
import type { JsonSchema } from './constraint-keywords';

/**
 * The JSON Schema a document shows for an argument validated by a Standard Schema (`@Valid(schema)`): the schema's
 * input as JSON Schema 2020-12 (see `jsonSchemaOf`), its `$defs` hoisted into `components.schemas` (`reserve`
 * names them, `define` writes them) and its references rewritten to point there. A schema no export can express is shown as any value, with a
 * description that says so and why.
 */
export function documentedSchema(
  schema: StandardSchemaV1,
  reserve: (name: string) => string,
  define: (name: string, schema: JsonSchema) => void,
  self: string | undefined,
): JsonSchema {
  const found = jsonSchemaOf(schema);
  if (found.schema === undefined)
    return {
      description: `Validated by a ${schema['~standard'].vendor} schema that has no JSON Schema form (${found.reason}).`,
    };
  const { $schema: _dialect, $defs, definitions, ...root } = found.schema as JsonSchema;
  const defs: Record<string, JsonSchema> = { ...(definitions ?? {}), ...($defs ?? {}) };
  const names = new Map<string, string>();
  // Names first (definitions may refer to each other), then their bodies with references rewritten.
  for (const name of Object.keys(defs)) names.set(name, reserve(name));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out[k] = reference(v);
      else out[k] = rewrite(v);
    }
    return out;
  };
  const reference = (ref: string): string => {
    if (ref === '#') return self !== undefined ? `#/components/schemas/${self}` : '#';
    const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
    const target =
      m !== null ? names.get(decodeURIComponent(m[1]!.replace(/~1/g, '/').replace(/~0/g, '~'))) : undefined;
    return target !== undefined ? `#/components/schemas/${target}` : ref;
  };
  for (const [name, body] of Object.entries(defs)) define(names.get(name)!, rewrite(body) as JsonSchema);
  const out = rewrite(root) as JsonSchema;
  // A self-reference of an inline schema has nowhere to point: any value there.
  return self === undefined ? (dropSelfReferences(out) as JsonSchema) : out;
}

function dropSelfReferences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropSelfReferences);
  if (value === null || typeof value !== 'object') return value;
  if ((value as JsonSchema).$ref === '#') return {};
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(value)) out[k] = dropSelfReferences(v);
  return out;
}

/**
 * Must a client send the value? Asked of the schema itself: it is required when it refuses `undefined`. An
 * asynchronous schema is taken as requiring it (the document cannot wait).
 */
export function requiresValue(schema: StandardSchemaV1): boolean {
  try {
    const result = schema['~standard'].validate(undefined);
    if (isThenable(result)) {
      Promise.resolve(result).catch(() => undefined);
      return true;
    }
    return result.issues !== undefined;
  } catch {
    return true;
  }
}
