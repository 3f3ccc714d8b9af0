#!/usr/bin/env node
// Instructions of class-transformer's public per-property lookups (`findTypeMetadata` + `findTransformMetadatas`),
// counted by callgrind: what a body compiler that cannot list a class's @Type/@Transform properties up front would
// pay on every such key of every body (docs/architecture.md, "class-transformer's metadata maps" says why it matters).
// The probe warms the loop up (N keys), then instrumentation is switched on (for this process only) around N lookups, and the
// same loop without the lookups is counted the same way; the difference divided by N is printed (the least of three
// runs of each).
//
//   node benchmarks/tools/class-transformer-lookup-cost.js [--n 600000]
//
// Needs valgrind (apt-get install valgrind) and class-transformer (a devDependency of the framework).
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const args = process.argv.slice(2);
const at = args.indexOf('--n');
const N = at >= 0 ? Number(args[at + 1]) : 600_000;
const frameworkDir = path.resolve(__dirname, '..', '..', 'framework');

// The probe: an Order with a @Type and a @Transform property, asked about its own keys and keys it does not have.
const probe = `
require('reflect-metadata');
const { Type, Transform } = require('class-transformer');
const { defaultMetadataStorage: s } = require('class-transformer/cjs/storage');
class Item { sku = ''; quantity = 0; }
class Order { customer = ''; items = []; note = ''; }
Type(() => Item)(Order.prototype, 'items');
Transform(({ value }) => value)(Order.prototype, 'note');
const keys = ['customer', 'items', 'note', 'extra1', 'extra2', 'extra3'];
let hits = 0;
const lookups = (n) => {
  for (let i = 0; i < n; i++) {
    const key = keys[i % keys.length];
    if (s.findTypeMetadata(Order, key) !== undefined) hits++;
    if (s.findTransformMetadatas(Order, key, 1).length > 0) hits++;
  }
};
const loopOnly = (n) => {
  for (let i = 0; i < n; i++) if (keys[i % keys.length].length > 99) hits++;
};
const run = process.argv[1] === 'lookups' ? lookups : loopOnly;
run(${N});
process.stdout.write('ready\\n');
process.stdin.once('data', () => {
  run(${N});
  process.stdout.write('done ' + hits + '\\n');
  process.stdin.once('data', () => process.exit(0));
});
`;

function count(mode) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-lookups-'));
  const out = path.join(work, 'callgrind.out');
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, 'node', '-e', probe, mode],
    { cwd: frameworkDir, stdio: ['pipe', 'pipe', 'ignore'] },
  );
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      if (seen.includes('ready') && !seen.includes('go')) {
        seen += 'go';
        // Only this process: callgrind_control without a pid would switch every callgrind run of the machine.
        execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
        child.stdin.write('go\n');
      } else if (seen.includes('done') && !seen.includes('bye')) {
        seen += 'bye';
        execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
        child.stdin.write('bye\n');
      }
    });
    child.on('error', reject);
    child.on('exit', () => {
      let total = 0;
      for (const f of fs.readdirSync(work)) {
        const m = /^totals: (\d+)/m.exec(fs.readFileSync(path.join(work, f), 'utf8'));
        if (m) total += Number(m[1]);
      }
      fs.rmSync(work, { recursive: true, force: true });
      resolve(total);
    });
  });
}

// V8 may still be optimising the loop when counting starts (its compiler runs beside it): the least of three runs.
async function least(mode) {
  const counts = [];
  for (let i = 0; i < 3; i++) counts.push(await count(mode));
  return Math.min(...counts);
}

(async () => {
  const withLookups = await least('lookups');
  const loopOnly = await least('loop');
  if (withLookups === 0 || loopOnly === 0) throw new Error('no instructions counted (is valgrind installed?)');
  const perKey = (withLookups - loopOnly) / N;
  console.log(`${N} keys: ${withLookups} instructions with the lookups, ${loopOnly} without`);
  console.log(`class-transformer's public lookups: ${perKey.toFixed(0)} instructions per key`);
})();
