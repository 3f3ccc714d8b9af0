// npm pack / npm publish: builds the framework first, so a tarball never ships without dist/ or with an old
// one, and removes compiled files whose source is gone (tsc -b leaves them behind after a move or a delete).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const frameworkDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const build = (...flags) => {
  const built = spawnSync(process.execPath, [tsc, '-b', frameworkDir, ...flags], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
};
build();
// tsc -b trusts its build info: outputs deleted by hand are not written again unless forced.
if (missingOutputs(path.join(frameworkDir, 'src')).length > 0) build('--force');
const missing = missingOutputs(path.join(frameworkDir, 'src'));
if (missing.length > 0) {
  console.error(`prepack: no compiled output for ${missing.join(', ')}`);
  process.exit(1);
}

const outputs = /\.(js|js\.map|d\.ts|d\.ts\.map)$/;
function removeStale(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removeStale(file);
      if (fs.readdirSync(file).length === 0) fs.rmdirSync(file);
      continue;
    }
    const source = path
      .join(frameworkDir, path.relative(path.join(frameworkDir, 'dist'), file))
      .replace(outputs, '.ts');
    if (outputs.test(entry.name) && !fs.existsSync(source)) fs.rmSync(file);
  }
}
removeStale(path.join(frameworkDir, 'dist', 'src'));

function missingOutputs(dir) {
  const missing = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) missing.push(...missingOutputs(file));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      const output = path.join(frameworkDir, 'dist', path.relative(frameworkDir, file)).replace(/\.ts$/, '.js');
      if (!fs.existsSync(output)) missing.push(path.relative(frameworkDir, file));
    }
  }
  return missing;
}
