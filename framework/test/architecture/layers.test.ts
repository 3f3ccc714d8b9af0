import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { SRC, sourceFiles } from './source-files';

/**
 * The ladder of docs/architecture.md, bottom first: a folder of framework/src imports only folders on a
 * lower rung (never one above, never a sibling on its own rung). Type-only imports count too: they are
 * dependencies a reader must understand.
 */
const LADDER: readonly (readonly string[])[] = [
  ['util'],
  ['errors'],
  ['metadata'],
  ['decorators', 'routing', 'http'],
  ['context'],
  ['io'],
  ['settings'],
  ['pipeline'],
  // rest.uws/plugin: the plugin author's entry, which the features use; it imports no feature.
  ['plugin.ts'],
  ['features', 'app'],
  ['adapter'],
  ['builder'],
  ['server'],
  // The test helpers use the whole stack: inject dispatches through the adapter, connectWebSocket listens.
  ['testing'],
  ['index.ts'],
];

/** Relative module specifiers of a file: imports, re-exports, `declare module`, `import(...)`. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bdeclare\s+module\s+|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const m of text.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/** The top-level place of a file: its folder under src (features: `features/<name>`), or the root file's name. */
function placeOf(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  if (rel.length === 1) return rel[0]!;
  return rel[0] === 'features' ? `features/${rel[1]}` : rel[0]!;
}

function rung(place: string): number {
  const top = place.startsWith('features/') ? 'features' : place;
  const i = LADDER.findIndex((r) => r.includes(top));
  if (i < 0) throw new Error(`${place} is on no rung of the ladder: add it to LADDER (and to docs/architecture.md)`);
  return i;
}

function resolveImport(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate)) return candidate;
  return `${base}.ts`;
}

interface Edge {
  from: string;
  to: string;
  file: string;
  spec: string;
}

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
      const target = resolveImport(file, spec);
      const from = placeOf(file);
      const to = placeOf(target);
      if (from !== to) out.push({ from, to, file: path.relative(SRC, file), spec });
    }
  }
  return out;
}

function allowed(e: Edge): boolean {
  // A feature never imports another: what two features share is the core's (feature-imports.test.ts).
  if (e.from.startsWith('features/') && e.to.startsWith('features/')) return false;
  return rung(e.to) < rung(e.from);
}

test('every import of framework/src points down the ladder (none up, none across)', (t) => {
  const wrong = edges()
    .filter((e) => !allowed(e))
    .map((e) => `${e.file} imports ${e.spec} (${e.from} -> ${e.to})`);
  t.deepEqual(wrong, [], `imports against the ladder:\n${wrong.join('\n')}`);
});

test('no two top-level folders of framework/src import each other, directly or through others', (t) => {
  const graph = new Map<string, Set<string>>();
  for (const e of edges()) {
    const from = e.from.split('/')[0]!;
    const to = e.to.split('/')[0]!;
    if (from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  // Tarjan-free check: a folder is in a cycle when it can reach itself.
  const inCycle: string[] = [];
  for (const start of graph.keys()) {
    const seen = new Set<string>();
    const stack = [...(graph.get(start) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === start) {
        inCycle.push(start);
        break;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(graph.get(next) ?? []));
    }
  }
  t.deepEqual(inCycle, [], `folders in an import cycle: ${inCycle.join(', ')}`);
});

test('every feature folder has the same face: an index.ts, through which the rest of framework/src reaches it', (t) => {
  const features = fs
    .readdirSync(path.join(SRC, 'features'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  t.true(features.length >= 15);
  const withoutIndex = features.filter((name) => !fs.existsSync(path.join(SRC, 'features', name, 'index.ts')));
  t.deepEqual(withoutIndex, [], 'feature folders without an index.ts');
  // Outside features/, a feature is imported as a whole (its index), never by one of its inner files.
  const inner = edges()
    .filter((e) => !e.from.startsWith('features/') && e.to.startsWith('features/'))
    .filter((e) => path.relative(path.join(SRC, e.to), resolveImport(path.join(SRC, e.file), e.spec)) !== 'index.ts')
    .map((e) => `${e.file} imports ${e.spec}`);
  t.deepEqual(inner, [], "imports of a feature's inner files from outside features/");
});

test('the ladder test itself sees an import that points up', (t) => {
  // A guard against a checker that passes because it reads nothing.
  t.true(edges().length > 100);
  t.false(allowed({ from: 'http', to: 'adapter', file: 'http/x.ts', spec: '../adapter/x' }));
  t.false(allowed({ from: 'features/cors', to: 'features/security', file: 'features/cors/x.ts', spec: '../security' }));
  t.true(allowed({ from: 'adapter', to: 'app', file: 'adapter/x.ts', spec: '../app/x' }));
});
