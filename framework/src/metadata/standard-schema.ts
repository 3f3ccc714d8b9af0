/**
 * Standard Schema (https://standardschema.dev): the `~standard` interface Zod, Valibot, ArkType and others implement,
 * and the metadata key under which `@Valid(schema)` records the schema of an argument. The validation plugin enforces
 * it and API documents describe it. The interfaces are the spec's own (v1), written out here as the spec advises.
 */

/** A Standard Schema (v1): `schema['~standard'].validate(value)` answers the output or the issues. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The spec's properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  /** The `~standard` property. */
  export interface Props<Input = unknown, Output = Input> {
    /** The spec's version (1). */
    readonly version: 1;
    /** The library (`zod`, `valibot`, `arktype`...). */
    readonly vendor: string;
    /** Validates a value: its output (transforms and defaults applied), or the issues; may be asynchronous. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** The input and output types (types only). */
    readonly types?:
      | {
          /** What the schema accepts. */
          readonly input: Input;
          /** What the schema produces. */
          readonly output: Output;
        }
      | undefined;
  }
  /** What `validate` answers. */
  export type Result<Output> =
    | {
        /** The schema's output: what the method receives. */
        readonly value: Output;
        /** Absent on success. */
        readonly issues?: undefined;
      }
    | FailureResult;
  /** A failed validation. */
  export interface FailureResult {
    /** What was wrong, one entry per issue. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One issue: a message and where in the value it is. */
  export interface Issue {
    /** The library's message. */
    readonly message: string;
    /** Where in the value: keys and indexes from the root. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A segment of an issue's path, as an object. */
  export interface PathSegment {
    /** The key or index. */
    readonly key: PropertyKey;
  }
  /** The schema's input type. */
  export type InferInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];
  /** The schema's output type: what the method receives. */
  export type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];
}

/** Standard JSON Schema's converter (`~standard.jsonSchema`, beside `validate` where a library implements it). */
export interface StandardJsonSchemaConverter {
  /** The JSON Schema of what the schema accepts. */
  readonly input: (options: {
    readonly target: string;
    readonly libraryOptions?: Record<string, unknown>;
  }) => Record<string, unknown>;
  /** The JSON Schema of what the schema produces. */
  readonly output: (options: {
    readonly target: string;
    readonly libraryOptions?: Record<string, unknown>;
  }) => Record<string, unknown>;
}

/**
 * Metadata key of the Standard Schemas of arguments. On a method (extension): by parameter index. On a bean class
 * (extension): by field name, or by constructor parameter index.
 */
export const ARGUMENT_SCHEMAS = Symbol('rest.uws:argument-schemas');

/** What `ARGUMENT_SCHEMAS` holds. */
export type ArgumentSchemas = ReadonlyMap<PropertyKey, StandardSchemaV1>;

/** Is this a Standard Schema (an object or function with a `~standard` whose `validate` is a function)? */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    props !== null &&
    typeof props === 'object' &&
    typeof (props as { validate?: unknown }).validate === 'function' &&
    typeof (props as { vendor?: unknown }).vendor === 'string'
  );
}

/** The JSON Schema of a Standard Schema's input, or why there is none. */
export type SchemaDocument =
  | { readonly schema: Record<string, unknown>; readonly via: string }
  | { readonly schema: undefined; readonly reason: string };

const documents = new WeakMap<object, SchemaDocument>();

function optionalRequire(name: string): any {
  try {
    return require(name);
  } catch {
    return undefined;
  }
}

/**
 * The JSON Schema (draft 2020-12) of what a client sends for a Standard Schema: through Standard JSON Schema
 * (`~standard.jsonSchema.input`) where the library implements it, else the library's own export (ArkType's
 * `toJsonSchema()`, Zod 4's `z.toJSONSchema`, `@valibot/to-json-schema` when installed). A schema none of them can
 * express answers `schema: undefined` and the reason. Kept per schema.
 */
export function jsonSchemaOf(schema: StandardSchemaV1): SchemaDocument {
  const known = documents.get(schema);
  if (known !== undefined) return known;
  const found = convert(schema);
  documents.set(schema, found);
  return found;
}

function convert(schema: StandardSchemaV1): SchemaDocument {
  const props = schema['~standard'] as StandardSchemaV1.Props & { readonly jsonSchema?: StandardJsonSchemaConverter };
  const vendor = props.vendor;
  const failures: string[] = [];
  const attempt = (via: string, make: () => unknown): SchemaDocument | undefined => {
    try {
      const out = make();
      if (out !== null && typeof out === 'object' && !Array.isArray(out))
        return { schema: structuredClone(out) as Record<string, unknown>, via };
      failures.push(`${via} gave no schema`);
    } catch (err) {
      failures.push(`${via}: ${(err as Error)?.message ?? String(err)}`.replace(/\s+/g, ' '));
    }
    return undefined;
  };
  if (props.jsonSchema !== undefined && typeof props.jsonSchema.input === 'function') {
    const done = attempt('~standard.jsonSchema', () => props.jsonSchema!.input({ target: 'draft-2020-12' }));
    if (done !== undefined) return done;
  }
  const own = (schema as { toJsonSchema?: unknown }).toJsonSchema;
  if (typeof own === 'function') {
    const done = attempt(`${vendor} toJsonSchema()`, () => own.call(schema));
    if (done !== undefined) return done;
  }
  if (vendor === 'zod') {
    const zod = optionalRequire('zod');
    if (typeof zod?.toJSONSchema === 'function') {
      const done = attempt('z.toJSONSchema', () => zod.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }));
      if (done !== undefined) return done;
    }
  }
  if (vendor === 'valibot') {
    const valibot = optionalRequire('@valibot/to-json-schema');
    if (typeof valibot?.toJsonSchema === 'function') {
      const done = attempt('@valibot/to-json-schema', () =>
        valibot.toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore', typeMode: 'input' }),
      );
      if (done !== undefined) return done;
    } else failures.push('@valibot/to-json-schema is not installed');
  }
  if (failures.length === 0) failures.push(`${vendor} offers no JSON Schema export`);
  return { schema: undefined, reason: failures.join('; ') };
}
