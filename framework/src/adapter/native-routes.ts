import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse, TemplatedApp } from 'uWebSockets.js';
import type { HttpMethod } from '../metadata/types';
import type { RouteHolder } from '../app/app-runtime';
import type { PathPattern } from '../routing/path-pattern';
import { mayOverlap } from '../routing/pattern-overlap';
import type { RouteMatch, RouteSlot } from '../routing/router';

/** Serves a request whose route is already known (the adapter's entry after the routing step). */
export type ServeMatched = (
  res: UwsResponse,
  req: UwsRequest,
  method: HttpMethod,
  url: string,
  match: RouteMatch<RouteHolder>,
) => void;
/** Serves a request through the JavaScript router. */
export type ServeRouted = (res: UwsResponse, req: UwsRequest) => void;

const NATIVE_METHOD: Partial<Record<HttpMethod, 'get' | 'post' | 'put' | 'del' | 'patch' | 'options' | 'trace'>> = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  DELETE: 'del',
  PATCH: 'patch',
  OPTIONS: 'options',
  TRACE: 'trace',
};
/** Segments uWebSockets.js matches literally: no `:` or `*` (its own pattern syntax), nothing a client would percent-encode. */
const LITERAL_SEGMENT = /^[A-Za-z0-9\-._~!$&'()+,=@]+$/;

/**
 * The pattern in uWebSockets.js's syntax (`/users/:v0`), or undefined when its router cannot express it:
 * regex or multi-variable segments, patterns spanning `/`, characters it reads differently.
 */
function nativePattern(pattern: PathPattern): string | undefined {
  if (pattern.spansSegments) return undefined;
  if (pattern.segments.length === 0) return '/';
  let out = '';
  let variables = 0;
  for (const segment of pattern.segments) {
    if (segment.kind === 'static' && LITERAL_SEGMENT.test(segment.value)) out += `/${segment.value}`;
    else if (segment.kind === 'param') out += `/:v${variables++}`;
    else return undefined;
  }
  return out;
}

/**
 * Children a node of uWebSockets.js's route tree may have. Its router tries a node's children one by one,
 * so 1,000 sibling routes (`/r0/items/{id}` ... `/r999/items/{id}`) cost raw uWebSockets.js about 3.5 µs a
 * request (scenario 6 of the benchmarks), where the JavaScript trie looks a segment up in a map. Routes that
 * would crowd a node past this stay with the JavaScript router.
 */
const MAX_NATIVE_SIBLINGS = 32;

/** A route with variables in uWebSockets.js's router, and whether a JavaScript-only route may claim its paths. */
interface NativeVariableRoute {
  readonly pattern: PathPattern;
  viaRouter: boolean;
}

/**
 * Gives routes their own uWebSockets.js routes where the answer is sure to be the same as the JavaScript
 * router's, so their requests skip it (and, for static paths, reading method and URL); the app's
 * catch-all `any('/*')` gets everything else.
 *
 * - Static paths win over every pattern in both routers: always native.
 * - Paths with plain variables (`/users/{id}`): both routers prefer static segments to variables, segment by
 *   segment, with backtracking (a property test holds them to it), so among native routes they agree. What
 *   uWebSockets.js does not know are the JavaScript-only routes of the same method (regex variables, patterns
 *   spanning `/`, ...): a native route that one of those may also match sends its requests to the JavaScript
 *   router, from the moment both exist.
 * - A node of uWebSockets.js's tree gets at most MAX_NATIVE_SIBLINGS children; routes beyond stay with the
 *   JavaScript router, as JavaScript-only routes.
 * - A request the JavaScript router would read differently (an empty, percent-encoded or matrix-parameter
 *   variable) goes to the JavaScript router too; HEAD and trailing slashes never reach native routes.
 */
export class NativeRoutes {
  private readonly seen = new Set<RouteSlot<RouteHolder>>();
  private readonly variableRoutes = new Map<HttpMethod, NativeVariableRoute[]>();
  private readonly routerOnly = new Map<HttpMethod, PathPattern[]>();
  /** Per method, the child keys (a static segment, or `:` for a variable) of each node of the native tree. */
  private readonly nativeTree = new Map<HttpMethod, Map<string, Set<string>>>();

  constructor(
    private readonly app: TemplatedApp,
    private readonly serveMatched: ServeMatched,
    private readonly serveRouted: ServeRouted,
  ) {}

  /** Registers a slot of the runtime's router (each once). */
  add(slot: RouteSlot<RouteHolder>): void {
    if (this.seen.has(slot)) return;
    this.seen.add(slot);
    const method = slot.method;
    const fn = NATIVE_METHOD[method];
    const pattern = fn === undefined ? undefined : nativePattern(slot.pattern);
    if (fn === undefined || pattern === undefined || !this.claimTreeNodes(method, slot.pattern)) {
      this.addRouterOnly(method, slot.pattern);
      return;
    }
    if (slot.pattern.isStatic) {
      const path = slot.pattern.normalized;
      const match: RouteMatch<RouteHolder> = { slot, values: [] };
      this.app[fn](path, (res, req) => this.serveMatched(res, req, method, path, match));
      return;
    }
    const route: NativeVariableRoute = { pattern: slot.pattern, viaRouter: false };
    for (const other of this.routerOnly.get(method) ?? []) if (mayOverlap(other, slot.pattern)) route.viaRouter = true;
    listFor(this.variableRoutes, method).push(route);
    const count = slot.pattern.paramNames.length;
    this.app[fn](pattern, (res, req) => {
      if (route.viaRouter) return this.serveRouted(res, req);
      // Sized at once: a push onto [] grows the array through a builtin call (0.05 µs per request, timed).
      const values = new Array<string>(count);
      for (let i = 0; i < count; i++) {
        const value = req.getParameter(i) as string | undefined; // v20.57's typings allow undefined
        if (value === undefined || value.length === 0 || value.indexOf('%') >= 0 || value.indexOf(';') >= 0)
          return this.serveRouted(res, req);
        values[i] = value;
      }
      this.serveMatched(res, req, method, req.getUrl(), { slot, values });
    });
  }

  /** Records the pattern's nodes in the method's native tree, unless that would crowd a node: then false. */
  private claimTreeNodes(method: HttpMethod, pattern: PathPattern): boolean {
    let tree = this.nativeTree.get(method);
    if (tree === undefined) this.nativeTree.set(method, (tree = new Map()));
    const path: Array<[string, string]> = [];
    let node = '';
    for (const segment of pattern.segments) {
      const child = segment.kind === 'static' ? segment.value : ':';
      const children = tree.get(node);
      if (children !== undefined && !children.has(child) && children.size >= MAX_NATIVE_SIBLINGS) return false;
      path.push([node, child]);
      node += `/${child}`;
    }
    for (const [parent, child] of path) {
      let children = tree.get(parent);
      if (children === undefined) tree.set(parent, (children = new Set()));
      children.add(child);
    }
    return true;
  }

  private addRouterOnly(method: HttpMethod, pattern: PathPattern): void {
    listFor(this.routerOnly, method).push(pattern);
    for (const route of this.variableRoutes.get(method) ?? [])
      if (mayOverlap(pattern, route.pattern)) route.viaRouter = true;
  }
}

function listFor<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (list === undefined) map.set(key, (list = []));
  return list;
}
