import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The app's folders form a ladder and import only downwards: model (types and pure rules) <- storage (Kysely
// repositories, migrations, element queries) <- domain (the service's rules) <- graphql <- http <- the composition
// files at the top of src (config, app, server, content-service, main) <- cli <- index.ts (the package's exports).

const SRC = join(__dirname, '..', '..', 'src');
const RANKS: Record<string, number> = { model: 0, storage: 1, domain: 2, graphql: 3, http: 4, '.': 5, cli: 6 };
const rankOf = (file: string): number => {
  const path = relative(SRC, file);
  if (path === 'index.ts') return 7;
  const top = path.includes('/') ? path.split('/')[0]! : '.';
  if (!(top in RANKS)) throw new Error(`src/${path}: folder ${top} has no place in the ladder`);
  return RANKS[top]!;
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

test("every import between the app's folders points down the ladder", (t) => {
  const upward: string[] = [];
  const files = sources(SRC);
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), match[1]!) + '.ts';
      if (rankOf(target) > rankOf(file)) upward.push(`src/${relative(SRC, file)} imports ${match[1]}`);
    }
  }
  t.true(files.length > 50, 'the sources were found');
  t.deepEqual(upward, []);
});

test('no file of the app is in an import cycle (type-only imports count)', (t) => {
  const files = sources(SRC);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'(\.{1,2}\/[^']+)'/g)]
      .map((m) => resolve(dirname(file), m[1]!))
      .map((base) => [`${base}.ts`, join(base, 'index.ts')].find((f) => files.includes(f)))
      .filter((f): f is string => f !== undefined);
    graph.set(file, targets);
  }
  // A file is in a cycle when it can reach itself through its imports.
  const inCycle = files.filter((start) => {
    const seen = new Set<string>();
    const todo = [...graph.get(start)!];
    while (todo.length > 0) {
      const next = todo.pop()!;
      if (next === start) return true;
      if (!seen.has(next)) seen.add(next), todo.push(...graph.get(next)!);
    }
    return false;
  });
  t.deepEqual(
    inCycle.map((f) => `src/${relative(SRC, f)}`),
    [],
    'files in an import cycle: move what both need into a file of their own',
  );
});
