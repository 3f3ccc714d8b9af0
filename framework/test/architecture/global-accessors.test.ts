import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { SRC, sourceFiles } from './source-files';

/**
 * Node defines some of its globals as getters on the global object (`Buffer`, `performance`, `process`...), so
 * every read of the global name is a getter call through a generic global lookup, which V8 cannot fold into a
 * constant; the same binding imported from its module is a constant. On the request path `Buffer.allocUnsafe` (the
 * copy of each body chunk) cost 0.1 µs per request that way. Files that use these as values import them.
 */
const ACCESSOR_GLOBALS: ReadonlyArray<{ name: string; module: string; use: RegExp }> = [
  {
    name: 'Buffer',
    module: 'node:buffer',
    use: /(?<![A-Za-z_$.])Buffer\.(?!prototype)|instanceof Buffer\b|new Buffer\b/,
  },
  { name: 'performance', module: 'node:perf_hooks', use: /(?<![A-Za-z_$.])performance\./ },
];

/** Lines of code, comments left out (a doc comment may name `Buffer.concat`). */
function codeLines(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, ''));
}

test("Node's accessor globals are the Node. modules' exports, not global lookups, wherever framework code uses them", (t) => {
  for (const global of ACCESSOR_GLOBALS) {
    t.truthy(
      Object.getOwnPropertyDescriptor(globalThis, global.name)?.get,
      `${global.name} is still an accessor on this Node`,
    );
  }
  const missing: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    const lines = codeLines(text);
    for (const global of ACCESSOR_GLOBALS) {
      if (!lines.some((line) => global.use.test(line))) continue;
      const imported = new RegExp(`^import \\{[^}]*\\b${global.name}\\b[^}]*\\} from '${global.module}';`, 'm').test(
        text,
      );
      if (!imported)
        missing.push(`${path.relative(SRC, file)}: uses ${global.name} without importing it from ${global.module}`);
    }
  }
  t.deepEqual(missing, []);
});
