import {
  ARGUMENT_SCHEMAS,
  ConstraintException,
  PARAMETER_CONSTRAINTS,
  resolvedClassMetadata,
  type ArgumentSchemas,
  type StandardSchemaV1,
  bodyOriginOf,
  errors,
  isPlainJsonType,
  isThenable,
  type ConstraintViolation,
  type ParameterDefinition,
  type RestPlugin,
  type RouteHooks,
  type RouteScope,
  type RoutingContext,
} from '../../plugin';
import { ConstraintExceptionHandler } from './constraint-exception-handler';
import type { DirectConstraint, PropertyDecoratorFactory } from './constraint-types';
import { ALL_PARAMETERS, VALID } from './valid-decorator';
import { checkValidShape } from './valid-body-shape';
import { VALIDATOR } from './validate-with';
import { ClassValidator, kBoundsJsonDepth, kToInstanceOfJson, kValidInstanceOfJson, type Validator } from './validator';
import { NOT_SIMPLE } from './compiled/json-one-pass';
import { beanFieldsCheck, schemaCheck } from './schema-checks';

let defaultValidator: Validator | undefined;

/** Checks one argument; may add violations, may replace the argument (a body becoming an instance). */
type ArgumentCheck = (ctx: RoutingContext, args: unknown[], out: ConstraintViolation[]) => void | Promise<void>;

function prefixed(violations: readonly ConstraintViolation[], where: string, prefix: string): ConstraintViolation[] {
  return violations.map((v) => {
    const path =
      prefix === ''
        ? v.path
        : v.path === ''
          ? prefix
          : v.path.startsWith('[')
            ? `${prefix}${v.path}`
            : `${prefix}.${v.path}`;
    return v.context === undefined
      ? { in: where, path, constraint: v.constraint, message: v.message }
      : { in: where, path, constraint: v.constraint, message: v.message, context: v.context };
  });
}

/** Collects violations now, or once the validator's promise settles. */
function collect(
  result: readonly ConstraintViolation[] | Promise<readonly ConstraintViolation[]>,
  where: string,
  prefix: string,
  out: ConstraintViolation[],
): void | Promise<void> {
  if (isThenable(result))
    return Promise.resolve(result).then((list) => void out.push(...prefixed(list, where, prefix)));
  if (result.length > 0) out.push(...prefixed(result, where, prefix));
}

/** A type whose parsed value becomes an instance of it (not JSON's own types, dates or bytes). */
function isClassBody(type: ParameterDefinition['type']): boolean {
  return (
    typeof type === 'function' && !isPlainJsonType(type) && type !== Date && type !== Buffer && type !== Uint8Array
  );
}

/**
 * The check of a body or bean argument: make an instance (bodies read by a built-in reader, which only gives
 * the class prototype shallowly), then validate when `@Valid`.
 */
function objectCheck(
  p: ParameterDefinition,
  valid: boolean,
  transform: boolean,
  validator: Validator,
  buildsFromJson: boolean,
): ArgumentCheck | undefined {
  const i = p.index;
  const type = p.type;
  const elementType = Array.isArray(type) ? (type[0] as Function) : undefined;
  const classType = isClassBody(type) ? (type as Function) : undefined;
  if (classType === undefined && elementType === undefined) return undefined;
  const toInstance =
    p.source === 'body' && transform && validator.toInstance !== undefined
      ? validator.toInstance.bind(validator)
      : undefined;
  // ClassValidator builds faster from JSON.parse's output as it is (no object in it needs checking).
  const fromJson =
    toInstance !== undefined && buildsFromJson
      ? (validator as ClassValidator)[kToInstanceOfJson].bind(validator)
      : toInstance;
  // A @Valid JSON body of one class: ClassValidator builds and checks the usual valid body in one pass.
  const validFromJson =
    valid && buildsFromJson && classType !== undefined && toInstance !== undefined
      ? (validator as ClassValidator)[kValidInstanceOfJson](classType)
      : undefined;
  if (!valid && toInstance === undefined) return undefined;
  // Compile the class's validator and transformer now rather than on the first request.
  const prepared = elementType ?? classType;
  if (prepared !== undefined) validator.prepare?.(prepared);
  const optional = p.optional;
  return (ctx, args, out) => {
    let value = args[i];
    if ((value === null || value === undefined) && (optional || !valid)) return;
    const origin = bodyOriginOf(ctx);
    if (validFromJson !== undefined && origin === 'json') {
      const built = validFromJson(value);
      if (built !== NOT_SIMPLE) {
        args[i] = built;
        return;
      }
    }
    // An app's own reader may give a plain object: it is built like the built-in readers' output.
    if (toInstance !== undefined && (origin !== 'other' || isPlainObject(value))) {
      const build = origin === 'json' ? fromJson! : toInstance;
      if (elementType !== undefined && Array.isArray(value)) value = value.map((v) => build(elementType, v));
      else if (classType !== undefined) value = build(classType, value);
      args[i] = value;
    }
    if (!valid) return;
    checkValidShape(ctx, p.source, classType, elementType, value);
    if (Array.isArray(value)) {
      const pending: Promise<void>[] = [];
      value.forEach((item, n) => {
        const r = collect(validator.validate(item), p.source, `[${n}]`, out);
        if (r !== undefined) pending.push(r);
      });
      return pending.length > 0 ? Promise.all(pending).then(() => undefined) : undefined;
    }
    return collect(validator.validate(value as object), p.source, '', out);
  };
}

function isPlainObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Fills a message template the way class-validator does (`$property`, `$value`, `$constraint1`...). */
function formatMessage(
  template: string,
  property: string,
  value: unknown,
  constraints: readonly unknown[],
  target: string,
): string {
  return template
    .replace(/\$constraint(\d+)/g, (_m, n: string) => String(constraints[Number(n) - 1]))
    .replace(/\$property/g, property)
    .replace(/\$value/g, String(value))
    .replace(/\$target/g, target);
}

/**
 * The check of a parameter with constraint decorators: its value is validated as a property of a
 * holder class. When all of them are rest.uws's own (without groups or `each`), the route evaluates
 * them itself: same results and messages, without a class-validator call per request.
 */
function parameterCheck(
  p: ParameterDefinition,
  factories: PropertyDecoratorFactory[],
  validator: Validator,
  label: string,
): ArgumentCheck {
  const property = p.name ?? (p.source === 'body' ? 'body' : `arg${p.index}`);
  const directs = factories.map((f) => f.direct);
  if (
    directs.every(
      (d): d is DirectConstraint => d !== undefined && d.options.groups === undefined && d.options.each !== true,
    )
  ) {
    const i = p.index;
    const requires = directs.some((d) => !d.nullPasses);
    const where = p.source;
    return (_ctx, args, out) => {
      const value = args[i];
      const absent = value === undefined || value === null;
      if (absent && !requires) return;
      for (const d of directs) {
        if (absent ? d.nullPasses : d.test(value)) continue;
        const message = formatMessage(d.options.message ?? d.message, property, value, d.constraints, label);
        const context = d.options.context;
        out.push(
          context === undefined
            ? { in: where, path: property, constraint: d.name, message }
            : { in: where, path: property, constraint: d.name, message, context: { ...context } },
        );
      }
    };
  }
  const Holder = class {};
  Object.defineProperty(Holder, 'name', { value: `${label}(${property})` });
  for (const make of factories) make()(Holder.prototype, property);
  const i = p.index;
  const requiresValue = factories.some((f) => f.requiresValue === true);
  return (_ctx, args, out) => {
    // An absent optional argument is valid unless a constraint asks for a value.
    if ((args[i] === undefined || args[i] === null) && !requiresValue) return;
    const holder = new Holder() as Record<string, unknown>;
    holder[property] = args[i];
    const where = p.source;
    return collect(validator.validate(holder), where, '', out);
  };
}

/**
 * Validation (`@Valid`, parameter constraints, `validateWith`): routes with `@Valid` arguments or
 * parameter constraints (or any class-typed body when a validator is configured) get a `beforeHandler`
 * hook: bodies become class instances, then every argument is checked and all violations are reported
 * together as one ConstraintException, which the plugin's handler answers with 400 unless the app
 * handles it itself. Runs on WebSocket upgrades too.
 */
export const validationPlugin: RestPlugin = {
  name: 'validation',
  setup(app) {
    app.errorHandler(ConstraintException, ConstraintExceptionHandler);
    app.route(compileValidation);
  },
};

/** The Standard Schemas of a bean class's fields (`@Valid(schema)` on them). */
function beanSchemas(p: ParameterDefinition): Array<readonly [string | symbol, StandardSchemaV1]> {
  if (p.source !== 'bean' || typeof p.type !== 'function') return [];
  const schemas = resolvedClassMetadata(p.type).extensions.get(ARGUMENT_SCHEMAS) as ArgumentSchemas | undefined;
  if (schemas === undefined) return [];
  return [...schemas].filter((e): e is [string | symbol, StandardSchemaV1] => typeof e[0] !== 'number');
}

function compileValidation(scope: RouteScope): RouteHooks | undefined {
  const { definition, settings } = scope;
  const validIndexes = definition.extensions.get(VALID) as Set<number> | undefined;
  const constraints = definition.extensions.get(PARAMETER_CONSTRAINTS) as
    | Map<number, PropertyDecoratorFactory[]>
    | undefined;
  const schemas = definition.extensions.get(ARGUMENT_SCHEMAS) as ArgumentSchemas | undefined;
  const configured = settings.extension<Validator>(VALIDATOR);
  const beanFields = new Map(definition.parameters.map((p) => [p.index, beanSchemas(p)] as const));
  const classDeclared =
    (validIndexes !== undefined && validIndexes.size > 0) || (constraints !== undefined && constraints.size > 0);
  const schemaDeclared =
    (schemas !== undefined && schemas.size > 0) || [...beanFields.values()].some((f) => f.length > 0);
  if (!classDeclared && !schemaDeclared && configured === undefined) return undefined;
  // class-validator is loaded only for routes that use it: a route validated by schemas alone does not need it.
  let validator: Validator | undefined;
  const classValidator = (): Validator => {
    if (validator !== undefined) return validator;
    try {
      validator = configured ?? (defaultValidator ??= new ClassValidator());
    } catch (err) {
      throw errors.RU_ERR_MISSING_PACKAGE(`${definition.label}() declares validation: ${(err as Error).message}`);
    }
    return validator;
  };

  const checks: ArgumentCheck[] = [];
  const instantiated = new Set<number>();
  const depthBounded = new Set<number>();
  for (const p of definition.parameters) {
    const schema = schemas?.get(p.index);
    if (schema !== undefined) {
      if (p.source === 'context')
        throw errors.RU_ERR_VALID_TARGET(
          `${definition.label}() parameter ${p.index}: @Valid(schema) goes on a body, bean or value argument (path, query, header, cookie, matrix, form), not on a @Context one`,
        );
      checks.push(schemaCheck(p, schema, `${definition.label}() parameter ${p.index}`));
    }
    const fields = beanFields.get(p.index) ?? [];
    const valid =
      validIndexes !== undefined &&
      (validIndexes.has(p.index) || (validIndexes.has(ALL_PARAMETERS) && (p.source === 'body' || p.source === 'bean')));
    if (valid && p.source !== 'body' && p.source !== 'bean') {
      throw errors.RU_ERR_VALID_TARGET(
        `${definition.label}() parameter ${p.index}: @Valid goes on a body or @BeanParam argument; use constraints such as @Min or @NotBlank on a @${p.source} value, or @Valid(schema) with a Standard Schema`,
      );
    }
    if (schema === undefined && (p.source === 'body' || p.source === 'bean') && (valid || configured !== undefined)) {
      const v = classValidator();
      // ClassValidator's own transform strips prototype keys while building and has a path for JSON.parse's output.
      const buildsFromJson = v.toInstance === ClassValidator.prototype.toInstance;
      const check = objectCheck(p, valid, configured !== undefined || valid, v, buildsFromJson);
      if (check) checks.push(check);
      // The JSON reader's shallow copy would be wasted on a body ClassValidator builds anyway.
      if (check && p.source === 'body' && buildsFromJson && isClassBody(p.type)) {
        instantiated.add(p.index);
        // Its build walks the whole body counting levels: the reader's own depth check would be a second pass.
        if ((v as ClassValidator)[kBoundsJsonDepth]) depthBounded.add(p.index);
      }
    }
    // The bean's fields with schemas: after the class's own check (which may make the bean an instance anew).
    if (fields.length > 0) checks.push(beanFieldsCheck(p, fields, `${definition.label}() parameter ${p.index}`));
    const factories = constraints?.get(p.index);
    if (factories !== undefined && factories.length > 0)
      checks.push(parameterCheck(p, factories, classValidator(), definition.label));
  }
  if (checks.length === 0) return undefined;

  const fail = (out: ConstraintViolation[]) => {
    if (out.length > 0) throw new ConstraintException(out);
  };
  const beforeHandler = (ctx: RoutingContext, args: unknown[]): void | Promise<void> => {
    const out: ConstraintViolation[] = [];
    let pending: Promise<void>[] | undefined;
    for (const check of checks) {
      const r = check(ctx, args, out);
      if (r !== undefined) (pending ??= []).push(r);
    }
    if (pending !== undefined) return Promise.all(pending).then(() => fail(out));
    fail(out);
  };
  return { beforeHandler, instantiatedBodies: instantiated, depthBoundedBodies: depthBounded };
}
