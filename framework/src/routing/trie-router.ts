import type { HttpMethod } from '../metadata/types';
import type { PathPattern } from './path-pattern';
import { pathSegments, staticKey } from './path-segments';
import { MethodTable, type MethodMismatch, type RouteMatch, type RouteSlot, type Router } from './router';

class TrieNode<T> {
  statics: Map<string, TrieNode<T>> | null = null;
  /** Regex and multi-variable segments, tried before a plain variable, in registration order. */
  regexChildren: Array<{ source: string; regex: RegExp; node: TrieNode<T> }> | null = null;
  param: TrieNode<T> | null = null;
  table: MethodTable<T> | null = null;
}

/**
 * A segment trie: static segments by map lookup, then regex segments, then plain variables,
 * with backtracking. Whole static paths also sit in one map for an O(1) hit.
 * Patterns whose regex spans `/` are tried last, in registration order, against the whole path.
 */
export class TrieRouter<T> implements Router<T> {
  /** Held to uWebSockets.js's matching by a property test (test/reliability/native-routing-properties.test.ts). */
  readonly matchesLikeUws: boolean = true;
  private readonly root = new TrieNode<T>();
  private readonly staticPaths = new Map<string, MethodTable<T>>();
  private readonly spanning: Array<MethodTable<T>> = [];
  private readonly tables: Array<MethodTable<T>> = [];

  /** Adds a route (see `Router.add`). */
  add(method: HttpMethod, pattern: PathPattern, route: T, order: number): RouteSlot<T> {
    return this.tableFor(pattern).add(method, pattern, route, order);
  }

  private tableFor(pattern: PathPattern): MethodTable<T> {
    if (pattern.spansSegments) {
      let table = this.spanning.find((t) => t.pattern.shape === pattern.shape);
      if (!table) {
        table = new MethodTable<T>(pattern);
        this.spanning.push(table);
        this.tables.push(table);
      }
      return table;
    }
    let node = this.root;
    for (const seg of pattern.segments) {
      if (seg.kind === 'static') {
        node.statics ??= new Map();
        let next = node.statics.get(seg.value);
        if (!next) node.statics.set(seg.value, (next = new TrieNode<T>()));
        node = next;
      } else if (seg.kind === 'param') {
        node = node.param ??= new TrieNode<T>();
      } else {
        node.regexChildren ??= [];
        let child = node.regexChildren.find((c) => c.source === seg.source);
        if (!child)
          node.regexChildren.push((child = { source: seg.source, regex: seg.regex, node: new TrieNode<T>() }));
        node = child.node;
      }
    }
    if (!node.table) {
      node.table = new MethodTable<T>(pattern);
      this.tables.push(node.table);
      if (pattern.isStatic) this.staticPaths.set(pattern.normalized, node.table);
    }
    return node.table;
  }

  find(method: HttpMethod, path: string): RouteMatch<T> | MethodMismatch | null {
    // Most requests hit a static path: one map lookup, no splitting or decoding.
    const table = this.staticPaths.get(staticKey(path));
    if (table !== undefined) {
      const slot = table.get(method);
      if (slot !== undefined) return { slot, values: EMPTY_VALUES };
    }
    const segments = pathSegments(path);
    const search: Search<T> = { method, segments, values: [], mismatch: null };
    const slot = walk(this.root, 0, search);
    if (slot !== null) return { slot, values: search.values };
    if (this.spanning.length > 0) {
      const path = '/' + segments.join('/');
      for (const table of this.spanning) {
        const m = table.pattern.regex.exec(path);
        if (m === null) continue;
        const found = table.get(method);
        if (found === undefined) {
          search.mismatch ??= table;
          continue;
        }
        return { slot: found, values: m.slice(1) };
      }
    }
    return search.mismatch !== null ? { allowed: search.mismatch.allowed() } : null;
  }

  slots(): Iterable<RouteSlot<T>> {
    return this.tables.flatMap((t) => [...t.byMethod.values()]);
  }
}

const EMPTY_VALUES: string[] = [];

interface Search<T> {
  method: HttpMethod;
  segments: readonly string[];
  values: string[];
  /** First pattern that matched the path but not the method (for 405). */
  mismatch: MethodTable<T> | null;
}

function walk<T>(node: TrieNode<T>, i: number, s: Search<T>): RouteSlot<T> | null {
  if (i === s.segments.length) {
    const table = node.table;
    if (table === null) return null;
    const slot = table.get(s.method);
    if (slot === undefined) s.mismatch ??= table;
    return slot ?? null;
  }
  const seg = s.segments[i]!;
  if (node.statics !== null) {
    const next = node.statics.get(seg);
    if (next !== undefined) {
      const found = walk(next, i + 1, s);
      if (found !== null) return found;
    }
  }
  if (node.regexChildren !== null) {
    for (const child of node.regexChildren) {
      const m = child.regex.exec(seg);
      if (m === null) continue;
      const mark = s.values.length;
      for (let g = 1; g < m.length; g++) s.values.push(m[g]!);
      const found = walk(child.node, i + 1, s);
      if (found !== null) return found;
      s.values.length = mark;
    }
  }
  if (node.param !== null && seg.length > 0) {
    s.values.push(seg);
    const found = walk(node.param, i + 1, s);
    if (found !== null) return found;
    s.values.pop();
  }
  return null;
}
