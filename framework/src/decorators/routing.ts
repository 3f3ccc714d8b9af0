import { splitMediaTypes } from '../util/media-type-list';
import { classMetadata, methodMetadata } from '../metadata/store';
import type { HttpMethod } from '../metadata/types';
import { marker } from './decorator-forms';
import { errors } from '../errors/factories';

type ClassOrMethodDecorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void;

function classOrMethod(target: object, key: string | symbol | undefined, set: (meta: any) => void): void {
  if (key === undefined) set(classMetadata(target as Function));
  else set(methodMetadata(target, key));
}

/**
 * A prefix for every route of a class: `@ApplicationPath('/api/v1')` with `@Path('/users')` serves `/api/v1/users`.
 * Put it on a base class that REST classes extend to give a whole application one prefix (the reference
 * library reads it from base classes and interfaces alike; TypeScript interfaces leave nothing at run time).
 */
export function ApplicationPath(path: string): ClassDecorator {
  if (typeof path !== 'string' || path.trim().length === 0)
    throw errors.RU_ERR_DECORATOR_ARGUMENT(
      'rest.uws: @ApplicationPath takes a path prefix, e.g. @ApplicationPath("/api/v1")',
    );
  const prefix = `/${path.trim().replace(/^\/+|\/+$/g, '')}`;
  return (target) => {
    classMetadata(target).applicationPath = prefix === '/' ? '' : prefix;
  };
}

/** Root path on a class, or the path of a method (appended to the class path). */
export function Path(path: string): ClassOrMethodDecorator {
  if (typeof path !== 'string')
    throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @Path takes a path string, e.g. @Path("/users/{id}")');
  return (target, key) =>
    classOrMethod(target, key, (m) => {
      m.path = path;
    });
}

function httpMethod(method: HttpMethod) {
  return marker((target: object, key: string | symbol) => {
    const meta = methodMetadata(target, key);
    if (meta.httpMethod && meta.httpMethod !== method) meta.httpMethodConflict = method;
    meta.httpMethod = method;
  });
}

/** Marks a method as a `GET` route (bare `@GET` or `@GET()`); the method also needs `@Path`. It also answers HEAD requests, without the body. */
export const GET = httpMethod('GET');
/** Marks a method as a `POST` route (bare `@POST` or `@POST()`); the method also needs `@Path`. */
export const POST = httpMethod('POST');
/** Marks a method as a `PUT` route (bare `@PUT` or `@PUT()`); the method also needs `@Path`. */
export const PUT = httpMethod('PUT');
/** Marks a method as a `DELETE` route (bare `@DELETE` or `@DELETE()`); the method also needs `@Path`. */
export const DELETE = httpMethod('DELETE');
/** Marks a method as a `PATCH` route (bare `@PATCH` or `@PATCH()`); the method also needs `@Path`. */
export const PATCH = httpMethod('PATCH');
/** Marks a method as a `HEAD` route (bare `@HEAD` or `@HEAD()`); the method also needs `@Path`. Without one, HEAD is answered by the GET route. */
export const HEAD = httpMethod('HEAD');
/** Marks a method as an `OPTIONS` route (bare `@OPTIONS` or `@OPTIONS()`); the method also needs `@Path`. Without one, OPTIONS on a known path answers 204 with `Allow`. */
export const OPTIONS = httpMethod('OPTIONS');
/** Marks a method as a `TRACE` route (bare `@TRACE` or `@TRACE()`); the method also needs `@Path`. Without one, TRACE gets 405 or 404. */
export const TRACE = httpMethod('TRACE');

function shorthand(method: HttpMethod) {
  /** `@Get(path, consumes?, produces?)`: the HTTP method, `@Path` and optional `@Consumes`/`@Produces` in one. */
  return (path: string, consumes?: string | string[], produces?: string | string[]): MethodDecorator =>
    (target, key) => {
      const meta = methodMetadata(target, key);
      if (meta.httpMethod && meta.httpMethod !== method) meta.httpMethodConflict = method;
      meta.httpMethod = method;
      meta.path = path;
      if (consumes !== undefined) meta.consumes = toList(consumes);
      if (produces !== undefined) meta.produces = toList(produces);
    };
}

/** `@Get(path, consumes?, produces?)`: `@GET`, `@Path(path)` and optionally `@Consumes`/`@Produces` in one decorator. */
export const Get = shorthand('GET');
/** `@Post(path, consumes?, produces?)`: `@POST`, `@Path(path)` and optionally `@Consumes`/`@Produces` in one decorator. */
export const Post = shorthand('POST');
/** `@Put(path, consumes?, produces?)`: `@PUT`, `@Path(path)` and optionally `@Consumes`/`@Produces` in one decorator. */
export const Put = shorthand('PUT');
/** `@Delete(path, consumes?, produces?)`: `@DELETE`, `@Path(path)` and optionally `@Consumes`/`@Produces` in one decorator. */
export const Delete = shorthand('DELETE');
/** `@Patch(path, consumes?, produces?)`: `@PATCH`, `@Path(path)` and optionally `@Consumes`/`@Produces` in one decorator. */
export const Patch = shorthand('PATCH');
/** `@Head(path, consumes?, produces?)`: `@HEAD`, `@Path(path)` and optionally `@Consumes`/`@Produces` in one decorator. */
export const Head = shorthand('HEAD');
/** `@Options(path, consumes?, produces?)`: `@OPTIONS`, `@Path(path)` and optionally `@Consumes`/`@Produces` in one decorator. */
export const Options = shorthand('OPTIONS');
/** `@Trace(path, consumes?, produces?)`: `@TRACE`, `@Path(path)` and optionally `@Consumes`/`@Produces` in one decorator. */
export const Trace = shorthand('TRACE');

function toList(v: string | string[]): string[] {
  return splitMediaTypes(Array.isArray(v) ? v : [v]);
}

/** Media types a route (or a reader) accepts; `'a/b, c/d'` is a list too. */
export function Consumes(...mediaTypes: string[]): ClassOrMethodDecorator {
  const list = splitMediaTypes(mediaTypes);
  return (target, key) =>
    classOrMethod(target, key, (m) => {
      m.consumes = list;
    });
}

/** Media types a route (or a writer) produces, `'a/b, c/d'` a list too; a writer's first type becomes its Content-Type. */
export function Produces(...mediaTypes: string[]): ClassOrMethodDecorator {
  const list = splitMediaTypes(mediaTypes);
  return (target, key) =>
    classOrMethod(target, key, (m) => {
      m.produces = list;
    });
}

/** Order among routes with identical paths: lower runs first, default 0, negatives allowed. */
export function RouteOrder(order: number): MethodDecorator {
  if (!Number.isInteger(order)) throw errors.RU_ERR_DECORATOR_ARGUMENT('rest.uws: @RouteOrder takes an integer');
  return (target, key) => {
    methodMetadata(target, key).order = order;
  };
}

/**
 * Static response headers, each as "Name: value". On an endpoint, `Accept` entries replace `@Consumes`,
 * `Content-Type` replaces `@Produces`, the rest are added to every response of the route.
 */
export function Header(...headers: string[]): ClassOrMethodDecorator {
  for (const h of headers) {
    if (typeof h !== 'string' || h.indexOf(':') <= 0)
      throw errors.RU_ERR_DECORATOR_ARGUMENT(`rest.uws: @Header takes "Name: value" strings, got ${JSON.stringify(h)}`);
  }
  return (target, key) =>
    classOrMethod(target, key, (m) => {
      m.headers = [...(m.headers ?? []), ...headers];
    });
}
