import {
  errors,
  resolvedClassMetadata,
  type ComponentFactory,
  type RouteDefinition,
  type SettingsView,
  type WebSocketRoute,
} from '../../plugin';
import { API_MESSAGES, type ApiMessage, type ApiMessagesOptions } from './asyncapi-decorators';
import type { JsonSchema } from './constraint-keywords';
import { describeParameters } from './document-builder';
import { API_OPERATION, type ApiOperationOptions } from './openapi-decorators';
import { pathTemplate } from './path-template';
import { SchemaRegistry } from './schema-registry';
import { routeSecurityDoc } from './security-schemes';

/** A server of the AsyncAPI document (`servers.<name>`). */
export interface AsyncApiServer {
  /** `api.example.com` or `localhost:8080`. */
  host: string;
  /** `ws` or `wss`. */
  protocol: 'ws' | 'wss';
  /** A path prefix before the channels' addresses. */
  pathname?: string;
  /** What the server is (production, staging...). */
  description?: string;
}

/** The AsyncAPI document's `info`, servers and where it is served. */
export interface AsyncApiOptions {
  /** The API's title (`info.title`). */
  title: string;
  /** The API's version (`info.version`), not the AsyncAPI version. */
  version: string;
  /** A description of the API (`info.description`, CommonMark). */
  description?: string;
  /** Where the JSON document is served (default `/asyncapi.json`). */
  path?: string;
  /** `servers`, by name: `{ production: { host: 'api.example.com', protocol: 'wss' } }`. */
  servers?: Record<string, AsyncApiServer>;
  /** Named schemas added to `components.schemas`, for payloads no class describes; messages `$ref` them. */
  schemas?: Record<string, Record<string, unknown>>;
}

/** What an AsyncAPI document is built from: an app's WebSocket endpoints, settings and components. */
export interface AsyncApiSource {
  /** The endpoints to document, each with its upgrade's definition (its `open` arguments and security). */
  webSockets(): ReadonlyArray<{
    /** The endpoint as it was declared. */
    readonly route: WebSocketRoute;
    /** Its upgrade's definition. */
    readonly definition: RouteDefinition;
  }>;
  /** The app's settings (its authentication providers, for security schemes). */
  readonly settings: SettingsView;
  /** Makes the providers whose security schemes are described. */
  readonly components: Pick<ComponentFactory, 'get'>;
}

/** Checks the options of `asyncApi` and `asyncApiDocument`. */
export function checkAsyncApiOptions(options: AsyncApiOptions): void {
  if (options === null || typeof options !== 'object')
    throw errors.RU_ERR_ASYNCAPI('asyncApi takes { title, version, path?, servers? }');
  for (const key of ['title', 'version'] as const) {
    if (typeof options[key] !== 'string' || options[key].length === 0)
      throw errors.RU_ERR_ASYNCAPI(`asyncApi: ${key} must be a non-empty string`);
  }
  if (options.path !== undefined && (typeof options.path !== 'string' || !options.path.startsWith('/')))
    throw errors.RU_ERR_ASYNCAPI(`asyncApi: path must start with "/", got ${JSON.stringify(options.path)}`);
  for (const [name, server] of Object.entries(options.servers ?? {})) {
    if (!/^[A-Za-z0-9_-]+$/.test(name))
      throw errors.RU_ERR_ASYNCAPI(`asyncApi: server name ${JSON.stringify(name)} must be letters, digits, "_" or "-"`);
    if (server === null || typeof server !== 'object' || typeof server.host !== 'string' || server.host === '')
      throw errors.RU_ERR_ASYNCAPI(`asyncApi: servers.${name}.host must be a host name, e.g. "api.example.com"`);
    if (server.protocol !== 'ws' && server.protocol !== 'wss')
      throw errors.RU_ERR_ASYNCAPI(`asyncApi: servers.${name}.protocol must be "ws" or "wss"`);
  }
  for (const [name, schema] of Object.entries(options.schemas ?? {})) {
    if (!/^[A-Za-z0-9._-]+$/.test(name) || schema === null || typeof schema !== 'object')
      throw errors.RU_ERR_ASYNCAPI(
        `asyncApi: schemas.${name} must be a JSON Schema object named with letters, digits, ".", "_" or "-"`,
      );
  }
}

/** An OpenAPI security scheme as AsyncAPI 3 writes it (`apiKey` becomes `httpApiKey`). */
function asyncSecurityScheme(scheme: JsonSchema): JsonSchema {
  if (scheme.type === 'apiKey') {
    const out: JsonSchema = { type: 'httpApiKey', name: scheme.name, in: scheme.in };
    if (scheme.description !== undefined) out.description = scheme.description;
    return out;
  }
  return structuredClone(scheme);
}

/** An object schema of the parameters of one place (query, header), for the channel's `ws` binding. */
function bindingSchema(parameters: JsonSchema[], location: string): JsonSchema | undefined {
  const own = parameters.filter((p) => p.in === location);
  if (own.length === 0) return undefined;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of own) {
    properties[p.name as string] = p.schema as JsonSchema;
    if (p.required === true) required.push(p.name as string);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

/**
 * The AsyncAPI 3.0 document of the WebSocket endpoints `source` gives: a channel per endpoint (its address, path
 * variables as parameters, query and headers in the `ws` binding), its messages (`@ApiMessages`) with their payload
 * schemas, a `receive` and a `send` operation with the endpoint's security.
 */
export function buildAsyncApiDocument(source: AsyncApiSource, options: AsyncApiOptions): JsonSchema {
  const schemas = new SchemaRegistry();
  for (const [name, schema] of Object.entries(options.schemas ?? {}))
    schemas.components[name] = structuredClone(schema);
  const channels: Record<string, JsonSchema> = {};
  const operations: Record<string, JsonSchema> = {};
  const messages: Record<string, JsonSchema> = {};
  const securitySchemes: Record<string, JsonSchema> = {};

  const messageObject = (name: string, declared: ApiMessage): JsonSchema => {
    const m = typeof declared === 'function' ? { type: declared } : declared;
    const out: JsonSchema = { name };
    if (m.title !== undefined) out.title = m.title;
    if (m.description !== undefined) out.description = m.description;
    out.contentType = m.contentType ?? 'application/json';
    out.payload = m.type !== undefined ? schemas.schemaFor(m.type) : structuredClone(m.schema);
    if (m.examples !== undefined) out.examples = m.examples.map((payload) => ({ payload }));
    return out;
  };
  /** The component's key for a message: its name, or the endpoint's name before it when another one took it. */
  const componentKey = (channel: string, name: string, message: JsonSchema): string => {
    const same = (key: string) =>
      messages[key] !== undefined && JSON.stringify(messages[key]) === JSON.stringify(message);
    if (messages[name] === undefined || same(name)) return name;
    let key = `${channel}_${name}`;
    for (let i = 2; messages[key] !== undefined && !same(key); i++) key = `${channel}_${name}_${i}`;
    return key;
  };

  for (const { route, definition } of source.webSockets()) {
    const endpointClass = route.endpointClass;
    let channelId = endpointClass.name || 'WebSocket';
    for (let i = 2; channels[channelId] !== undefined; i++) channelId = `${endpointClass.name}${i}`;
    const declared = resolvedClassMetadata(endpointClass).extensions.get(API_MESSAGES) as
      | ApiMessagesOptions
      | undefined;
    const { template, patterns } = pathTemplate(definition.path);
    const parameters = describeParameters(definition, patterns, schemas);

    const channel: JsonSchema = { address: template };
    const texts = (definition.extensions.get(API_OPERATION) as ApiOperationOptions | undefined) ?? {};
    const description = declared?.description ?? texts.description;
    if (description !== undefined) channel.description = description;
    const pathParams = parameters.filter((p) => p.in === 'path');
    if (pathParams.length > 0) {
      channel.parameters = Object.fromEntries(
        pathParams.map((p) => {
          const schema = p.schema as JsonSchema;
          const param: JsonSchema = {};
          if (typeof schema.pattern === 'string') param.description = `Matches ${schema.pattern}`;
          if (Array.isArray(schema.enum)) param.enum = schema.enum.map(String);
          return [p.name as string, param];
        }),
      );
    }
    const ws: JsonSchema = { method: 'GET' };
    const query = bindingSchema(parameters, 'query');
    if (query !== undefined) ws.query = query;
    const headers = bindingSchema(parameters, 'header');
    if (headers !== undefined) ws.headers = headers;
    ws.bindingVersion = '0.1.0';
    channel.bindings = { ws };

    const channelMessages: Record<string, JsonSchema> = {};
    const sides: Record<'receive' | 'send', string[]> = { receive: [], send: [] };
    for (const side of ['receive', 'send'] as const) {
      for (const [name, message] of Object.entries(declared?.[side] ?? {})) {
        const object = messageObject(name, message);
        if (channelMessages[name] !== undefined)
          throw errors.RU_ERR_ASYNCAPI(
            `${route.where}: message ${JSON.stringify(name)} is both received and sent; give the two directions different names`,
          );
        const key = componentKey(channelId, name, object);
        messages[key] = object;
        channelMessages[name] = { $ref: `#/components/messages/${key}` };
        sides[side].push(name);
      }
    }
    if (Object.keys(channelMessages).length > 0) channel.messages = channelMessages;
    channels[channelId] = channel;

    const security = routeSecurityDoc(definition, source.settings, (p) => source.components.get(p));
    const securityRefs: JsonSchema[] = [];
    for (const [name, scheme] of Object.entries(security.schemes)) {
      securitySchemes[name] = asyncSecurityScheme(scheme);
      securityRefs.push({ $ref: `#/components/securitySchemes/${name}` });
    }
    for (const side of ['receive', 'send'] as const) {
      if (sides[side].length === 0 && side === 'send') continue;
      const operation: JsonSchema = {
        action: side,
        channel: { $ref: `#/channels/${channelId}` },
        summary:
          side === 'receive'
            ? `Messages ${channelId} receives from the client`
            : `Messages ${channelId} sends to the client`,
        messages: sides[side].map((name) => ({ $ref: `#/channels/${channelId}/messages/${name}` })),
      };
      if (securityRefs.length > 0) operation.security = securityRefs;
      operations[`${channelId}_${side}`] = operation;
    }
  }

  const info: JsonSchema = { title: options.title, version: options.version };
  if (options.description !== undefined) info.description = options.description;
  const doc: JsonSchema = { asyncapi: '3.0.0', info };
  if (options.servers !== undefined && Object.keys(options.servers).length > 0)
    doc.servers = structuredClone(options.servers);
  doc.defaultContentType = 'application/json';
  doc.channels = channels;
  doc.operations = operations;
  const components: JsonSchema = {};
  if (Object.keys(schemas.components).length > 0) components.schemas = schemas.components;
  if (Object.keys(messages).length > 0) components.messages = messages;
  if (Object.keys(securitySchemes).length > 0) components.securitySchemes = securitySchemes;
  if (Object.keys(components).length > 0) doc.components = components;
  return doc;
}
