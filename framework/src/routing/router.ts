import type { HttpMethod } from '../metadata/types';
import type { PathPattern } from './path-pattern';

/** Routes registered on one pattern for one method, ordered by `@RouteOrder` then registration. */
export interface RouteSlot<T> {
  /** The compiled path pattern. */
  pattern: PathPattern;
  /** The HTTP method of these routes. */
  method: HttpMethod;
  /** The routes, in the order they run. */
  routes: T[];
}

/** What a path matched: the slot for the method and the variable values in pattern order. */
export interface RouteMatch<T> {
  /** The routes for the method. */
  slot: RouteSlot<T>;
  /** The path variables' values (still percent-encoded), in pattern order. */
  values: string[];
}

/** The path matched some pattern but none for this method: answer 405 with these methods. */
export interface MethodMismatch {
  /** The methods the path has routes for (the `Allow` header). */
  allowed: readonly string[];
}

/**
 * Finds the routes of a request. Implementations are interchangeable (one shared test suite runs
 * against each, and the benchmarks compare them); the adapter only sees this interface.
 */
export interface Router<T> {
  /** Adds a route; routes with the same method and pattern share a slot, sorted by `order` then insertion. */
  add(method: HttpMethod, pattern: PathPattern, route: T, order: number): RouteSlot<T>;
  /**
   * Routes for a request path as received (percent-encoded, maybe with matrix parameters).
   * Throws BadRequestException for malformed percent-encoding.
   */
  find(method: HttpMethod, path: string): RouteMatch<T> | MethodMismatch | null;
  /** Every slot, for OpenAPI and diagnostics. */
  slots(): Iterable<RouteSlot<T>>;
  /**
   * True when `find` answers as uWebSockets.js's own router does for paths of literal segments and plain
   * `{variables}`: static segments before variables, segment by segment, with backtracking. The adapter then gives
   * such routes native uWebSockets.js routes, whose requests skip `find` (docs/architecture.md, native routes). A
   * router that leaves it out, or a subclass that changes `find`, sets it false: every request then goes through
   * `find`.
   */
  readonly matchesLikeUws?: boolean;
}

/** Methods of one pattern: shared by both router implementations. */
export class MethodTable<T> {
  readonly byMethod = new Map<HttpMethod, RouteSlot<T>>();
  private allowCache: string[] | null = null;
  private readonly orders = new Map<T, { order: number; seq: number }>();
  private seq = 0;

  constructor(readonly pattern: PathPattern) {}

  add(method: HttpMethod, pattern: PathPattern, route: T, order: number): RouteSlot<T> {
    let slot = this.byMethod.get(method);
    if (!slot) {
      slot = { pattern, method, routes: [] };
      this.byMethod.set(method, slot);
    }
    this.orders.set(route, { order, seq: this.seq++ });
    slot.routes.push(route);
    slot.routes.sort((a, b) => {
      const x = this.orders.get(a)!;
      const y = this.orders.get(b)!;
      return x.order - y.order || x.seq - y.seq;
    });
    this.allowCache = null;
    return slot;
  }

  /** The slot for a method; HEAD falls back to GET. */
  get(method: HttpMethod): RouteSlot<T> | undefined {
    const slot = this.byMethod.get(method);
    if (slot !== undefined || method !== 'HEAD') return slot;
    return this.byMethod.get('GET');
  }

  allowed(): string[] {
    if (this.allowCache === null) {
      const set = new Set<string>(this.byMethod.keys());
      if (set.has('GET')) set.add('HEAD');
      set.add('OPTIONS');
      this.allowCache = [...set].sort();
    }
    return this.allowCache;
  }
}
