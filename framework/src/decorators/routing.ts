import { classMetadata, methodMetadata } from '../metadata/store';
import type { HttpMethod } from '../metadata/types';
import { marker } from './decorator-forms';

type ClassOrMethodDecorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void;

function classOrMethod(target: object, key: string | symbol | undefined, set: (meta: any) => void): void {
  if (key === undefined) set(classMetadata(target as Function));
  else set(methodMetadata(target, key));
}

/** Root path on a class, or the path of a method (appended to the class path). */
export function Path(path: string): ClassOrMethodDecorator {
  if (typeof path !== 'string') throw new TypeError('rest.uws: @Path takes a path string, e.g. @Path("/users/{id}")');
  return (target, key) => classOrMethod(target, key, (m) => { m.path = path; });
}

function httpMethod(method: HttpMethod) {
  return marker((target: object, key: string | symbol) => {
    const meta = methodMetadata(target, key);
    if (meta.httpMethod && meta.httpMethod !== method) meta.httpMethodConflict = method;
    meta.httpMethod = method;
  });
}

export const GET = httpMethod('GET');
export const POST = httpMethod('POST');
export const PUT = httpMethod('PUT');
export const DELETE = httpMethod('DELETE');
export const PATCH = httpMethod('PATCH');
export const HEAD = httpMethod('HEAD');
export const OPTIONS = httpMethod('OPTIONS');

function shorthand(method: HttpMethod) {
  /** `@Get(path, consumes?, produces?)`: the HTTP method, `@Path` and optional `@Consumes`/`@Produces` in one. */
  return (path: string, consumes?: string | string[], produces?: string | string[]): MethodDecorator => (target, key) => {
    const meta = methodMetadata(target, key);
    if (meta.httpMethod && meta.httpMethod !== method) meta.httpMethodConflict = method;
    meta.httpMethod = method;
    meta.path = path;
    if (consumes !== undefined) meta.consumes = toList(consumes);
    if (produces !== undefined) meta.produces = toList(produces);
  };
}

export const Get = shorthand('GET');
export const Post = shorthand('POST');
export const Put = shorthand('PUT');
export const Delete = shorthand('DELETE');
export const Patch = shorthand('PATCH');
export const Head = shorthand('HEAD');
export const Options = shorthand('OPTIONS');

function toList(v: string | string[]): string[] {
  return Array.isArray(v) ? [...v] : [v];
}

/** Media types a route (or a reader) accepts. */
export function Consumes(...mediaTypes: string[]): ClassOrMethodDecorator {
  return (target, key) => classOrMethod(target, key, (m) => { m.consumes = mediaTypes; });
}

/** Media types a route (or a writer) produces; a writer's first type becomes its Content-Type. */
export function Produces(...mediaTypes: string[]): ClassOrMethodDecorator {
  return (target, key) => classOrMethod(target, key, (m) => { m.produces = mediaTypes; });
}

/** Order among routes with identical paths: lower runs first, default 0, negatives allowed. */
export function RouteOrder(order: number): MethodDecorator {
  if (!Number.isInteger(order)) throw new TypeError('rest.uws: @RouteOrder takes an integer');
  return (target, key) => { methodMetadata(target, key).order = order; };
}

/**
 * Static response headers, each as "Name: value". On an endpoint, `Accept` entries replace `@Consumes`,
 * `Content-Type` replaces `@Produces`, the rest are added to every response of the route.
 */
export function Header(...headers: string[]): ClassOrMethodDecorator {
  for (const h of headers) {
    if (typeof h !== 'string' || h.indexOf(':') <= 0) throw new TypeError(`rest.uws: @Header takes "Name: value" strings, got ${JSON.stringify(h)}`);
  }
  return (target, key) => classOrMethod(target, key, (m) => { m.headers = [...(m.headers ?? []), ...headers]; });
}
