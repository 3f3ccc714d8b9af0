import { errors } from '../../plugin';
import { CLIENT_RUNTIME } from './client-runtime';
import { propertyKey, schemaType, typeName, type Schema } from './schema-types';

/** The documents a client is generated from: an app's OpenAPI 3.x and AsyncAPI 3.0 documents (either may be left out). */
export interface ClientDocuments {
  /** The OpenAPI document (`/openapi.json`): the HTTP operations. */
  openapi?: Record<string, unknown>;
  /** The AsyncAPI document (`/asyncapi.json`): the WebSocket channels. */
  asyncapi?: Record<string, unknown>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const LOCATIONS = [
  ['path', 'path'],
  ['query', 'query'],
  ['header', 'headers'],
  ['cookie', 'cookies'],
] as const;

function fail(why: string): never {
  throw errors.RU_ERR_CLIENT(`rest.uws client: ${why}`);
}

function isObject(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Resolves a local `$ref` (`#/components/...`) in `doc`. */
function resolve(doc: Schema, value: unknown): unknown {
  let current = value;
  for (let i = 0; isObject(current) && typeof current.$ref === 'string' && i < 20; i++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) fail(`only local $refs are followed, got ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), doc);
    if (current === undefined) fail(`${ref} does not resolve`);
  }
  return current;
}

/** The types of the schemas of one document's components, under names unique in the client. */
class TypeNames {
  readonly declarations: string[] = [];
  private readonly used = new Map<string, string>(); // type name -> schema JSON

  /** Declares every schema of `schemas`; returns how `$ref`s of that document are written. */
  declare(schemas: Record<string, unknown>): (ref: string) => string {
    const names = new Map<string, string>();
    for (const [name, schema] of Object.entries(schemas)) {
      const json = JSON.stringify(schema);
      let id = typeName(name);
      for (let i = 2; this.used.has(id) && this.used.get(id) !== json; i++) id = `${typeName(name)}${i}`;
      names.set(name, id);
    }
    const refs = (ref: string): string => {
      const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
      const name = m?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
      const id = name === undefined ? undefined : names.get(name);
      if (id === undefined) fail(`${ref} is not a schema of the document's components`);
      return id;
    };
    for (const [name, schema] of Object.entries(schemas)) {
      const id = names.get(name)!;
      if (this.used.has(id)) continue;
      this.used.set(id, JSON.stringify(schema));
      this.declarations.push(`export type ${id} = ${schemaType(schema, refs)};`);
    }
    return refs;
  }
}

interface Operation {
  group: string;
  name: string;
  id: string;
  method: string;
  path: string;
  bodyKind: string;
  args: string;
  argsRequired: boolean;
  result: string;
  summary?: string;
}

function bodyKindOf(mediaType: string): string {
  const t = mediaType.toLowerCase();
  if (/[/+]json$/.test(t)) return 'json';
  if (t === 'application/x-www-form-urlencoded') return 'form';
  if (t === 'multipart/form-data') return 'multipart';
  if (t.startsWith('text/')) return 'text';
  return 'bytes';
}

function bodyTypeOf(kind: string, schema: unknown, refs: (ref: string) => string): string {
  if (kind === 'json' || kind === 'form') return schemaType(schema, refs);
  if (kind === 'multipart') return 'Record<string, string | Blob | Array<string | Blob>>';
  if (kind === 'text') return 'string';
  return 'Blob | ArrayBuffer | Uint8Array | string';
}

/** The data of an answer: its JSON content's schema (the client asks for JSON first), else text or bytes. */
function answerDataType(content: unknown, refs: (ref: string) => string): string {
  if (!isObject(content) || Object.keys(content).length === 0) return 'undefined';
  const types = Object.keys(content);
  const json = types.find((t) => /[/+]json$/i.test(t));
  if (json !== undefined) return schemaType((content[json] as Schema)?.schema, refs);
  if (types.some((t) => /^text\//i.test(t))) return 'string';
  return 'Uint8Array';
}

function httpOperations(doc: Schema, names: TypeNames): Operation[] {
  const version = doc.openapi;
  if (typeof version !== 'string' || !/^3\./.test(version))
    fail(`the OpenAPI document must be OpenAPI 3.x (its "openapi" field), got ${JSON.stringify(version)}`);
  const components = isObject(doc.components) ? doc.components : {};
  const refs = names.declare(isObject(components.schemas) ? components.schemas : {});
  const out: Operation[] = [];
  const groups = new Map<string, Set<string>>();
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const id = typeof op.operationId === 'string' ? op.operationId : `${method}_${path}`;
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'default';
      const group = typeName(tag);
      let name = (id.startsWith(`${tag}_`) ? id.slice(tag.length + 1) : id).replace(/[^A-Za-z0-9_$]/g, '_');
      if (/^[0-9]/.test(name)) name = `_${name}`;
      const taken = groups.get(group) ?? new Set<string>();
      for (let i = 2; taken.has(name); i++) name = `${name}_${i}`;
      taken.add(name);
      groups.set(group, taken);

      const parts: string[] = [];
      let argsRequired = false;
      const parameters = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((p) =>
        resolve(doc, p),
      ) as Schema[];
      for (const [location, key] of LOCATIONS) {
        const own = parameters.filter((p) => p.in === location && typeof p.name === 'string');
        if (own.length === 0) continue;
        const required = own.some((p) => p.required === true);
        argsRequired ||= required;
        const members = own.map(
          (p) => `${propertyKey(p.name as string)}${p.required === true ? '' : '?'}: ${schemaType(p.schema, refs)}`,
        );
        parts.push(`${key}${required ? '' : '?'}: { ${members.join('; ')} }`);
      }
      let bodyKind = '';
      const requestBody = resolve(doc, op.requestBody);
      if (isObject(requestBody) && isObject(requestBody.content) && Object.keys(requestBody.content).length > 0) {
        const [mediaType, media] = Object.entries(requestBody.content)[0]!;
        bodyKind = bodyKindOf(mediaType);
        const required = requestBody.required === true;
        argsRequired ||= required;
        parts.push(`body${required ? '' : '?'}: ${bodyTypeOf(bodyKind, (media as Schema)?.schema, refs)}`);
      }

      const answers: string[] = [];
      for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        const r = resolve(doc, response);
        const data = answerDataType(isObject(r) ? r.content : undefined, refs);
        if (status === 'default' || !/^[1-5][0-9][0-9]$/.test(status)) answers.push(`Answer<number, boolean, ${data}>`);
        else answers.push(`Answer<${status}, ${Number(status) >= 200 && Number(status) < 300}, ${data}>`);
      }
      out.push({
        group,
        name,
        id,
        method: method.toUpperCase(),
        path,
        bodyKind,
        args: `{ ${parts.join('; ')} }`,
        argsRequired,
        result: answers.length > 0 ? answers.join(' | ') : 'Answer<number, boolean, unknown>',
        summary: typeof op.summary === 'string' ? op.summary : undefined,
      });
    }
  }
  return out;
}

interface Channel {
  name: string;
  address: string;
  args: string;
  argsRequired: boolean;
  receives: string; // what the client receives: the server's `send` messages
  sends: string; // what the client sends: the server's `receive` messages
  description?: string;
}

function channels(doc: Schema, names: TypeNames): Channel[] {
  if (typeof doc.asyncapi !== 'string' || !/^3\./.test(doc.asyncapi))
    fail(`the AsyncAPI document must be AsyncAPI 3.x (its "asyncapi" field), got ${JSON.stringify(doc.asyncapi)}`);
  const components = isObject(doc.components) ? doc.components : {};
  const refs = names.declare(isObject(components.schemas) ? components.schemas : {});
  const byChannel = new Map<string, { receive: Set<string>; send: Set<string> }>();
  for (const op of Object.values(isObject(doc.operations) ? doc.operations : {})) {
    if (!isObject(op) || (op.action !== 'send' && op.action !== 'receive')) continue;
    const channelRef = isObject(op.channel) ? op.channel.$ref : undefined;
    if (typeof channelRef !== 'string') continue;
    const entry = byChannel.get(channelRef) ?? { receive: new Set(), send: new Set() };
    byChannel.set(channelRef, entry);
    for (const m of Array.isArray(op.messages) ? op.messages : [])
      if (isObject(m) && typeof m.$ref === 'string') entry[op.action].add(m.$ref);
  }
  const payloads = (messageRefs: Set<string> | undefined) => {
    const types = [...(messageRefs ?? [])].map((ref) => {
      const message = resolve(doc, { $ref: ref });
      return isObject(message) ? schemaType(message.payload, refs) : 'unknown';
    });
    return types.length === 0 ? 'never' : [...new Set(types)].join(' | ');
  };
  const out: Channel[] = [];
  for (const [id, channel] of Object.entries(isObject(doc.channels) ? doc.channels : {})) {
    if (!isObject(channel) || typeof channel.address !== 'string') continue;
    const parts: string[] = [];
    let argsRequired = false;
    const pathNames = Object.keys(isObject(channel.parameters) ? channel.parameters : {});
    if (pathNames.length > 0) {
      argsRequired = true;
      parts.push(`path: { ${pathNames.map((n) => `${propertyKey(n)}: string | number`).join('; ')} }`);
    }
    const ws = isObject(channel.bindings) && isObject(channel.bindings.ws) ? channel.bindings.ws : {};
    for (const [key, schema] of [
      ['query', ws.query],
      ['headers', ws.headers],
    ] as const) {
      if (!isObject(schema)) continue;
      const required = Array.isArray(schema.required) && schema.required.length > 0;
      argsRequired ||= required;
      parts.push(`${key}${required ? '' : '?'}: ${schemaType(schema, refs)}`);
    }
    parts.push('protocols?: string[]');
    const sides = byChannel.get(`#/channels/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    out.push({
      name: typeName(id),
      address: channel.address,
      args: `{ ${parts.join('; ')} }`,
      argsRequired,
      receives: payloads(sides?.send),
      sends: payloads(sides?.receive),
      description: typeof channel.description === 'string' ? channel.description : undefined,
    });
  }
  return out;
}

function comment(text: string | undefined, indent: string): string {
  if (text === undefined || text.trim() === '') return '';
  return `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n`;
}

/**
 * Generates a typed client, as TypeScript source, from an app's OpenAPI and AsyncAPI documents: a type per schema,
 * `createClient(options)` with a method per operation (grouped by its first tag, named by its operationId) and a
 * `connect` per WebSocket channel (under `ws`). The source imports nothing.
 */
export function generateClient(documents: ClientDocuments): string {
  if (documents === null || typeof documents !== 'object') fail('generateClient takes { openapi?, asyncapi? }');
  if (documents.openapi === undefined && documents.asyncapi === undefined)
    fail('generateClient needs an OpenAPI document, an AsyncAPI document, or both');
  const names = new TypeNames();
  const operations = documents.openapi !== undefined ? httpOperations(documents.openapi, names) : [];
  const sockets = documents.asyncapi !== undefined ? channels(documents.asyncapi, names) : [];
  const title = (d: Record<string, unknown> | undefined) => {
    const info = isObject(d?.info) ? d!.info : {};
    return `${String(info.title ?? '')} ${String(info.version ?? '')}`.trim();
  };

  const lines: string[] = [];
  lines.push('// A typed client of ' + (title(documents.openapi) || title(documents.asyncapi) || 'an app') + '.');
  lines.push('// Generated by rest.uws (npx rest-uws client) from the OpenAPI and AsyncAPI documents: do not edit.');
  lines.push('/* eslint-disable */');
  lines.push('');
  lines.push('// ---- Schemas ----');
  lines.push(...names.declarations);
  lines.push('');
  lines.push('// ---- Operations: arguments and answers ----');
  for (const op of operations) {
    lines.push(`export type ${typeName(op.group)}_${op.name}_Args = ${op.args};`);
    lines.push(`export type ${typeName(op.group)}_${op.name}_Result = ${op.result};`);
  }
  for (const ch of sockets) {
    lines.push(`export type ${ch.name}_Args = ${ch.args};`);
    lines.push(`/** What the server sends on ${ch.address}. */`);
    lines.push(`export type ${ch.name}_ServerMessage = ${ch.receives};`);
    lines.push(`/** What the client sends on ${ch.address}. */`);
    lines.push(`export type ${ch.name}_ClientMessage = ${ch.sends};`);
  }
  lines.push(CLIENT_RUNTIME);
  lines.push('// ---- The client ----');
  lines.push('');
  lines.push('/** A client of the app: a method per operation, grouped by tag; WebSocket channels under `ws`. */');
  lines.push('export function createClient(options: ClientOptions) {');
  lines.push('  return {');
  const groups = new Map<string, Operation[]>();
  for (const op of operations) groups.set(op.group, [...(groups.get(op.group) ?? []), op]);
  for (const [group, ops] of groups) {
    lines.push(`    ${propertyKey(group)}: {`);
    for (const op of ops) {
      const t = `${typeName(op.group)}_${op.name}`;
      lines.push(comment(op.summary ?? `${op.method} ${op.path}`, '      ').trimEnd());
      lines.push(
        `      ${propertyKey(op.name)}: (args${op.argsRequired ? '' : '?'}: ${t}_Args): Promise<${t}_Result> =>`,
        `        call(options, ${JSON.stringify(op.method)}, ${JSON.stringify(op.path)}, ${JSON.stringify(op.bodyKind)}, args),`,
      );
    }
    lines.push('    },');
  }
  if (sockets.length > 0) {
    lines.push('    ws: {');
    for (const ch of sockets) {
      lines.push(`      ${propertyKey(ch.name)}: {`);
      lines.push(comment(ch.description ?? `WebSocket ${ch.address}`, '        ').trimEnd());
      lines.push(
        `        connect: (args${ch.argsRequired ? '' : '?'}: ${ch.name}_Args): Promise<TypedSocket<${ch.name}_ServerMessage, ${ch.name}_ClientMessage>> =>`,
        `          connect(options, ${JSON.stringify(ch.address)}, args),`,
      );
      lines.push('      },');
    }
    lines.push('    },');
  }
  lines.push('  };');
  lines.push('}');
  lines.push('');
  lines.push('/** The type of a client of this app. */');
  lines.push('export type Client = ReturnType<typeof createClient>;');
  return `${lines
    .filter((l) => l !== '')
    .join('\n')
    .replace(/\n\/\/ ----/g, '\n\n// ----')}\n`;
}
