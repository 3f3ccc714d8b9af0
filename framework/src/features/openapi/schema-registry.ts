import { designType, jsonSchemaOf, type ArgumentType, type StandardSchemaV1 } from '../../plugin';
import { documentedSchema } from './standard-schemas';
import { applyConstraint, enumValues, isRequired, type ConstraintRecord, type JsonSchema } from './constraint-keywords';

type ClassValidatorModule = typeof import('class-validator');
type TypeMetadataStorage = {
  findTypeMetadata(target: Function, property: string): { typeFunction(): Function } | undefined;
};

function optional<T>(name: string): T | undefined {
  try {
    return require(name) as T;
  } catch {
    return undefined; // optional peer: without it, classes have no known properties
  }
}

let classValidator: ClassValidatorModule | null | undefined;
let typeStorage: TypeMetadataStorage | null | undefined;

function constraintsOf(cls: Function): ConstraintRecord[] {
  classValidator ??= optional<ClassValidatorModule>('class-validator') ?? null;
  if (classValidator === null) return [];
  return classValidator
    .getMetadataStorage()
    .getTargetValidationMetadatas(cls, '', true, false) as unknown as ConstraintRecord[];
}

function declaredType(cls: Function, property: string): Function | undefined {
  typeStorage ??=
    optional<{ defaultMetadataStorage: TypeMetadataStorage }>('class-transformer/cjs/storage')
      ?.defaultMetadataStorage ?? null;
  const fromTransformer = typeStorage?.findTypeMetadata(cls, property)?.typeFunction();
  return fromTransformer ?? undefined;
}

const PLAIN = new Map<Function, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [BigInt, { type: 'integer' }],
  [Date, { type: 'string', format: 'date-time' }],
  [Buffer, { type: 'string', format: 'binary' }],
  [Uint8Array, { type: 'string', format: 'binary' }],
  [Object, {}],
  [Promise, {}],
]);

/**
 * JSON Schemas of argument and entity types. Classes become `components.schemas` entries referenced
 * with `$ref`, built from their class-validator constraints (and class-transformer's `@Type` for
 * nested classes and array items).
 */
export class SchemaRegistry {
  readonly components: Record<string, JsonSchema> = {};
  private readonly names = new Map<Function, string>();
  private readonly standardComponents = new Map<StandardSchemaV1, JsonSchema>();
  private readonly standardInline = new Map<StandardSchemaV1, JsonSchema>();

  /** A free component name, from `wanted` (`Name`, `Name2`...), reserved. */
  private reserve(wanted: string): string {
    const base = wanted.replace(/[^A-Za-z0-9._-]/g, '_') || 'Anonymous';
    let name = base;
    for (let i = 2; this.components[name] !== undefined; i++) name = `${base}${i}`;
    this.components[name] = {};
    return name;
  }

  /**
   * A Standard Schema of a body: a component named by its JSON Schema's `title` (or `fallback`), referenced with
   * `$ref`, one per schema however many routes use it.
   */
  standardComponent(schema: StandardSchemaV1, fallback: string): JsonSchema {
    let ref = this.standardComponents.get(schema);
    if (ref === undefined) {
      const title = jsonSchemaOf(schema).schema?.title;
      const name = this.reserve(typeof title === 'string' && title.length > 0 ? title : fallback);
      const body = this.documented(schema, name);
      if (Object.keys(body).length === 1 && typeof body.$ref === 'string') {
        // The schema is a reference to one of its own definitions (Zod's `.meta({ id })`): that one is the component.
        delete this.components[name];
        ref = body;
      } else {
        this.components[name] = body;
        ref = { $ref: `#/components/schemas/${name}` };
      }
      this.standardComponents.set(schema, ref);
    }
    return { ...ref };
  }

  /** A Standard Schema of a parameter or form field, inline (its definitions, if any, as components). */
  standardSchema(schema: StandardSchemaV1): JsonSchema {
    let known = this.standardInline.get(schema);
    if (known === undefined) {
      known = this.documented(schema, undefined);
      this.standardInline.set(schema, known);
    }
    return structuredClone(known);
  }

  private documented(schema: StandardSchemaV1, self: string | undefined): JsonSchema {
    return documentedSchema(
      schema,
      (name) => this.reserve(name),
      (name, body) => {
        this.components[name] = body;
      },
      self,
    );
  }

  /** The schema of a declared type: plain types inline, enums as `enum`, classes by reference. */
  schemaFor(type: ArgumentType | undefined): JsonSchema {
    if (type === undefined) return {};
    if (Array.isArray(type)) return { type: 'array', items: this.schemaFor(type[0]) };
    if (typeof type !== 'function') {
      const values = enumValues(type);
      return { type: values.every((v) => typeof v === 'number') ? 'number' : 'string', enum: values };
    }
    const plain = PLAIN.get(type);
    if (plain !== undefined) return { ...plain };
    if (type === Array || type === Set) return { type: 'array', items: {} };
    if (type === Map) return { type: 'object' };
    return { $ref: `#/components/schemas/${this.register(type)}` };
  }

  private register(cls: Function): string {
    const known = this.names.get(cls);
    if (known !== undefined) return known;
    let name = cls.name.replace(/[^A-Za-z0-9._-]/g, '_') || 'Anonymous';
    for (let i = 2; this.components[name] !== undefined; i++) name = `${cls.name}${i}`;
    this.names.set(cls, name);
    this.components[name] = {}; // placeholder first: recursive classes refer to themselves
    this.components[name] = this.classSchema(cls);
    return name;
  }

  /** An object schema from a class's constrained properties. */
  classSchema(cls: Function): JsonSchema {
    const byProperty = new Map<string, ConstraintRecord[]>();
    for (const record of constraintsOf(cls)) {
      const list = byProperty.get(record.propertyName);
      if (list) list.push(record);
      else byProperty.set(record.propertyName, [record]);
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [property, records] of byProperty) {
      const schema = this.propertySchema(cls, property, records);
      if (isRequired(records)) required.push(property);
      // class-validator's @IsOptional accepts null as well as absence: say so, or clients validating
      // against the document reject answers that carry null.
      properties[property] = isOptionalProperty(records) ? nullable(schema) : schema;
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    return schema;
  }

  /** One property: its TypeScript or `@Type` type, then each constraint's keywords. */
  propertySchema(cls: Function, property: string, records: readonly ConstraintRecord[]): JsonSchema {
    const design = designType(cls.prototype, property);
    const declared = declaredType(cls, property);
    const nested = records.some((r) => r.type === 'nestedValidation');
    let schema: JsonSchema;
    if (design === Array || (nested && records.some((r) => r.each)))
      schema = { type: 'array', items: declared !== undefined ? this.schemaFor(declared) : {} };
    else schema = this.schemaFor(declared ?? design);
    const isRef = typeof schema.$ref === 'string';
    for (const r of records) if (r.type === 'customValidation' && !isRef) applyConstraint(schema, r);
    return schema;
  }

  /** The keywords of constraints declared on a method parameter (`@Min(1)`, `@Constraint(IsIn([...]))`). */
  parameterSchema(base: JsonSchema, decorators: ReadonlyArray<() => PropertyDecorator>): JsonSchema {
    // Applied to a throwaway class, so class-validator records them where they can be read back.
    class Parameter {}
    for (const make of decorators) make()(Parameter.prototype, 'value');
    const records = constraintsOf(Parameter).filter((r) => r.propertyName === 'value');
    const schema = { ...base };
    for (const r of records) if (r.type === 'customValidation') applyConstraint(schema, r);
    return schema;
  }
}

function isOptionalProperty(records: readonly ConstraintRecord[]): boolean {
  return records.some((r) => r.type === 'conditionalValidation' && r.name === 'isOptional');
}

/** The same schema, also allowing null (OpenAPI 3.1 / JSON Schema 2020-12 style). */
function nullable(schema: JsonSchema): JsonSchema {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}
