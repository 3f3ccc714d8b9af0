/** The routes of an app as the corpus attacks them, read from the app's own OpenAPI document (rest.uws openApiDocument). */

// OpenAPI documents are plain JSON: read them loosely, as the corpus needs only a few of their fields.
type Json = any;

export interface CorpusRoute {
  /** Upper case: GET, POST... */
  readonly method: string;
  /** The path with `{name}` variables, as OpenAPI writes it. */
  readonly template: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  /** Header parameters the route declares, and the headers its security schemes read credentials from (lower case). */
  readonly headerParams: readonly string[];
  /** Media types the route reads its body as; undefined when it takes no body. */
  readonly body?: { readonly mediaTypes: readonly string[]; readonly schema?: Json };
  /** The document says the route needs credentials. */
  readonly secured: boolean;
  /** `METHOD template`: how samples and reports name the route. */
  readonly key: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * Every operation of an OpenAPI document; `extra` adds routes the document leaves out on purpose
 * (the document's own route, WebSocket upgrades, static folders), so the corpus still attacks them.
 */
export function routesFromOpenApi(document: Json, extra: readonly CorpusRoute[] = []): CorpusRoute[] {
  const routes: CorpusRoute[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const parameters: Json[] = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) =>
        resolve(document, parameter),
      );
      const names = (where: string) =>
        parameters.filter((parameter) => parameter.in === where).map((parameter) => String(parameter.name));
      const content = operation.requestBody ? (resolve(document, operation.requestBody).content ?? {}) : undefined;
      const mediaTypes = content ? Object.keys(content) : [];
      const security: Json[] | undefined = operation.security ?? document.security;
      routes.push({
        method: method.toUpperCase(),
        template,
        pathParams: names('path'),
        queryParams: names('query'),
        headerParams: [
          ...new Set([...names('header'), ...credentialHeaders(document, security)].map((name) => name.toLowerCase())),
        ],
        body: content
          ? { mediaTypes, schema: mediaTypes.length > 0 ? resolve(document, content[mediaTypes[0]].schema) : undefined }
          : undefined,
        secured: Array.isArray(security) && security.length > 0,
        key: `${method.toUpperCase()} ${template}`,
      });
    }
  }
  return [...routes, ...extra];
}

/** The headers the security requirements of a route read credentials from: `Authorization` (http schemes), an apiKey's header. */
function credentialHeaders(document: Json, security: Json[] | undefined): string[] {
  const headers: string[] = [];
  for (const requirement of Array.isArray(security) ? security : []) {
    for (const name of Object.keys(requirement ?? {})) {
      const scheme = resolve(document, document.components?.securitySchemes?.[name]);
      if (scheme?.type === 'http') headers.push('authorization');
      else if (scheme?.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string')
        headers.push(scheme.name);
    }
  }
  return headers;
}

/** A route the document does not list, described by hand. */
export function extraRoute(
  method: string,
  template: string,
  details: Partial<Omit<CorpusRoute, 'method' | 'template' | 'key'>> = {},
): CorpusRoute {
  const pathParams = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  return {
    pathParams,
    queryParams: [],
    headerParams: [],
    secured: false,
    ...details,
    method: method.toUpperCase(),
    template,
    key: `${method.toUpperCase()} ${template}`,
  };
}

function resolve(document: Json, node: Json, depth = 0): Json {
  if (node && typeof node === 'object' && typeof node.$ref === 'string' && depth < 20) {
    const target = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: Json, part: string) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    return resolve(document, target, depth + 1);
  }
  return node;
}

/**
 * A value that fits a JSON schema: required properties (all, when none are marked required) with the first enum value,
 * the minimum, or a plain word. For routes without a hand-made sample, so a new route is attacked with a body of its shape.
 */
export function exampleFromSchema(document: Json, schema: Json, depth = 0): unknown {
  const node = resolve(document, schema);
  if (!node || typeof node !== 'object' || depth > 8) return 'x';
  if (node.example !== undefined) return node.example;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if (node.const !== undefined) return node.const;
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    if (Array.isArray(node[key]) && node[key].length > 0) return exampleFromSchema(document, node[key][0], depth + 1);
  }
  const type = Array.isArray(node.type) ? node.type.find((candidate: string) => candidate !== 'null') : node.type;
  switch (type) {
    case 'object': {
      const properties: Record<string, Json> = node.properties ?? {};
      const required: string[] =
        Array.isArray(node.required) && node.required.length > 0 ? node.required : Object.keys(properties);
      return Object.fromEntries(
        required.map((name) => [name, exampleFromSchema(document, properties[name], depth + 1)]),
      );
    }
    case 'array': {
      const count = Math.max(1, Number(node.minItems ?? 1));
      return Array.from({ length: count }, () => exampleFromSchema(document, node.items, depth + 1));
    }
    case 'integer':
    case 'number':
      return Number(node.minimum ?? (node.exclusiveMinimum !== undefined ? Number(node.exclusiveMinimum) + 1 : 1));
    case 'boolean':
      return true;
    case 'string':
      if (node.format === 'date-time') return '2030-01-01T00:00:00Z';
      if (node.format === 'date') return '2030-01-01';
      if (node.format === 'email') return 'corpus@example.com';
      return 'x'.repeat(Math.max(1, Number(node.minLength ?? 1)));
    default:
      return node.properties ? exampleFromSchema(document, { ...node, type: 'object' }, depth + 1) : 'x';
  }
}
