import { Response, statusText, type RouteDefinition } from '../../plugin';
import type { JsonSchema } from './constraint-keywords';
import { errorClassOf, type ErrorAnswer } from './error-responses';
import type { SourceHints } from './method-source';
import { API_RESPONSES, type ApiResponseOptions } from './openapi-decorators';
import type { SchemaRegistry } from './schema-registry';

type Declared = Array<[number | 'default', ApiResponseOptions]>;

/** `@ApiResponse`s of a route: the method's first, then the class's. */
function declaredResponses(d: RouteDefinition): Declared {
  const declared: Declared = [];
  const classLevel = d.classExtensions.get(API_RESPONSES) as Declared | undefined;
  const merged = d.extensions.get(API_RESPONSES) as Declared | undefined;
  if (merged !== undefined && merged !== classLevel) declared.push(...merged);
  if (classLevel !== undefined) declared.push(...classLevel);
  return declared;
}

function headersObject(headers: Readonly<Record<string, string>>): JsonSchema {
  const out: JsonSchema = {};
  for (const [name, description] of Object.entries(headers)) out[name] = { description, schema: { type: 'string' } };
  return out;
}

/** A documented response: description, body and headers. */
export function responseObject(
  description: string,
  content: JsonSchema | undefined,
  headers?: Readonly<Record<string, string>>,
): JsonSchema {
  const r: JsonSchema = { description };
  if (content !== undefined) r.content = content;
  if (headers !== undefined && Object.keys(headers).length > 0) r.headers = headersObject(headers);
  return r;
}

/**
 * What the return type says the body is: a class's schema, or nothing known (`Response`, `Promise`, an interface).
 * An event stream is text whatever the method returns (an `EventStream`, a generator): its class is no schema.
 */
function returnSchema(d: RouteDefinition, schemas: SchemaRegistry): JsonSchema {
  if (/^text\/event-stream\b/i.test(d.produces[0] ?? '')) return { type: 'string' };
  const rt = d.returnType;
  return rt === Response || rt === Promise || rt === Object || rt === undefined ? {} : schemas.schemaFor(rt);
}

/**
 * The responses a route gives itself: its `@ApiResponse`s; then, unless one of them is a success, the statuses
 * its code names (`Response.status(201)`, `Response.created(...)`), else what its return type says (`void`: 204).
 */
export function successResponses(
  d: RouteDefinition,
  hints: SourceHints,
  schemas: SchemaRegistry,
): Record<string, JsonSchema> {
  const produced = d.produces.length > 0 ? d.produces : ['application/json'];
  const responses: Record<string, JsonSchema> = {};
  for (const [status, o] of declaredResponses(d)) {
    const key = String(status);
    if (responses[key] !== undefined) continue;
    let content: JsonSchema | undefined;
    if (o.type !== undefined || o.schema !== undefined) {
      const item = o.schema !== undefined ? { ...o.schema } : schemas.schemaFor(o.type as Function);
      content = { [o.mediaType ?? produced[0]!]: { schema: o.isArray ? { type: 'array', items: item } : item } };
    }
    responses[key] = responseObject(
      o.description ?? (status === 'default' ? 'Any other answer' : statusText(status)),
      content,
      o.headers,
    );
  }
  if (Object.keys(responses).some((k) => k.startsWith('2'))) return responses;

  const named = hints.statuses.filter((s) => s < 400);
  if (named.length > 0) {
    for (const status of named) {
      if (responses[String(status)] !== undefined) continue;
      const content =
        status === 204 || status === 304 ? undefined : { [produced[0]!]: { schema: returnSchema(d, schemas) } };
      responses[String(status)] = responseObject(
        statusText(status),
        content,
        hints.withLocation.has(status) ? { Location: 'Where the resource is' } : undefined,
      );
    }
    return responses;
  }
  if (d.returnType === undefined && d.produces.length === 0) responses['204'] = { description: 'No Content' };
  else responses['200'] = responseObject('OK', { [produced[0]!]: { schema: returnSchema(d, schemas) } });
  return responses;
}

/** What the document knows of a route to tell which errors it can answer. */
export interface RouteFacts {
  /** Its documented parameters. */
  readonly parameters: readonly JsonSchema[];
  /** It reads a body (a body argument or form fields). */
  readonly readsBody: boolean;
  /** It needs credentials; it may refuse an authenticated user. */
  readonly secured: boolean;
  readonly mayForbid: boolean;
  /** The largest body the app takes, in bytes. */
  readonly bodyLimit: number;
}

/**
 * The errors the framework answers for a route, from what the route declares: 400 for arguments that can be
 * missing or wrong, 401/403 with security, 404 for a path variable with a pattern (a value that does not match
 * finds no route) or a `NotFoundException` in the method, 406 with `@Produces`, 413 and 415 with a body, and every
 * other HTTP error class of rest.uws the method throws.
 */
export function frameworkErrors(d: RouteDefinition, facts: RouteFacts, hints: SourceHints): ErrorAnswer[] {
  const out: ErrorAnswer[] = [];
  const add = (status: number, description: string, raised: ErrorAnswer['raised'] = 'route') =>
    out.push({ status, description, error: hints.thrown.get(status) ?? errorClassOf(status), raised });
  const inPath = facts.parameters.filter((p) => p.in === 'path');
  // A path variable that cannot be decoded is refused by the router; a value that fails conversion, a
  // constraint or a missing one, by the route.
  const failsInRoute =
    facts.readsBody ||
    hints.thrown.has(400) ||
    facts.parameters.some((p) => p.in !== 'path' || isCheckedInRoute(p.schema as JsonSchema));
  if (inPath.length > 0 || failsInRoute)
    add(
      400,
      'Bad request: a missing or invalid argument',
      inPath.length === 0 ? 'route' : failsInRoute ? 'both' : 'outside',
    );
  if (facts.secured) add(401, 'Unauthorized: no or invalid credentials');
  if (facts.mayForbid) add(403, 'Forbidden: the user may not do this');
  const patterned = inPath.filter((p) => typeof (p.schema as JsonSchema | undefined)?.pattern === 'string');
  if (hints.thrown.has(404)) add(404, 'Not found', patterned.length > 0 ? 'both' : 'route');
  else if (patterned.length > 0)
    add(404, `Not found: ${patterned.map((p) => `{${p.name}}`).join(', ')} does not match its pattern`, 'outside');
  if (d.produces.length > 0) add(406, 'Not acceptable: none of the Accept types is produced');
  if (facts.readsBody) {
    add(413, `Payload too large: the body is over ${facts.bodyLimit} bytes`, 'outside');
    add(415, "Unsupported media type: the body's Content-Type cannot be read");
  }
  for (const [status] of hints.thrown) if (!out.some((e) => e.status === status)) add(status, statusText(status));
  return out;
}

/** A path variable the route itself checks: converted to another type than a string, or constrained. */
function isCheckedInRoute(schema: JsonSchema | undefined): boolean {
  if (schema === undefined) return false;
  return schema.type !== 'string' || Object.keys(schema).some((k) => k !== 'type' && k !== 'pattern');
}
