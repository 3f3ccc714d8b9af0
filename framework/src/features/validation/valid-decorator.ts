import {
  ARGUMENT_SCHEMAS,
  BodyParam,
  classMetadata,
  errors,
  isStandardSchema,
  marker,
  methodMetadata,
  type ParamMetadata,
  type StandardSchemaV1,
} from '../../plugin';

/** Metadata key: indexes of the method parameters marked `@Valid` (a method-level `@Valid` marks all body and bean parameters). */
export const VALID = Symbol('rest.uws:valid');

/** `VALID` value for a method-level `@Valid`. */
export const ALL_PARAMETERS = -1;

const validClass = marker((target: object, key?: string | symbol, index?: number | PropertyDescriptor) => {
  if (key === undefined)
    throw errors.RU_ERR_DECORATOR_TARGET(
      'rest.uws: @Valid goes on a method parameter (or on a method, for all its body and bean parameters)',
    );
  const meta = methodMetadata(target, key);
  const indexes = new Set((meta.extensions.get(VALID) as Set<number> | undefined) ?? []);
  indexes.add(typeof index === 'number' ? index : ALL_PARAMETERS);
  meta.extensions.set(VALID, indexes);
  // Make sure the parameter has a metadata record (an undecorated parameter is the body).
  if (typeof index === 'number' && !meta.params.has(index)) BodyParam()(target, key, index);
});

/** `@Valid(schema)`: decorates a method parameter or a bean's field. */
export type SchemaDecorator = (target: object, key: string | symbol | undefined, index?: number) => void;

/**
 * The argument takes the value as sent (text for path, query, header, cookie, matrix and form values; the parsed
 * body), absent or not: the schema converts it, gives defaults and judges absence. An explicit `type` or
 * `optional` of the argument's own decorator, before or after this one, wins.
 */
function rawValue(p: ParamMetadata): void {
  if (p.explicitType === undefined) p.explicitType = Object;
  if (p.optional === undefined) p.optional = true;
}

function schemaDecorator(schema: StandardSchemaV1): SchemaDecorator {
  return (target, key, index) => {
    if (typeof index === 'number' && key !== undefined) {
      const meta = methodMetadata(target, key);
      const schemas = new Map((meta.extensions.get(ARGUMENT_SCHEMAS) as Map<PropertyKey, unknown> | undefined) ?? []);
      schemas.set(index, schema);
      meta.extensions.set(ARGUMENT_SCHEMAS, schemas);
      if (!meta.params.has(index)) BodyParam()(target, key, index);
      rawValue(meta.params.get(index)!);
      return;
    }
    const ctor = (typeof target === 'function' ? target : target.constructor) as Function;
    const meta = classMetadata(ctor);
    let record: ParamMetadata | undefined;
    let where: PropertyKey;
    if (typeof index === 'number') {
      throw errors.RU_ERR_DECORATOR_TARGET(
        `rest.uws: @Valid(schema) on constructor parameter ${index} of ${ctor.name}: the bean is built before it could be validated; put it on a field`,
      );
    } else if (key !== undefined) {
      where = key;
      record = meta.fields.get(key);
      if (record === undefined) meta.fields.set(key, (record = { source: 'context' }));
    } else
      throw errors.RU_ERR_DECORATOR_TARGET(
        'rest.uws: @Valid(schema) goes on a method parameter, or on a field or constructor parameter of a bean',
      );
    const schemas = new Map((meta.extensions.get(ARGUMENT_SCHEMAS) as Map<PropertyKey, unknown> | undefined) ?? []);
    schemas.set(where, schema);
    meta.extensions.set(ARGUMENT_SCHEMAS, schemas);
    rawValue(record);
  };
}

/**
 * Validates an argument before the method runs. Two forms:
 *
 * - `@Valid` on a body or `@BeanParam` argument: against the constraints of its class (class-validator
 *   decorators); a body is first turned into a real instance of its class, nested `@Type(() => ...)` objects
 *   included.
 * - `@Valid(schema)` with a Standard Schema (Zod, Valibot, ArkType, ...) on any body, path, query, header, cookie,
 *   matrix, form or bean argument, or on a bean's field: the schema validates the value as sent (text, or the
 *   parsed body) and the method receives the schema's output (transforms and defaults applied).
 *
 * Violations answer 400 (see ConstraintExceptionHandler), one per constraint or schema issue.
 *
 * ```ts
 * @POST @Path('/users') create(@Valid user: NewUser) { ... }
 * @POST @Path('/notes') add(@Valid(NewNote) note: z.output<typeof NewNote>) { ... }
 * @GET @Path('/notes') list(@QueryParam('limit') @Valid(z.coerce.number().int().max(100).default(20)) limit: number) { ... }
 * ```
 */
export const Valid: ((schema: StandardSchemaV1) => SchemaDecorator) & typeof validClass = ((...args: unknown[]) => {
  if (args.length === 1 && isStandardSchema(args[0])) return schemaDecorator(args[0]);
  return (validClass as (...a: unknown[]) => unknown)(...args);
}) as never;
