import type { ValueReader } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import { ArgumentException } from '../errors/http-errors';
import { decodeComponent, findQueryValue, parseQueryString } from '../http/query-string';
import { GenericValueReader } from '../io/readers';
import { mediaEssence } from '../io/media-type';
import type { Provided } from '../io/registry';
import { designParamTypes, designType, resolvedClassMetadata } from '../metadata/store';
import type { ArgumentType, Constructor, ParamMetadata } from '../metadata/types';
import type { ProviderRegistration } from '../settings/settings';
import { checkReaderType, type ArgumentScope } from './argument-scope';
import { bodyResolver } from './body-argument';
import { assertArgumentType } from './decorator-metadata';
import { contextResolver, isThenable, providerFunction, type ValueResolver } from './context-values';
import { SignedCookieVerifier } from '../context/signed-cookies';
import { converterFor, emptyMeansAbsent, isArrayType, typeName } from '../io/value-conversion';
import { kParamValues } from '../http/internal';
import { errors } from '../errors/factories';

/** Form fields of the request, parsed once (urlencoded here; the multipart parser fills the same key). */
export const FORM_FIELDS = Symbol('rest.uws:form-fields');
const MATRIX = Symbol('rest.uws:matrix');

const DECORATOR_NAME: Record<string, string> = {
  path: 'PathParam',
  query: 'QueryParam',
  matrix: 'MatrixParam',
  cookie: 'CookieParam',
  header: 'HeaderParam',
  form: 'FormParam',
  body: 'BodyParam',
  bean: 'BeanParam',
  context: 'Context',
};

export type { ArgumentScope };

/** The declared type, with the explicit one from the decorator taking precedence. */
export function argumentType(meta: ParamMetadata, design: Function | undefined): ArgumentType | undefined {
  return meta.explicitType ?? design;
}

/** Compiles one argument into a resolver: all lookups happen here, once. */
export function compileArgument(
  meta: ParamMetadata,
  designTypeOf: Function | undefined,
  where: string,
  scope: ArgumentScope,
): ValueResolver {
  const type = argumentType(meta, designTypeOf);
  const decorator = `@${DECORATOR_NAME[meta.source]}${meta.name !== undefined ? `("${meta.name}")` : ''}`;
  assertArgumentType(meta, type, decorator, where);
  switch (meta.source) {
    case 'context': {
      const fallback = meta.defaultValue !== undefined ? contextDefault(meta.defaultValue, type, decorator) : undefined;
      return contextResolver(
        typeof type === 'function' ? type : undefined,
        meta.contextReader as ProviderRegistration | undefined,
        scope.settings,
        scope.components,
        fallback,
        meta.optional === true,
        scope.methodContextReader as ProviderRegistration | undefined,
      );
    }
    case 'body':
      return bodyResolver(meta, type, where, scope);
    case 'bean':
      return beanResolver(type, where, scope);
    default:
      return valueResolver(meta, type, decorator, where, scope);
  }
}

/**
 * A `@Context` default: read like a value (the conversion rules, then JSON), checked now. Objects are read
 * anew for each request that needs the default, so no request sees another's changes to it.
 */
function contextDefault(value: string, type: ArgumentType | undefined, decorator: string): () => unknown {
  const t = typeof type === 'function' ? type : undefined;
  const generic = new GenericValueReader();
  let converted: unknown;
  try {
    converted = generic.read(value, t);
  } catch (err) {
    throw errors.RU_ERR_DEFAULT_VALUE(
      `@DefaultValue("${value}") of ${decorator} cannot be converted: ${(err as Error).message}`,
    );
  }
  if (converted === null || typeof converted !== 'object') return () => converted;
  return () => generic.read(value, t);
}

/** Raw string(s) of a path/query/header/cookie/matrix/form value; undefined when absent. */
type RawSource = (ctx: RoutingContext) => string | string[] | undefined;

function rawSource(meta: ParamMetadata, many: boolean, scope: ArgumentScope, where: string): RawSource {
  const name = meta.name!;
  switch (meta.source) {
    case 'path': {
      const index = scope.pathParamNames.indexOf(name);
      if (index < 0) {
        throw errors.RU_ERR_UNKNOWN_PATH_PARAM(
          `${where}: @PathParam("${name}") names no variable of the path ${scope.routeText}`,
        );
      }
      return (ctx) => ctx.request[kParamValues][index];
    }
    case 'query':
      if (many)
        return (ctx) => (meta.raw ? ctx.request.parsedQuery().raw : ctx.request.parsedQuery().decoded).get(name);
      // Single values are read straight from the query string: no map is built for them.
      return meta.raw
        ? (ctx) => findQueryValue(ctx.request.query(), name)
        : (ctx) => {
            const query = ctx.request.query();
            if (query.length === 0) return undefined;
            if (query.indexOf('%') >= 0 || query.indexOf('+') >= 0)
              return ctx.request.parsedQuery().decoded.get(name)?.[0];
            return findQueryValue(query, name);
          };
    case 'header': {
      const lower = name.toLowerCase();
      return many
        ? (ctx) =>
            ctx.request
              .getHeader(lower)
              ?.split(',')
              .map((s) => s.trim())
        : (ctx) => ctx.request.getHeader(lower);
    }
    case 'cookie':
      return meta.signed === true ? signedCookie(name, scope, where) : (ctx) => ctx.request.getCookie(name);
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
      throw errors.RU_ERR_REGISTRATION(`${where}: unsupported argument source ${meta.source}`);
  }
}

/** A signed cookie's value: checked by the app's `SignedCookieVerifier`; a bad signature reads as no cookie. */
function signedCookie(name: string, scope: ArgumentScope, where: string): RawSource {
  const registered = scope.settings.contextProvider(SignedCookieVerifier);
  if (registered === undefined) {
    throw errors.RU_ERR_SIGNED_COOKIE_KEYS(
      `${where}: @CookieParam("${name}", { signed: true }) needs the app's signing keys: use(cookies({ keys: [...] }))`,
    );
  }
  const provide = providerFunction(registered, scope.components);
  return (ctx) => {
    const raw = ctx.request.getCookie(name);
    return raw === undefined ? undefined : (provide(ctx.request, ctx) as SignedCookieVerifier).verify(name, raw);
  };
}

function valueResolver(
  meta: ParamMetadata,
  type: ArgumentType | undefined,
  decorator: string,
  where: string,
  scope: ArgumentScope,
): ValueResolver {
  const many = isArrayType(type);
  const elementType = Array.isArray(type) ? type[0] : many ? String : type;
  const read = rawSource(meta, many, scope, where);
  const convert = valueConverter(meta, elementType, where, scope);
  const label = decorator;
  const missingMessage = `Missing ${decorator} for: ${scope.routeText}`;
  const fallback = meta.defaultValue;
  const optional = meta.optional === true;
  const decodesQuery = meta.source === 'query' && !meta.raw;
  // `?flag` and `?n=` give '': for a type '' cannot be, that is the value being absent.
  const dropsEmpty = emptyMeansAbsent(elementType);

  if (many) {
    return (ctx) => {
      let raw = read(ctx) as string[] | undefined;
      if (dropsEmpty && raw?.includes('')) raw = raw.filter((v) => v !== '');
      if (raw === undefined || raw.length === 0) {
        if (fallback !== undefined) raw = fallback.split(',');
        else if (optional) return [];
        else throw errors.RU_ERR_MISSING_ARGUMENT(missingMessage);
      }
      const out = raw.map((v) => convert(v, label, ctx));
      return out.some(isThenable) ? Promise.all(out) : out;
    };
  }
  return (ctx) => {
    let raw = read(ctx) as string | undefined;
    if (raw === undefined || (dropsEmpty && raw === '')) {
      if (fallback !== undefined) raw = fallback;
      else if (optional) return undefined;
      else throw errors.RU_ERR_MISSING_ARGUMENT(missingMessage);
    }
    if (decodesQuery && raw.indexOf('%') >= 0) raw = decodeComponent(raw);
    return convert(raw, label, ctx);
  };
}

/** A converter that may use a per-request reader (`@NoCache`, `@Context` fields). */
type RequestConverter = (value: string, label: string, ctx: RoutingContext) => unknown;

/**
 * Reader choice for a value: its own `@RequestReader`, a reader registered for its class type, then the
 * conversion rules. A method's (or class's) `@RequestReader` reads the body only, as in the reference library.
 * What a reader throws is passed on as it is: an ArgumentException or an HTTP error keeps its status, anything
 * else is a server error (500, logged, no message), the same as from a body reader.
 */
function valueConverter(
  meta: ParamMetadata,
  type: ArgumentType | undefined,
  where: string,
  scope: ArgumentScope,
): RequestConverter {
  const readerProvided = meta.reader ?? (typeof type === 'function' ? scope.settings.readerForType(type) : undefined);
  const t = typeof type === 'function' ? type : undefined;
  if (readerProvided !== undefined) {
    checkReaderType(readerProvided, type, where, scope);
    const reader = scope.components.accessor(readerProvided as Provided<ValueReader>);
    return (value, _label, ctx) => reader(ctx).read(value, t);
  }
  const convert = converterFor(type);
  if (convert) return convert;
  // The built-in reader's JSON: what it cannot parse is the client's mistake (400).
  const generic = new GenericValueReader();
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
  return errors.RU_ERR_CONVERSION(
    `Failed to convert value: '${value.length > 64 ? value.slice(0, 61) + '...' : value}' of ${label} to type: ${typeName(type)} (${(err as Error)?.message ?? err})`,
    { cause: err },
  );
}

/** `@BeanParam`: an object built from its class's decorated constructor parameters or fields. */
function beanResolver(type: ArgumentType | undefined, where: string, scope: ArgumentScope): ValueResolver {
  if (typeof type !== 'function' || type === Object) {
    throw errors.RU_ERR_BEAN_TYPE(`${where}: @BeanParam needs a class type`);
  }
  const meta = resolvedClassMetadata(type);
  const ctorTypes = designParamTypes(type, undefined) ?? [];
  const ctorResolvers: ValueResolver[] = [];
  for (let i = 0; i < type.length; i++) {
    const p = meta.constructorParams.get(i);
    if (!p)
      throw errors.RU_ERR_BEAN_PARAM(
        `${where}: constructor parameter ${i} of bean ${type.name} has no argument decorator`,
      );
    ctorResolvers.push(
      compileArgument(p, ctorTypes[i], `${where} bean ${type.name} constructor parameter ${i}`, scope),
    );
  }
  const fields: Array<[string | symbol, ValueResolver]> = [];
  for (const [key, p] of meta.fields) {
    fields.push([
      key,
      compileArgument(p, designType(type.prototype, key), `${where} bean ${type.name}.${String(key)}`, scope),
    ]);
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
function formFields(ctx: RoutingContext): Map<string, string[]> {
  let fields = ctx.get<Map<string, string[]>>(FORM_FIELDS);
  if (fields === undefined) {
    const type = ctx.request.getHeader('content-type');
    fields =
      type !== undefined && mediaEssence(type) === 'application/x-www-form-urlencoded'
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
