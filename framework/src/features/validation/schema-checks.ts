import {
  MAX_JSON_DEPTH,
  errors,
  isThenable,
  type ConstraintViolation,
  type ParameterDefinition,
  type RoutingContext,
  type StandardSchemaV1,
} from '../../plugin';

/** Checks one argument; may add violations, may replace the argument (with the schema's output). */
export type SchemaCheck = (ctx: RoutingContext, args: unknown[], out: ConstraintViolation[]) => void | Promise<void>;

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Does a parsed body hold a key that could reach a prototype, at any depth? */
function hasPrototypeKeys(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasPrototypeKeys(value[i], depth + 1)) return true;
    return false;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (PROTOTYPE_KEYS.has(key) || hasPrototypeKeys((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

/** A copy of plain objects and arrays without those keys (other values kept as they are). */
function withoutPrototypeKeys(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => withoutPrototypeKeys(v, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    if (!PROTOTYPE_KEYS.has(key)) out[key] = withoutPrototypeKeys((value as Record<string, unknown>)[key], depth + 1);
  return out;
}

/** A body as a schema may see it: keys that could reach a prototype dropped at every depth (a copy only then). */
export function safeBody(value: unknown): unknown {
  return hasPrototypeKeys(value, 0) ? withoutPrototypeKeys(value, 0) : value;
}

/** An issue's path as rest.uws writes violation paths: `items[0].sku`. */
function issuePath(issue: StandardSchemaV1.Issue, prefix: string): string {
  let path = prefix;
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number' || (typeof key === 'string' && /^\d+$/.test(key) && key.length < 16))
      path += `[${String(key)}]`;
    else path += path === '' ? String(key) : `.${String(key)}`;
  }
  return path;
}

/** The issue's kind: Zod's and ArkType's `code`, Valibot's `type`, else `schema`. */
function issueConstraint(issue: StandardSchemaV1.Issue): string {
  const { code, type } = issue as { code?: unknown; type?: unknown };
  if (typeof code === 'string' && code.length > 0) return code;
  if (typeof type === 'string' && type.length > 0) return type;
  return 'schema';
}

/** Violations of a failed validation, one per issue. */
export function violationsOf(
  issues: ReadonlyArray<StandardSchemaV1.Issue>,
  where: string,
  prefix: string,
): ConstraintViolation[] {
  return issues.map((issue) => ({
    in: where,
    path: issuePath(issue, prefix),
    constraint: issueConstraint(issue),
    message: typeof issue.message === 'string' ? issue.message : 'Invalid value',
  }));
}

function checkResult(result: unknown, label: string): asserts result is StandardSchemaV1.Result<unknown> {
  if (result === null || typeof result !== 'object')
    throw errors.RU_ERR_DECORATOR_ARGUMENT(
      `${label}: the @Valid(schema)'s validate answered ${String(result)}, not a Standard Schema result`,
    );
}

/**
 * The check of an argument validated by a Standard Schema: the schema sees the value as the route read it (a body
 * without prototype keys), its output replaces the argument, its issues become violations (`in` the argument's
 * source, paths under `prefix`). An asynchronous schema makes the route wait; one that throws fails the request (500).
 */
export function schemaCheck(p: ParameterDefinition, schema: StandardSchemaV1, label: string): SchemaCheck {
  const i = p.index;
  const props = schema['~standard'];
  const where = p.source;
  const prefix = p.source === 'body' || p.source === 'bean' ? '' : (p.name ?? '');
  const isBody = p.source === 'body';
  const settle = (result: unknown, args: unknown[], out: ConstraintViolation[]) => {
    checkResult(result, label);
    if (result.issues !== undefined) out.push(...violationsOf(result.issues, where, prefix));
    else args[i] = result.value;
  };
  return (_ctx, args, out) => {
    const value = isBody ? safeBody(args[i]) : args[i];
    const result = props.validate(value);
    if (isThenable(result)) return Promise.resolve(result).then((r) => settle(r, args, out));
    settle(result, args, out);
  };
}

/**
 * The check of a bean's fields validated by Standard Schemas: each field's value (as sent) is validated and
 * replaced by the schema's output; violations are `in: 'bean'`, under the field's name.
 */
export function beanFieldsCheck(
  p: ParameterDefinition,
  fields: ReadonlyArray<readonly [string | symbol, StandardSchemaV1]>,
  label: string,
): SchemaCheck {
  const i = p.index;
  return (_ctx, args, out) => {
    const bean = args[i] as Record<string | symbol, unknown> | null | undefined;
    if (bean === null || typeof bean !== 'object') return;
    let pending: Promise<void>[] | undefined;
    for (const [key, schema] of fields) {
      const settle = (result: unknown) => {
        checkResult(result, label);
        if (result.issues !== undefined) out.push(...violationsOf(result.issues, 'bean', String(key)));
        else if (result.value === undefined) delete bean[key];
        else bean[key] = result.value;
      };
      const result = schema['~standard'].validate(bean[key]);
      if (isThenable(result)) (pending ??= []).push(Promise.resolve(result).then(settle));
      else settle(result);
    }
    if (pending !== undefined) return Promise.all(pending).then(() => undefined);
  };
}
