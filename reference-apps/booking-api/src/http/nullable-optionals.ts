import type { JsonSchema } from 'rest.uws';

/**
 * class-validator's @IsOptional lets a property be absent *or null*; rest.uws's OpenAPI generator (as of this
 * writing) only leaves it out of `required`. The booking API answers null for partnerReferenceId, voucherUrl,
 * nextUrl..., so every optional property of a component schema also accepts null (JSON Schema 2020-12:
 * `type: [T, "null"]`; a `$ref` becomes `anyOf` with null). Idempotent: a schema that already admits null is kept.
 */
export function withNullableOptionals(document: JsonSchema): JsonSchema {
  const schemas = ((document.components as JsonSchema | undefined)?.schemas ?? {}) as Record<string, JsonSchema>;
  for (const schema of Object.values(schemas)) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries(properties)) {
      if (required.has(name)) continue;
      properties[name] = nullable(property);
    }
  }
  return document;
}

function nullable(property: JsonSchema): JsonSchema {
  if (typeof property.$ref === 'string') return { anyOf: [property, { type: 'null' }] };
  const type = property.type;
  if (type === undefined || type === 'null') return property;
  if (Array.isArray(type)) return type.includes('null') ? property : { ...property, type: [...type, 'null'] };
  const out: JsonSchema = { ...property, type: [type, 'null'] };
  // An enum must list null too, or it still refuses it.
  if (Array.isArray(property.enum) && !property.enum.includes(null)) out.enum = [...property.enum, null];
  return out;
}
