import type { HttpResponseWriter } from '../context/contracts';
import type { RoutingContext } from '../context/routing-context';
import type { HttpServerResponse } from '../http/response';
import { Response } from '../http/response-entity';
import type { Provided } from '../io/registry';
import { GenericResponseWriter } from '../io/writers';
import type { RouteDefinition } from '../metadata/route-definition';
import { resolvedClassMetadata } from '../metadata/store';
import type { Constructor } from '../metadata/types';
import type { ComponentFactory } from '../settings/components';
import type { SettingsView } from '../settings/settings';
import { isThenable } from './context-values';
import type { Step } from './hooks';
import { addHeaderGroups, groupHeaders, splitHeaders, type HeaderGroup } from './header-lines';
import { kPutContentType } from '../http/internal';
import { checkHeader } from '../http/header-rules';
import { errors } from '../errors/factories';

/** A writer as the write step uses it: how to get it for a request, and what its class declares. */
interface WriterEntry {
  access: (ctx: RoutingContext) => HttpResponseWriter;
  /** The writer's `@Header` lines, added after the route's. */
  headers: HeaderGroup[];
  /** The writer's own Content-Type (`@Header('Content-Type: ...')`, else its first `@Produces`), used when the route negotiated none. */
  contentType: string | undefined;
}

const genericWriter = new GenericResponseWriter();
const GENERIC: WriterEntry = { access: () => genericWriter, headers: [], contentType: undefined };

function writerEntry(provided: Provided<HttpResponseWriter>, components: ComponentFactory): WriterEntry {
  const ctor = typeof provided === 'function' ? provided : (provided as object).constructor;
  const meta = resolvedClassMetadata(ctor);
  const lines = splitHeaders(meta.headers);
  const contentType = lines.produces?.[0] ?? meta.produces?.[0];
  return { access: components.accessor(provided), headers: groupHeaders(lines.response), contentType };
}

export interface ResultWriterScope {
  definition: RouteDefinition;
  /** `@ResponseWriter` of the method, else of the class. */
  writerClass: Constructor | undefined;
  settings: SettingsView;
  components: ComponentFactory;
  suppressCheck: boolean;
  where: string;
}

/**
 * The step that writes the method's result. Writer choice, in the reference library's order: the route's
 * `@ResponseWriter`, a writer registered for the result's class, the writer of the negotiated media type,
 * then the general writer. Headers, each name only when the response does not have it yet: the route's
 * `@Header`s, the Content-Type (negotiated, else the writer's own), then the writer's `@Header`s.
 */
export function compileResultWriter(scope: ResultWriterScope): Step {
  const { definition, writerClass, settings, components } = scope;
  if (writerClass !== undefined) checkWriterType(writerClass, definition.returnType, scope.where, scope.suppressCheck);
  const fixed =
    writerClass !== undefined ? writerEntry(writerClass as Provided<HttpResponseWriter>, components) : undefined;
  const mediaWriters = new Map<string, WriterEntry>();
  for (const p of definition.produces) {
    const w = settings.writerForMediaType(p);
    if (w !== undefined) mediaWriters.set(p, writerEntry(w as Provided<HttpResponseWriter>, components));
  }
  // Writers found for other media types, cached by writer (content types must not grow the map).
  const otherWriters = new Map<unknown, WriterEntry>();
  const typeWriters = settings.hasTypeWriters();
  const typeWriterCache = new Map<Function, WriterEntry | null>();
  const routeLines = splitHeaders(definition.headers).response;
  // A route that chooses among types by Accept answers differently per Accept: a shared cache must key on it.
  if (definition.produces.length > 1) routeLines.push(['Vary', 'Accept']);
  const routeHeaders = groupHeaders(routeLines);

  // The last media type found among the route's own writers, and its writer: the negotiated type is one of the
  // route's own strings, so the same one again costs a comparison, not a map lookup.
  let lastType: string | undefined;
  let lastWriter: WriterEntry = GENERIC;
  const writerFor = (value: unknown, contentType: string | undefined): WriterEntry => {
    if (fixed !== undefined) return fixed;
    if (typeWriters && value !== null && typeof value === 'object') {
      const ctor = (value as object).constructor;
      let w = typeWriterCache.get(ctor);
      if (w === undefined) {
        const provided = settings.writerForType(ctor);
        w = provided !== undefined ? writerEntry(provided as Provided<HttpResponseWriter>, components) : null;
        typeWriterCache.set(ctor, w);
      }
      if (w !== null) return w;
    }
    if (contentType !== undefined) {
      if (contentType === lastType) return lastWriter;
      let w = mediaWriters.get(contentType);
      if (w !== undefined) {
        lastType = contentType;
        lastWriter = w;
      } else {
        const provided = settings.writerForMediaType(contentType);
        if (provided !== undefined) {
          w = otherWriters.get(provided);
          if (w === undefined)
            otherWriters.set(provided, (w = writerEntry(provided as Provided<HttpResponseWriter>, components)));
        }
      }
      if (w !== undefined) return w;
    }
    return GENERIC;
  };

  return (ctx) => {
    const response = ctx.response;
    if (response.ended() || response.aborted()) return;
    let value = ctx.result;
    let contentType = ctx.contentType;
    if (value instanceof Response) {
      response.setStatusCode(value.status);
      putEntityHeaders(response, value.headers);
      // The type a method gives may carry what its request sent: checked as any header set per request is.
      if (value.type !== undefined) {
        checkHeader('content-type', value.type, 'content-type');
        contentType = value.type;
      }
      value = value.entity;
      if (value === undefined) {
        addHeaderGroups(response, routeHeaders);
        response.end();
        return;
      }
    } else if (value === undefined) {
      return; // Unended on purpose: the next route with the same path runs, or the chain ends it.
    }
    if (value === null && fixed === undefined) {
      if (!response.statusWasSet()) response.setStatusCode(204);
      addHeaderGroups(response, routeHeaders);
      response.end();
      return;
    }
    const entry = writerFor(value, contentType);
    addHeaderGroups(response, routeHeaders);
    const type = contentType ?? entry.contentType;
    if (type !== undefined && type !== '*/*') response[kPutContentType](type);
    if (entry.headers.length > 0) addHeaderGroups(response, entry.headers);
    const out = entry.access(ctx).write(value, ctx.request, response);
    if (isThenable(out)) {
      return Promise.resolve(out).then(() => {
        if (!response.ended()) response.end();
      });
    }
    if (!response.ended()) response.end();
  };
}

/**
 * A `Response`'s headers: each name replaces what the response had (CORS, earlier stages), and every value the
 * `Response` lists for it is sent; repeatable names (Set-Cookie, Vary...) keep earlier values too.
 */
function putEntityHeaders(response: HttpServerResponse, headers: ReadonlyArray<readonly [string, string]>): void {
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i]!;
    let repeated = false;
    const lower = name.toLowerCase();
    for (let j = 0; j < i && !repeated; j++) repeated = headers[j]![0].toLowerCase() === lower;
    if (repeated) response.appendHeader(name, value);
    else response.putHeader(name, value);
  }
}

/** A writer declared with `@Handles(T)` must accept the method's declared return type. */
function checkWriterType(
  writer: Constructor,
  returnType: Function | undefined,
  where: string,
  suppress: boolean,
): void {
  if (
    suppress ||
    returnType === undefined ||
    returnType === Object ||
    returnType === Promise ||
    returnType === Response
  )
    return;
  const handles = resolvedClassMetadata(writer).handles;
  if (handles === undefined || handles === returnType || returnType.prototype instanceof handles) return;
  throw errors.RU_ERR_WRITER_TYPE(
    `${where}: writer ${writer.name} writes ${handles.name}, but the method returns ${returnType.name} (fix the writer, or add @SuppressCheck to skip this check)`,
  );
}
