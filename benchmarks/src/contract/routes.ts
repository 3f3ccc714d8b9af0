/**
 * The routes every benchmark server serves, with the exact answers the runner checks before it
 * measures anything: a server that answers faster because it answers wrongly is never measured.
 */

/** Scenario 1: `GET /hello`. */
export const HELLO_PATH = '/hello';
export const HELLO_BODY = { message: 'Hello, World!' } as const;

/** Scenario 2: `GET /users/{id}?fields=a,b`; `id` is converted to an integer, `fields` split on commas. */
export const USER_ROUTE_PATH = '/users/:id';
export function userResponse(id: number, fields: string[]): { id: number; fields: string[] } {
  return { id, fields };
}

/** Scenario 3: `POST /orders`, a 1 KB JSON body validated and echoed with 201. */
export const ORDERS_PATH = '/orders';
/** Request bodies above this are refused with 413 by servers that read bodies by hand. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Scenario 4: `GET /static/1mb.bin`, streamed from disk on every request. */
export const STATIC_PREFIX = '/static';
export const STATIC_FILE_NAME = '1mb.bin';
export const STATIC_FILE_SIZE = 1024 * 1024;

/** Scenario 5: `GET /me` behind a Bearer token; a `profile.viewed` event fires after the response. */
export const ME_PATH = '/me';
export const BEARER_TOKEN = 'bench-token-5f3a9c1e';
export const BENCH_USER = { id: 'u-1', name: 'Ada Bench', roles: ['reader'] } as const;
export const PROFILE_VIEWED_EVENT = 'profile.viewed';
/** `GET /stats` tells how many `profile.viewed` events the listener has seen, so the runner can check it fired. */
export const STATS_PATH = '/stats';

/** Scenario 6: 1,000 parametric routes; the request goes to the last one registered. */
export const MANY_ROUTES_COUNT = 1000;
export function manyRoutePath(index: number): string {
  return `/r${index}/items/:id`;
}
export function manyRouteResponse(index: number, id: string): { route: number; id: string } {
  return { route: index, id };
}

/** The JSON error body servers send for 400/401/404/413; only the status is compared across servers. */
export interface ErrorBody {
  error: string;
}
