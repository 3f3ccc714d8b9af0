import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { parse } from 'yaml';

/** The copies of DeepL's published specs (spec/deepl/README.md says where each comes from). */
export const DEEPL_SPEC_DIRECTORY = path.resolve(__dirname, '..', '..', '..', 'spec', 'deepl');

type Schema = Record<string, any>;

function load(file: string): Schema {
  return parse(readFileSync(path.join(DEEPL_SPEC_DIRECTORY, file), 'utf8')) as Schema;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Validators for DeepL's schemas, taken as they are: OpenAPI 3.0 components (openapi.yaml, spoken-terms.yaml) and the
 * AsyncAPI payload schemas (voice.asyncapi.yaml, voice.target-media.yaml), each document under its own `$id` so its
 * `#/components/...` references resolve in it. A binary field is a base64 string in JSON; a MessagePack message is
 * validated after its raw bytes are shown as base64 (see `asJsonShape`).
 */
export class DeepLSpec {
  readonly openapi = load('openapi.yaml');
  readonly asyncapi = load('voice.asyncapi.yaml');
  readonly targetMedia = load('voice.target-media.yaml');
  readonly spokenTerms = load('spoken-terms.yaml');
  readonly jobs = load('jobs-voice-translate.openapi.yaml');
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv.addFormat('binary', BASE64);
    this.ajv.addFormat('byte', BASE64);
    this.ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    this.ajv.addFormat('uri', /^https?:\/\/[^\s]+$/);
    this.ajv.addFormat('int64', true);
    this.ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/);
    for (const [id, document] of Object.entries(this.documents())) this.ajv.addSchema(document, id);
  }

  private documents(): Record<string, Schema> {
    return {
      'deepl:openapi': this.openapi,
      'deepl:asyncapi': this.asyncapi,
      'deepl:target-media': this.targetMedia,
      'deepl:spoken-terms': this.spokenTerms,
      'deepl:jobs': this.jobs,
    };
  }

  /** `deepl:openapi#/components/schemas/VoiceStreamingResponse`: the schema at a reference. */
  schemaAt(reference: string): Schema {
    const [id, pointer] = reference.split('#');
    let node: any = this.documents()[id];
    for (const part of pointer.split('/').filter(Boolean)) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`no schema at ${reference}`);
    return node;
  }

  /** Validation problems of `value` against the schema at `reference` (empty: valid). */
  check(reference: string, value: unknown): string[] {
    let validate = this.compiled.get(reference);
    if (!validate) {
      validate = this.ajv.compile({ $ref: reference });
      this.compiled.set(reference, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map(describe);
  }

  /** Fields of `value` (at any depth) that the schema at `reference` does not name: DeepL's schemas leave objects open. */
  undocumented(reference: string, value: unknown): string[] {
    const [id] = reference.split('#');
    return undocumentedFields(this, id, this.schemaAt(reference), value, '');
  }
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || '/'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`;
}

/** Follows a local `$ref` in document `id`. */
function resolved(spec: DeepLSpec, id: string, schema: Schema): Schema {
  let current = schema;
  while (typeof current?.$ref === 'string') current = spec.schemaAt(`${id}${current.$ref}`);
  return current;
}

function undocumentedFields(spec: DeepLSpec, id: string, raw: Schema, value: unknown, at: string): string[] {
  const schema = resolved(spec, id, raw);
  if (Array.isArray(value)) {
    return schema.items === undefined
      ? []
      : value.flatMap((item, index) => undocumentedFields(spec, id, schema.items, item, `${at}[${index}]`));
  }
  if (value === null || typeof value !== 'object') return [];
  const parts = [schema, ...((schema.allOf as Schema[] | undefined) ?? []).map((part) => resolved(spec, id, part))];
  const properties: Record<string, Schema> = Object.assign({}, ...parts.map((part) => part.properties ?? {}));
  // A required name documents its field too (EndOfStreamPayload lists `end_of_stream` only as required).
  const required = new Set(parts.flatMap((part) => (part.required as string[] | undefined) ?? []));
  const found: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (key in properties) found.push(...undocumentedFields(spec, id, properties[key], child, `${at}.${key}`));
    else if (!required.has(key)) found.push(`${at}.${key}`);
  }
  return found;
}

/** The payload schema of each server message kind. */
export const SERVER_MESSAGE_SCHEMAS: Record<string, string> = {
  source_transcript_update: 'deepl:asyncapi#/components/schemas/SourceTranscriptUpdatePayload',
  target_transcript_update: 'deepl:asyncapi#/components/schemas/TargetTranscriptUpdatePayload',
  end_of_source_transcript: 'deepl:asyncapi#/components/schemas/EndOfSourceTranscriptPayload',
  end_of_target_transcript: 'deepl:asyncapi#/components/schemas/EndOfTargetTranscriptPayload',
  end_of_stream: 'deepl:asyncapi#/components/schemas/EndOfStreamPayload',
  error: 'deepl:asyncapi#/components/schemas/ErrorPayload',
  target_media_chunk: 'deepl:target-media#/components/schemas/TargetMediaChunkPayload',
  end_of_target_media: 'deepl:target-media#/components/schemas/EndOfTargetMediaPayload',
};

/**
 * A decoded MessagePack message in the shape the schemas describe for JSON: raw bytes (bin) as base64 strings. The
 * paths of the bytes found are returned too, so a test can check that binary fields, and only they, were bytes.
 */
export function asJsonShape(value: unknown, at = ''): { value: unknown; binaryPaths: string[] } {
  if (value instanceof Uint8Array) return { value: Buffer.from(value).toString('base64'), binaryPaths: [at] };
  if (Array.isArray(value)) {
    const items = value.map((item, index) => asJsonShape(item, `${at}[${index}]`));
    return { value: items.map((item) => item.value), binaryPaths: items.flatMap((item) => item.binaryPaths) };
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, child]) => [key, asJsonShape(child, `${at}.${key}`)] as const);
    return {
      value: Object.fromEntries(entries.map(([key, child]) => [key, child.value])),
      binaryPaths: entries.flatMap(([, child]) => child.binaryPaths),
    };
  }
  return { value, binaryPaths: [] };
}
