import type { ValueReader } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import { ArgumentException, RegistrationError, UnsupportedMediaTypeException } from '../errors/http-errors';
import { decodeComponent, findQueryValue, parseQueryString } from '../http/query-string';
import { FormValueReader, GenericValueReader, JsonValueReader, keepsParsedJson, parseJsonBody } from '../io/readers';
import { mediaEssence } from '../io/media-type';
import type { Provided } from '../io/registry';
import { designParamTypes, designType, resolvedClassMetadata } from '../metadata/store';
import type { ArgumentType, Constructor, ParamMetadata } from '../metadata/types';
import type { ComponentFactory } from '../settings/components';
import type { ProviderRegistration, SettingsView } from '../settings/settings';
import { contextResolver, isThenable, thenOrNow, type ValueResolver } from './context-values';
import { converterFor, isArrayType, typeName, type Converter } from '../io/value-conversion';

/** Form fields of the request, parsed once (urlencoded here; the multipart parser fills the same key). */
export const FORM_FIELDS = Symbol('rest.uws:form-fields');
const MATRIX = Symbol('rest.uws:matrix');

/** What compiling an argument needs to know about its route. */
export interface ArgumentScope {
  label: string;
  routeText: string;
  pathParamNames: readonly string[];
  consumes: readonly string[];
  methodReader?: Constructor;
  methodContextReader?: Constructor;
  settings: SettingsView;
  components: ComponentFactory;
  suppressCheck: boolean;
  /** An extension (validation) turns this class-typed body into an instance itself when a built-in reader read it. */
  bodyInstantiated: boolean;
}

const DECORATOR_NAME: Record<string, string> = {
  path: 'PathParam', query: 'QueryParam', matrix: 'MatrixParam', cookie: 'CookieParam',
  header: 'HeaderParam', form: 'FormParam', body: 'BodyParam', bean: 'BeanParam', context: 'Context',
};

/** The declared type, with the explicit one from the decorator taking precedence. */
export function argumentType(meta: ParamMetadata, design: Function | undefined): ArgumentType | undefined {
  return meta.explicitType ?? design;
}

/** Compiles one argument into a resolver: all lookups happen here, once. */
export function compileArgument(meta: ParamMetadata, designTypeOf: Function | undefined, where: string, scope: ArgumentScope): ValueResolver {
  const type = argumentType(meta, designTypeOf);
  const decorator = `@${DECORATOR_NAME[meta.source]}${meta.name !== undefined ? `("${meta.name}")` : ''}`;
  switch (meta.source) {
    case 'context': {
      const fallback = meta.defaultValue !== undefined ? constantDefault(meta.defaultValue, type, decorator) : undefined;
      const reader = meta.contextReader ?? scope.methodContextReader;
      return contextResolver(typeof type === 'function' ? type : undefined, reader as ProviderRegistration | undefined, scope.settings, scope.components, fallback, meta.optional === true);
    }
    case 'body':
      return bodyResolver(meta, type, where, scope);
    case 'bean':
      return beanResolver(type, where, scope);
    default:
      return valueResolver(meta, type, decorator, where, scope);
  }
}

function constantDefault(value: string, type: ArgumentType | undefined, decorator: string): () => unknown {
  const convert = converterFor(type);
  if (!convert) return () => value;
  let converted: unknown;
  try {
    converted = convert(value, `${decorator} default`);
  } catch (err) {
    throw new RegistrationError(`@DefaultValue("${value}") of ${decorator} cannot be converted: ${(err as Error).message}`, 'RU_ERR_DEFAULT_VALUE');
  }
  return () => converted;
}

/** Raw string(s) of a path/query/header/cookie/matrix/form value; undefined when absent. */
type RawSource = (ctx: RoutingContext) => string | string[] | undefined;

function rawSource(meta: ParamMetadata, many: boolean, scope: ArgumentScope, where: string): RawSource {
  const name = meta.name!;
  switch (meta.source) {
    case 'path': {
      const index = scope.pathParamNames.indexOf(name);
      if (index < 0) {
        throw new RegistrationError(`${where}: @PathParam("${name}") names no variable of the path ${scope.routeText}`, 'RU_ERR_UNKNOWN_PATH_PARAM');
      }
      return (ctx) => ctx.request._paramValues[index];
    }
    case 'query':
      if (many) return (ctx) => (meta.raw ? ctx.request.parsedQuery().raw : ctx.request.parsedQuery().decoded).get(name);
      // Single values are read straight from the query string: no map is built for them.
      return meta.raw
        ? (ctx) => findQueryValue(ctx.request.query(), name)
        : (ctx) => {
            const query = ctx.request.query();
            if (query.length === 0) return undefined;
            if (query.indexOf('%') >= 0 || query.indexOf('+') >= 0) return ctx.request.parsedQuery().decoded.get(name)?.[0];
            return findQueryValue(query, name);
          };
    case 'header': {
      const lower = name.toLowerCase();
      return many
        ? (ctx) => ctx.request.getHeader(lower)?.split(',').map((s) => s.trim())
        : (ctx) => ctx.request.getHeader(lower);
    }
    case 'cookie':
      return (ctx) => ctx.request.getCookie(name);
    case 'matrix':
      return (ctx) => {
        const values = matrixParams(ctx).get(name);
        return many ? values : values?.[0];
      };
    case 'form':
      return (ctx) => {
        const values = formFields(ctx).get(name);
        if (values === undefined) return undefined;
        return many ? values : values[0];
      };
    default:
      throw new RegistrationError(`${where}: unsupported argument source ${meta.source}`);
  }
}

function valueResolver(meta: ParamMetadata, type: ArgumentType | undefined, decorator: string, where: string, scope: ArgumentScope): ValueResolver {
  const many = isArrayType(type);
  const elementType = Array.isArray(type) ? type[0] : many ? String : type;
  const read = rawSource(meta, many, scope, where);
  const convert = valueConverter(meta, elementType, where, scope);
  const label = decorator;
  const missingMessage = `Missing ${decorator} for: ${scope.routeText}`;
  const fallback = meta.defaultValue;
  const optional = meta.optional === true;
  const decodesQuery = meta.source === 'query' && !meta.raw;

  if (many) {
    return (ctx) => {
      let raw = read(ctx) as string[] | undefined;
      if (raw === undefined || raw.length === 0) {
        if (fallback !== undefined) raw = fallback.split(',');
        else if (optional) return [];
        else throw new ArgumentException(missingMessage, 'RU_ERR_MISSING_ARGUMENT');
      }
      const out = raw.map((v) => convert(v, label, ctx));
      return out.some(isThenable) ? Promise.all(out) : out;
    };
  }
  return (ctx) => {
    let raw = read(ctx) as string | undefined;
    if (raw === undefined) {
      if (fallback !== undefined) raw = fallback;
      else if (optional) return undefined;
      else throw new ArgumentException(missingMessage, 'RU_ERR_MISSING_ARGUMENT');
    }
    if (decodesQuery && raw.indexOf('%') >= 0) raw = decodeComponent(raw);
    return convert(raw, label, ctx);
  };
}

/** A converter that may use a per-request reader (`@NoCache`, `@Context` fields). */
type RequestConverter = (value: string, label: string, ctx: RoutingContext) => unknown;

/** Reader choice for a value: parameter reader, method reader, class-type reader, then conversion rules. */
function valueConverter(meta: ParamMetadata, type: ArgumentType | undefined, where: string, scope: ArgumentScope): RequestConverter {
  const readerProvided = meta.reader ?? scope.methodReader ?? (typeof type === 'function' ? scope.settings.readerForType(type) : undefined);
  if (readerProvided !== undefined) {
    checkReaderType(readerProvided, type, where, scope);
    const reader = scope.components.accessor(readerProvided as Provided<ValueReader>);
    const t = typeof type === 'function' ? type : undefined;
    return (value, label, ctx) => {
      try {
        const out = reader(ctx).read(value, t);
        return isThenable(out) ? Promise.resolve(out).catch((err) => { throw asArgumentError(err, value, label, type); }) : out;
      } catch (err) {
        throw asArgumentError(err, value, label, type);
      }
    };
  }
  const convert = converterFor(type);
  if (convert) return convert;
  const generic = new GenericValueReader();
  const t = typeof type === 'function' ? type : undefined;
  return (value, label) => {
    try {
      return generic.read(value, t);
    } catch (err) {
      throw asArgumentError(err, value, label, type);
    }
  };
}

function asArgumentError(err: unknown, value: string, label: string, type: ArgumentType | undefined): unknown {
  if (err instanceof ArgumentException || (err as any)?.status !== undefined) return err;
  return new ArgumentException(`Failed to convert value: '${value.length > 64 ? value.slice(0, 61) + '...' : value}' of ${label} to type: ${typeName(type)} (${(err as Error)?.message ?? err})`, 'RU_ERR_CONVERSION', err);
}

/** A reader declared with `@Handles(T)` must produce something assignable to the parameter type. */
function checkReaderType(reader: Provided<unknown>, type: ArgumentType | undefined, where: string, scope: ArgumentScope): void {
  if (scope.suppressCheck || typeof type !== 'function' || type === Object) return;
  const ctor = typeof reader === 'function' ? reader : (reader as object).constructor;
  const handles = resolvedClassMetadata(ctor).handles;
  if (handles === undefined || handles === type || handles.prototype instanceof type) return;
  throw new RegistrationError(
    `${where}: reader ${ctor.name} produces ${handles.name}, which cannot be assigned to the parameter type ${type.name} (fix the reader, or add @SuppressCheck to skip this check)`,
    'RU_ERR_READER_TYPE',
  );
}

function bodyResolver(meta: ParamMetadata, type: ArgumentType | undefined, where: string, scope: ArgumentScope): ValueResolver {
  const t = typeof type === 'function' ? type : undefined;
  const optional = meta.optional === true;
  const fixed = meta.reader ?? scope.methodReader ?? (t !== undefined && t !== Object ? scope.settings.readerForType(t) : undefined);
  if (fixed !== undefined) checkReaderType(fixed, type, where, scope);
  const fixedReader = fixed !== undefined ? scope.components.accessor(fixed as Provided<ValueReader>) : undefined;
  const consumes = scope.consumes.map(mediaEssence);
  const readers = new Map<string, (ctx: RoutingContext) => ValueReader>();
  for (const m of consumes) {
    const r = scope.settings.readerForMediaType(m);
    if (r !== undefined) readers.set(m, scope.components.accessor(r as Provided<ValueReader>));
  }
  const wantsBytes = t === Buffer || t === Uint8Array;
  const json = new JsonValueReader();
  const otherReaders = new Map<unknown, (ctx: RoutingContext) => ValueReader>();
  const jsonAccess = () => json;
  const accessFor = (contentType: string | undefined): ((ctx: RoutingContext) => ValueReader) => {
    const essence = contentType === undefined ? undefined : mediaEssence(contentType);
    if (consumes.length > 0 && (essence === undefined || !consumes.some((c) => c === essence || c === '*/*' || (c.endsWith('/*') && essence.startsWith(c.slice(0, -1)))))) {
      throw new UnsupportedMediaTypeException(`Unsupported Content-Type ${essence ?? '(none)'} for ${scope.routeText}; expected ${consumes.join(', ')}`);
    }
    if (essence === undefined) return jsonAccess;
    let reader = readers.get(essence);
    if (reader === undefined) {
      const provided = scope.settings.readerForMediaType(essence);
      if (provided === undefined) {
        if (essence.endsWith('+json')) return jsonAccess;
        throw new UnsupportedMediaTypeException(`Unsupported Content-Type ${essence} for ${scope.routeText}`);
      }
      // Cached by reader, not by media type: clients choose media types, and must not grow this map.
      reader = otherReaders.get(provided);
      if (reader === undefined) otherReaders.set(provided, (reader = scope.components.accessor(provided as Provided<ValueReader>)));
    }
    return reader;
  };
  // Clients of a route send the same Content-Type again and again: the last accepted one is remembered.
  let lastType: string | undefined;
  let lastAccess: ((ctx: RoutingContext) => ValueReader) | undefined;
  const readerFor = (contentType: string | undefined, ctx: RoutingContext): ValueReader => {
    if (contentType !== undefined && contentType === lastType) return lastAccess!(ctx);
    const access = accessFor(contentType);
    if (contentType !== undefined) {
      lastType = contentType;
      lastAccess = access;
    }
    return access(ctx);
  };
  // The JSON reader's shallow class copy is skipped when the route's validation builds the instance anyway.
  const parseOnly = scope.bodyInstantiated && t !== undefined;
  const plainJson = keepsParsedJson(t);
  return (ctx) => {
    const body = ctx.request._body;
    if (body === undefined || body.length === 0) {
      if (optional) return undefined;
      throw new ArgumentException(`Missing request body for: ${scope.routeText}`, 'RU_ERR_MISSING_BODY');
    }
    if (wantsBytes) return body;
    const reader = fixedReader !== undefined ? fixedReader(ctx) : readerFor(ctx.request.getHeader('content-type'), ctx);
    const readerClass = reader.constructor;
    if (readerClass === JsonValueReader) {
      ctx._bodyOrigin = parseOnly || plainJson ? 'json' : 'builtIn';
      if (parseOnly) return parseJsonBody(body.toString('utf8'), t);
    } else {
      ctx._bodyOrigin = readerClass === FormValueReader ? 'builtIn' : 'other';
    }
    return reader.read(body.toString('utf8'), t);
  };
}

/** `@BeanParam`: an object built from its class's decorated constructor parameters or fields. */
function beanResolver(type: ArgumentType | undefined, where: string, scope: ArgumentScope): ValueResolver {
  if (typeof type !== 'function' || type === Object) {
    throw new RegistrationError(`${where}: @BeanParam needs a class type`, 'RU_ERR_BEAN_TYPE');
  }
  const meta = resolvedClassMetadata(type);
  const ctorTypes = designParamTypes(type, undefined) ?? [];
  const ctorResolvers: ValueResolver[] = [];
  for (let i = 0; i < type.length; i++) {
    const p = meta.constructorParams.get(i);
    if (!p) throw new RegistrationError(`${where}: constructor parameter ${i} of bean ${type.name} has no argument decorator`, 'RU_ERR_BEAN_PARAM');
    ctorResolvers.push(compileArgument(p, ctorTypes[i], `${where} bean ${type.name} constructor parameter ${i}`, scope));
  }
  const fields: Array<[string | symbol, ValueResolver]> = [];
  for (const [key, p] of meta.fields) {
    fields.push([key, compileArgument(p, designType(type.prototype, key), `${where} bean ${type.name}.${String(key)}`, scope)]);
  }
  const Bean = type as Constructor<object> as new (...args: unknown[]) => object;
  return (ctx) => {
    const ctorValues = ctorResolvers.map((r) => r(ctx));
    const fieldValues = fields.map(([, r]) => r(ctx));
    const build = (cv: unknown[], fv: unknown[]) => {
      const bean = new Bean(...cv) as Record<string | symbol, unknown>;
      for (let i = 0; i < fields.length; i++) if (fv[i] !== undefined) bean[fields[i]![0]] = fv[i];
      return bean;
    };
    if (ctorValues.some(isThenable) || fieldValues.some(isThenable)) {
      return Promise.all([Promise.all(ctorValues), Promise.all(fieldValues)]).then(([cv, fv]) => build(cv, fv));
    }
    return build(ctorValues, fieldValues);
  };
}

/** Urlencoded form fields of the body, parsed once per request. */
export function formFields(ctx: RoutingContext): Map<string, string[]> {
  let fields = ctx.get<Map<string, string[]>>(FORM_FIELDS);
  if (fields === undefined) {
    const type = ctx.request.getHeader('content-type');
    fields = type !== undefined && mediaEssence(type) === 'application/x-www-form-urlencoded'
      ? parseQueryString(ctx.request.bodyAsString()).decoded
      : new Map();
    ctx.put(FORM_FIELDS, fields);
  }
  return fields;
}

/** `;name=value` parameters of every path segment, decoded. */
function matrixParams(ctx: RoutingContext): Map<string, string[]> {
  let params = ctx.get<Map<string, string[]>>(MATRIX);
  if (params === undefined) {
    params = new Map();
    for (const segment of ctx.request.path().split('/')) {
      const parts = segment.split(';');
      for (let i = 1; i < parts.length; i++) {
        const eq = parts[i]!.indexOf('=');
        const key = decodeComponent(eq < 0 ? parts[i]! : parts[i]!.slice(0, eq));
        const value = eq < 0 ? '' : decodeComponent(parts[i]!.slice(eq + 1));
        const list = params.get(key);
        if (list) list.push(value);
        else params.set(key, [value]);
      }
    }
    ctx.put(MATRIX, params);
  }
  return params;
}

export { thenOrNow };
