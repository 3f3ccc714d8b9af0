import type { ValueReader } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import type { Exchange } from './exchange';
import { FormValueReader, GenericValueReader, JsonValueReader, keepsParsedJson, parseJsonBody } from '../io/readers';
import { mediaEssence } from '../io/media-type';
import type { Provided } from '../io/registry';
import type { ArgumentType, ParamMetadata } from '../metadata/types';
import { checkReaderType, type ArgumentScope } from './argument-scope';
import type { ValueResolver } from './context-values';
import { kBody } from '../http/internal';
import { errors } from '../errors/factories';

/**
 * The request body: the parameter's `@RequestReader`, the method's (or class's), a reader registered for its
 * class type, then the reader of the request's media type (JSON without a Content-Type). An absent or empty
 * body is 400 unless the argument is optional or has a `@DefaultValue`, which is then read by the fixed reader
 * if there is one, else like a value (conversion rules, then JSON), each time anew (no object shared by requests).
 */
export function bodyResolver(
  meta: ParamMetadata,
  type: ArgumentType | undefined,
  where: string,
  scope: ArgumentScope,
): ValueResolver {
  const t = typeof type === 'function' ? type : undefined;
  const optional = meta.optional === true;
  const fixed =
    meta.reader ??
    scope.methodReader ??
    (t !== undefined && t !== Object ? scope.settings.readerForType(t) : undefined);
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
    if (
      consumes.length > 0 &&
      (essence === undefined ||
        !consumes.some((c) => c === essence || c === '*/*' || (c.endsWith('/*') && essence.startsWith(c.slice(0, -1)))))
    ) {
      throw errors.RU_ERR_UNSUPPORTED_MEDIA_TYPE(
        `Unsupported Content-Type ${essence ?? '(none)'} for ${scope.routeText}; expected ${consumes.join(', ')}`,
      );
    }
    if (essence === undefined) return jsonAccess;
    let reader = readers.get(essence);
    if (reader === undefined) {
      const provided = scope.settings.readerForMediaType(essence);
      if (provided === undefined) {
        if (essence.endsWith('+json')) return jsonAccess;
        throw errors.RU_ERR_UNSUPPORTED_MEDIA_TYPE(`Unsupported Content-Type ${essence} for ${scope.routeText}`);
      }
      // Cached by reader, not by media type: clients choose media types, and must not grow this map.
      reader = otherReaders.get(provided);
      if (reader === undefined)
        otherReaders.set(provided, (reader = scope.components.accessor(provided as Provided<ValueReader>)));
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
  const depthBoundedLater = parseOnly && scope.bodyDepthBounded;
  const plainJson = keepsParsedJson(t);
  const readDefault =
    meta.defaultValue !== undefined ? defaultBody(meta.defaultValue, t, fixedReader, where) : undefined;
  return (ctx) => {
    const body = ctx.request[kBody];
    if (body === undefined || body.length === 0) {
      if (readDefault !== undefined) return readDefault(ctx);
      if (optional) return undefined;
      throw errors.RU_ERR_MISSING_BODY(`Missing request body for: ${scope.routeText}`);
    }
    if (wantsBytes) return body;
    const reader = fixedReader !== undefined ? fixedReader(ctx) : readerFor(ctx.request.getHeader('content-type'), ctx);
    const readerClass = reader.constructor;
    if (readerClass === JsonValueReader) {
      ctx.bodyOrigin = parseOnly || plainJson ? 'json' : 'builtIn';
      if (parseOnly) return parseJsonBody(body.toString('utf8'), t, depthBoundedLater);
    } else {
      ctx.bodyOrigin = readerClass === FormValueReader ? 'builtIn' : 'other';
    }
    return reader.read(body.toString('utf8'), t);
  };
}

/** Reads a body's `@DefaultValue`; without a fixed reader it is checked now, so a bad default fails registration. */
function defaultBody(
  text: string,
  type: Function | undefined,
  fixedReader: ((ctx: RoutingContext) => ValueReader) | undefined,
  where: string,
): (ctx: Exchange) => unknown {
  if (fixedReader !== undefined) return (ctx) => fixedReader(ctx).read(text, type);
  const generic = new GenericValueReader();
  try {
    generic.read(text, type);
  } catch (err) {
    throw errors.RU_ERR_DEFAULT_VALUE(
      `${where}: @DefaultValue(${JSON.stringify(text)}) of the body cannot be read: ${(err as Error).message}`,
    );
  }
  return (ctx) => {
    ctx.bodyOrigin = 'builtIn';
    return generic.read(text, type);
  };
}
