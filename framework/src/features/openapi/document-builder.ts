import {
  API_EXCLUDE,
  ARGUMENT_SCHEMAS,
  PARAMETER_CONSTRAINTS,
  designParamTypes,
  designType,
  resolvedClassMetadata,
  type ArgumentSchemas,
  type ArgumentType,
  type ComponentFactory,
  type StandardSchemaV1,
  type ParamMetadata,
  type ParameterConstraints,
  type ParameterDefinition,
  type RouteAnswer,
  type RouteDefinition,
  type SettingsView,
} from '../../plugin';
import type { JsonSchema } from './constraint-keywords';
import { ErrorBodies, fromRouteAnswer, type ErrorHandlerList } from './error-responses';
import { readMethodSource } from './method-source';
import { API_OPERATION, API_TAGS, type ApiOperationOptions } from './openapi-decorators';
import { pathTemplate } from './path-template';
import { frameworkErrors, responseObject, successResponses } from './responses';
import { SchemaRegistry } from './schema-registry';
import { requiresValue } from './standard-schemas';
import { routeSecurityDoc } from './security-schemes';

/** The document's `info` and where it is served. */
export interface OpenApiOptions {
  /** The API's title (`info.title`). */
  title: string;
  /** The API's version (`info.version`), not the OpenAPI version. */
  version: string;
  /** A description of the API (`info.description`, CommonMark). */
  description?: string;
  /** Where the JSON document is served (default `/openapi.json`). */
  path?: string;
  /**
   * Named schemas added to `components.schemas`, for shapes no class describes (an interface: TypeScript keeps no
   * trace of it at run time); `@ApiResponse(200, { schema: { type: 'array', items: { $ref: '#/components/schemas/Todo' } } })`
   * refers to one.
   */
  schemas?: Record<string, Record<string, unknown>>;
  /** `servers` entries, e.g. `[{ url: 'https://api.example.com' }]`. */
  servers?: Array<{
    /** The server's base URL. */
    url: string;
    /** What the server is (production, staging...). */
    description?: string;
  }>;
}

const IN: Partial<Record<ParamMetadata['source'], string>> = {
  path: 'path',
  query: 'query',
  header: 'header',
  cookie: 'cookie',
};

/** What a document is built from: an app's routes, settings and components (a plugin's view of the app). */
export interface OpenApiSource {
  /** The routes to document. */
  routes(): readonly RouteDefinition[];
  /** The app's settings (its authentication providers, for security schemes; its body limit). */
  readonly settings: SettingsView;
  /** Makes the providers whose security schemes are described. */
  readonly components: Pick<ComponentFactory, 'get'>;
  /** What the plugins' hooks may answer on a route instead of the route (a rate limit's 429). */
  routeAnswers?(route: RouteDefinition): readonly RouteAnswer[];
  /** The exception handlers in the order they are tried for a route (its own `@CatchWith` first): what error bodies look like. */
  errorHandlers?(route: RouteDefinition): ErrorHandlerList;
}

/** The OpenAPI 3.1 document of the routes `source` gives (a plugin's view of an app, or an app's own). */
export function buildOpenApiDocument(rt: OpenApiSource, options: OpenApiOptions): JsonSchema {
  const schemas = new SchemaRegistry();
  for (const [name, schema] of Object.entries(options.schemas ?? {}))
    schemas.components[name] = structuredClone(schema);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const securitySchemes: Record<string, JsonSchema> = {};
  const operationIds = new Set<string>();

  for (const d of rt.routes()) {
    if (d.extensions.get(API_EXCLUDE) === true) continue;
    const { template, patterns } = pathTemplate(d.path);
    const item = (paths[template] ??= {});
    const method = d.method.toLowerCase();
    if (item[method] !== undefined) continue; // identical paths chained: the first one documents it
    const texts = (d.extensions.get(API_OPERATION) as ApiOperationOptions | undefined) ?? {};
    let operationId = texts.operationId ?? `${d.resourceClass.name}_${d.methodName}`;
    for (let i = 2; operationIds.has(operationId); i++)
      operationId = `${texts.operationId ?? `${d.resourceClass.name}_${d.methodName}`}_${i}`;
    operationIds.add(operationId);

    const operation: JsonSchema = {
      operationId,
      tags: (d.extensions.get(API_TAGS) as string[] | undefined) ?? [d.resourceClass.name],
    };
    if (texts.summary !== undefined) operation.summary = texts.summary;
    if (texts.description !== undefined) operation.description = texts.description;
    if (texts.deprecated === true) operation.deprecated = true;

    const parameters = describeParameters(d, patterns, schemas);
    if (parameters.length > 0) operation.parameters = parameters;
    const body = describeBody(d, schemas);
    if (body !== undefined) operation.requestBody = body;

    const security = routeSecurityDoc(d, rt.settings, (p) => rt.components.get(p));
    if (security.requirement !== undefined) operation.security = security.requirement;
    Object.assign(securitySchemes, security.schemes);

    const hints = readMethodSource(
      (d.resourceClass.prototype as Record<string, Function>)[d.methodName] ?? (() => undefined),
    );
    const responses = successResponses(d, hints, schemas);
    const facts = {
      parameters,
      readsBody: body !== undefined,
      secured: security.secured,
      mayForbid: security.mayForbid,
      bodyLimit: rt.settings.bodyLimit,
    };
    const errors = [...frameworkErrors(d, facts, hints), ...(rt.routeAnswers?.(d) ?? []).map(fromRouteAnswer)];
    const errorBodies = new ErrorBodies(rt.errorHandlers?.(d) ?? [], schemas, rt.settings.notFoundEntries().length > 0);
    // An error the route declares without a body (`@ApiResponse(404, 'No such todo')`): the body of the handler
    // that takes every error, when there is one; otherwise which handler answers it is not known.
    for (const [status, r] of Object.entries(responses)) {
      if (Number(status) >= 400 && r.content === undefined) {
        const content = errorBodies.catchAllContent(d);
        if (content !== undefined) r.content = content;
      }
    }
    for (const e of errors) {
      const key = String(e.status);
      if (responses[key] === undefined)
        responses[key] = responseObject(e.description, errorBodies.contentOf(e, d), e.headers);
    }
    operation.responses = responses;
    item[method] = operation;
  }

  const components: JsonSchema = {};
  if (Object.keys(schemas.components).length > 0) components.schemas = schemas.components;
  if (Object.keys(securitySchemes).length > 0) components.securitySchemes = securitySchemes;
  const info: JsonSchema = { title: options.title, version: options.version };
  if (options.description !== undefined) info.description = options.description;
  const doc: JsonSchema = { openapi: '3.1.0', info };
  if (options.servers !== undefined) doc.servers = options.servers;
  doc.paths = paths;
  if (Object.keys(components).length > 0) doc.components = components;
  return doc;
}

export function describeParameters(
  d: RouteDefinition,
  patterns: Map<string, string>,
  schemas: SchemaRegistry,
): JsonSchema[] {
  const out: JsonSchema[] = [];
  const constraints = d.extensions.get(PARAMETER_CONSTRAINTS) as ParameterConstraints | undefined;
  const standard = d.extensions.get(ARGUMENT_SCHEMAS) as ArgumentSchemas | undefined;
  const add = (
    p: {
      source: ParamMetadata['source'];
      name?: string;
      type?: ArgumentType;
      optional: boolean;
      defaultValue?: string;
      standard?: StandardSchemaV1;
    },
    extra?: ReadonlyArray<() => PropertyDecorator>,
  ) => {
    const location = IN[p.source];
    if (location === undefined || p.name === undefined) return;
    if (out.some((o) => o.name === p.name && o.in === location)) return;
    if (p.standard !== undefined) {
      // `@Valid(schema)`: the schema says what is sent, and whether it must be.
      const schema = schemas.standardSchema(p.standard);
      const required = location === 'path' || requiresValue(p.standard);
      const param: JsonSchema = { name: p.name, in: location, required, schema };
      if (schema.type === 'array' && location === 'query') Object.assign(param, { style: 'form', explode: true });
      out.push(param);
      return;
    }
    // A value TypeScript records as Object (a union such as `string | undefined`, `any`) arrives as the text sent.
    let schema = schemas.schemaFor(p.type === undefined || p.type === Object ? String : p.type);
    if (typeof schema.$ref === 'string') schema = { type: 'string' }; // a class read from a string (fromString, a reader)
    if (location === 'path' && patterns.has(p.name)) schema.pattern = `^(?:${patterns.get(p.name)})$`;
    if (p.defaultValue !== undefined) schema.default = typedDefault(p.defaultValue, schema);
    if (extra !== undefined && extra.length > 0) schema = schemas.parameterSchema(schema, extra);
    const required = location === 'path' || (!p.optional && p.defaultValue === undefined);
    const param: JsonSchema = { name: p.name, in: location, required, schema };
    if (schema.type === 'array' && location === 'query') Object.assign(param, { style: 'form', explode: true });
    out.push(param);
  };
  for (const p of d.parameters) {
    if (p.source === 'bean') for (const field of beanFields(p)) add(field);
    else add({ ...p, standard: standard?.get(p.index) }, constraints?.get(p.index));
  }
  return out;
}

/** The value arguments a `@BeanParam` class gathers (decorated fields and constructor parameters). */
function beanFields(p: ParameterDefinition): Array<{
  source: ParamMetadata['source'];
  name?: string;
  type?: ArgumentType;
  optional: boolean;
  defaultValue?: string;
  standard?: StandardSchemaV1;
}> {
  const type = p.type;
  if (typeof type !== 'function') return [];
  const meta = resolvedClassMetadata(type);
  const standard = meta.extensions.get(ARGUMENT_SCHEMAS) as ArgumentSchemas | undefined;
  const ctorTypes = designParamTypes(type, undefined) ?? [];
  const out = [];
  for (const [i, m] of meta.constructorParams)
    out.push({ ...m, type: m.explicitType ?? ctorTypes[i], optional: m.optional === true });
  for (const [key, m] of meta.fields)
    out.push({
      ...m,
      type: m.explicitType ?? designType(type.prototype, key),
      optional: m.optional === true,
      standard: standard?.get(key),
    });
  return out;
}

function typedDefault(value: string, schema: JsonSchema): unknown {
  if ((schema.type === 'number' || schema.type === 'integer') && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (schema.type === 'array') return value.split(',');
  return value;
}

function describeBody(d: RouteDefinition, schemas: SchemaRegistry): JsonSchema | undefined {
  const body = d.parameters.find((p) => p.source === 'body');
  const form = d.parameters.filter((p) => p.source === 'form');
  const standard = d.extensions.get(ARGUMENT_SCHEMAS) as ArgumentSchemas | undefined;
  const bodySchema = body !== undefined ? standard?.get(body.index) : undefined;
  if (body !== undefined && bodySchema !== undefined) {
    // `@Valid(schema)`: the schema's JSON Schema, a component like a class's.
    const schema = schemas.standardComponent(bodySchema, `${d.resourceClass.name}_${d.methodName}_body`);
    const content: JsonSchema = {};
    for (const type of d.consumes.length > 0 ? d.consumes : ['application/json']) content[type] = { schema };
    return { required: requiresValue(bodySchema), content };
  }
  if (body !== undefined) {
    const t = body.type;
    const bytes = t === Buffer || t === Uint8Array;
    const text = t === String;
    const types =
      d.consumes.length > 0
        ? d.consumes
        : [bytes ? 'application/octet-stream' : text ? 'text/plain' : 'application/json'];
    const schema = schemas.schemaFor(t);
    const content: JsonSchema = {};
    for (const type of types) content[type] = { schema };
    return { required: !body.optional, content };
  }
  if (form.length > 0) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const p of form) {
      if (p.name === undefined) continue;
      const fieldSchema = standard?.get(p.index);
      if (fieldSchema !== undefined) {
        properties[p.name] = schemas.standardSchema(fieldSchema);
        if (requiresValue(fieldSchema)) required.push(p.name);
        continue;
      }
      properties[p.name] = schemas.schemaFor(p.type === undefined || p.type === Object ? String : p.type);
      if (!p.optional && p.defaultValue === undefined) required.push(p.name);
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    const types = d.consumes.length > 0 ? d.consumes : ['application/x-www-form-urlencoded'];
    const content: JsonSchema = {};
    for (const type of types) content[type] = { schema };
    return { required: required.length > 0, content };
  }
  return undefined;
}
