import type { HttpMethod } from '../metadata/types';
import type { PathPattern } from './path-pattern';
import { pathSegments } from './path-segments';
import { MethodTable, type MethodMismatch, type RouteMatch, type RouteSlot, type Router } from './router';

/**
 * The simplest correct router: every pattern's regex in specificity order. Kept as the reference
 * the trie router is tested against, and as a baseline in the router benchmark.
 */
export class LinearRouter<T> implements Router<T> {
  /** Held to uWebSockets.js's matching by a property test (test/reliability/native-routing-properties.test.ts). */
  readonly matchesLikeUws: boolean = true;
  private tables: Array<MethodTable<T>> = [];

  /** Adds a route (see `Router.add`). */
  add(method: HttpMethod, pattern: PathPattern, route: T, order: number): RouteSlot<T> {
    let table = this.tables.find((t) => t.pattern.shape === pattern.shape);
    if (!table) {
      table = new MethodTable<T>(pattern);
      this.tables.push(table);
      this.tables.sort((a, b) => rank(a.pattern) - rank(b.pattern) || comparePatterns(a.pattern, b.pattern));
    }
    return table.add(method, pattern, route, order);
  }

  find(method: HttpMethod, requestPath: string): RouteMatch<T> | MethodMismatch | null {
    const segments = pathSegments(requestPath);
    const path = '/' + segments.join('/');
    let mismatch: MethodTable<T> | null = null;
    for (const table of this.tables) {
      const values = table.pattern.spansSegments
        ? table.pattern.regex.exec(path)?.slice(1)
        : matchSegments(table.pattern, segments);
      if (values === undefined) continue;
      const slot = table.get(method);
      if (slot === undefined) {
        mismatch ??= table;
        continue;
      }
      return { slot, values };
    }
    return mismatch ? { allowed: mismatch.allowed() } : null;
  }

  slots(): Iterable<RouteSlot<T>> {
    return this.tables.flatMap((t) => [...t.byMethod.values()]);
  }
}

/** Spanning patterns last, as in the trie router. */
function rank(p: PathPattern): number {
  return p.spansSegments ? 1 : 0;
}

/** Segment by segment: static before regex before plain variable (the trie's priority). */
function comparePatterns(a: PathPattern, b: PathPattern): number {
  const n = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const x = weight(a.segments[i]!.kind);
    const y = weight(b.segments[i]!.kind);
    if (x !== y) return x - y;
  }
  // Lexicographic over kinds, then length: a total order (patterns of different lengths never match one path).
  return a.segments.length - b.segments.length;
}

function weight(kind: string): number {
  return kind === 'static' ? 0 : kind === 'regex' ? 1 : 2;
}

/** Segment by segment, so a decoded `/` inside a segment stays inside it. */
function matchSegments(pattern: PathPattern, segments: readonly string[]): string[] | undefined {
  if (pattern.segments.length !== segments.length) return undefined;
  const values: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const p = pattern.segments[i]!;
    const s = segments[i]!;
    if (p.kind === 'static') {
      if (p.value !== s) return undefined;
    } else if (p.kind === 'param') {
      if (s.length === 0) return undefined;
      values.push(s);
    } else {
      const m = p.regex.exec(s);
      if (m === null) return undefined;
      values.push(...m.slice(1));
    }
  }
  return values;
}
