// The transform `npm run dev` and `npm test` use: SWC compiles each TypeScript file to JavaScript in a few
// milliseconds, with the legacy decorators and the decorator metadata (design:paramtypes) rest.uws reads, as tsc
// writes them. It checks no types: `npm run typecheck` (tsc) does.
//   node scripts/swc.mjs src test     compiles every .ts file of those folders into dist/
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFileSync } from '@swc/core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const esm = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).type === 'module';

/** What tsconfig.json says, in SWC's words: ES2022, legacy decorators with their metadata, this package's modules. */
const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2022',
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    keepClassNames: true,
  },
  module: esm ? { type: 'es6' } : { type: 'commonjs', importInterop: 'node' },
  sourceMaps: true,
  swcrc: false,
  configFile: false,
};

/** Where a source file's JavaScript goes: src/app.ts -> dist/src/app.js, as tsc's outDir puts it. */
export function outputOf(file) {
  return path.join(root, 'dist', path.relative(root, file)).replace(/\.ts$/, '.js');
}

/**
 * Compiles one file (with its source map); throws SWC's error, which names the file, line and column. Synchronous:
 * a file takes about a millisecond, less than a hop to a worker thread.
 */
export function compileFile(file) {
  const out = outputOf(file);
  const { code, map } = transformFileSync(file, {
    ...options,
    filename: file,
    sourceFileName: path.relative(path.dirname(out), file),
  });
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(`${out}.map`, map);
  writeFileSync(out, `${code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
}

/** Removes what a deleted source file compiled to. */
export function removeOutput(file) {
  const out = outputOf(file);
  rmSync(out, { force: true });
  rmSync(`${out}.map`, { force: true });
}

/** The .ts files (not .d.ts) under a folder. */
export function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

/**
 * Compiles every file of the folders (relative to the project), and removes the JavaScript of source files that are
 * gone: a deleted or renamed test would otherwise still run, and a deleted module still be found by its importers.
 */
export function compileAll(folders) {
  const files = folders.flatMap((folder) => sourceFiles(path.join(root, folder)));
  for (const file of files) compileFile(file);
  const outputs = new Set(files.map(outputOf));
  for (const folder of folders) {
    const dist = path.join(root, 'dist', folder);
    if (!existsSync(dist)) continue;
    const compiled = readdirSync(dist, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    for (const entry of compiled) {
      const file = path.join(entry.parentPath ?? entry.path, entry.name);
      const js = file.replace(/\.js\.map$/, '.js');
      if (js.endsWith('.js') && !outputs.has(js)) rmSync(file, { force: true });
    }
  }
  return files.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    compileAll(process.argv.length > 2 ? process.argv.slice(2) : ['src', 'test']);
  } catch (err) {
    console.error(err.message ?? err);
    process.exit(1);
  }
}
