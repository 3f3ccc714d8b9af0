import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SRC, sourceFiles } from './source-files';

/**
 * No file of framework/src is in an import cycle with another: a reader can follow the imports down and meet each
 * file once, and a module never sees another half loaded. Type-only imports count too (they tie the files together
 * for a reader as much as any). layers.test.ts does the same between folders; this is the file level.
 */

/** Relative module specifiers of a file: imports, re-exports, `declare module`, `import(...)`, `require(...)`. */
function specifiers(text: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bdeclare\s+module\s+|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((m) => m[1]!);
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
}

/** The import graph of the files under `dir`: file -> the files it imports. */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const targets = specifiers(fs.readFileSync(file, 'utf8'))
      .map((spec) => resolveImport(file, spec))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself): the cycles (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Each cycle as the imports that close it: `a.ts -> b.ts` for every edge inside the component. */
function describe(graph: Map<string, string[]>, component: string[], root: string): string {
  const rel = (f: string) => path.relative(root, f);
  const edges = component.flatMap((f) =>
    (graph.get(f) ?? []).filter((w) => component.includes(w)).map((w) => `${rel(f)} -> ${rel(w)}`),
  );
  return edges.join(', ');
}

test('no file of framework/src is in an import cycle', (t) => {
  const graph = importGraph(SRC);
  t.true(graph.size > 150, `the sources were found (${graph.size})`);
  t.deepEqual(
    cycles(graph).map((c) => describe(graph, c, SRC)),
    [],
    'files in an import cycle: move what both need into a file of their own, or pass it in',
  );
});

test('the cycle finder finds a cycle of two files, and of three through a folder index', (t) => {
  const dir = fs.mkdtempSync(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cycles-')), 'src-'));
  try {
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport type A = B;\n");
    fs.writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a';\nexport type B = number;\n");
    fs.writeFileSync(path.join(dir, 'c.ts'), "export { d } from './sub';\n");
    fs.writeFileSync(path.join(dir, 'sub', 'index.ts'), "export * from './d';\n");
    fs.writeFileSync(path.join(dir, 'sub', 'd.ts'), "const c = require('../c');\nexport const d = 1;\n");
    fs.writeFileSync(path.join(dir, 'e.ts'), "import { a } from './a';\n");
    const graph = importGraph(dir);
    const found = cycles(graph)
      .map((c) => c.map((f) => path.relative(dir, f)).sort())
      .sort();
    t.deepEqual(found, [
      ['a.ts', 'b.ts'],
      ['c.ts', path.join('sub', 'd.ts'), path.join('sub', 'index.ts')],
    ]);
  } finally {
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
});
