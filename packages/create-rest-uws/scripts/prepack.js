// npm pack / npm publish: builds first, incrementally. `tsc -b --force` rewrote every file on each pack, and a
// pack running beside it (the test suite packs this package from two test files at once) then read a file being
// rewritten: a tarball with an empty create-project.js. Forced only when an output is missing.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const packageDir = path.resolve(__dirname, '..');
const tsc = require.resolve('typescript/bin/tsc');
const build = (...flags) => {
  const built = spawnSync(process.execPath, [tsc, '-b', packageDir, ...flags], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
};
const missing = () =>
  fs
    .readdirSync(path.join(packageDir, 'src'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .filter((f) => !fs.existsSync(path.join(packageDir, 'dist', 'src', f.replace(/\.ts$/, '.js'))));
build();
// tsc -b trusts its build info: outputs deleted by hand are written again only when forced.
if (missing().length > 0) build('--force');
if (missing().length > 0) {
  console.error(`prepack: no compiled output for ${missing().join(', ')}`);
  process.exit(1);
}
