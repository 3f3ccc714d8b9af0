#!/usr/bin/env node
// What a read of a rest.uws export costs in an adopter's compiled code (`rest_uws_1.Response`, as tsc compiles
// `import { Response } from 'rest.uws'`), with the entry as it ships (util/constant-exports.ts: read-only data
// properties) and as tsc would leave it (`exports.X = void 0`, then a getter defined over each: V8 turns the object
// into a dictionary, and every read is a lookup and a call). docs/architecture.md, "The public entry's exports",
// says why the entry is handed out as constants.
//
//   npm run build && node benchmarks/tools/entry-export-reads.js [--n 20000000] [--runs 7]
//
// Each run times N reads of three exports in a loop, for each form in turn (interleaved); the median of the runs
// is printed as ns per read. Timed: run it on a quiet machine.
const path = require('node:path');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const N = option('--n', 20_000_000);
const RUNS = option('--runs', 7);

const shipped = require(path.resolve(__dirname, '..', '..', 'framework', 'dist', 'src', 'index.js'));

// The entry as tsc emits it for `export { X } from './x'`, over the same values.
function asTscEmitsIt(values) {
  const exports = {};
  Object.defineProperty(exports, '__esModule', { value: true });
  const keys = Object.keys(values).filter((k) => k !== '__esModule');
  for (const key of keys) exports[key] = void 0;
  const module_1 = { ...values };
  for (const key of keys)
    Object.defineProperty(exports, key, {
      enumerable: true,
      get: () => module_1[key],
    });
  return exports;
}
const tscForm = asTscEmitsIt(shipped);

// An adopter's hot code reads the entry per request; one function per form, so each keeps its own feedback.
const reader = () =>
  new Function(
    'rest_uws_1',
    'n',
    `let hits = 0;
     for (let i = 0; i < n; i++) {
       if (rest_uws_1.Response !== undefined) hits++;
       if (rest_uws_1.NotFoundException !== undefined) hits++;
       if (rest_uws_1.MediaType !== undefined) hits++;
     }
     return hits;`,
  );
const forms = [
  { name: 'constants (as shipped)', entry: shipped, read: reader(), ns: [] },
  { name: "tsc's getters", entry: tscForm, read: reader(), ns: [] },
];
for (const form of forms) form.read(form.entry, 1_000_000); // warm-up: optimised before timing

for (let run = 0; run < RUNS; run++) {
  for (const form of forms) {
    const start = process.hrtime.bigint();
    const hits = form.read(form.entry, N);
    const ns = Number(process.hrtime.bigint() - start);
    if (hits !== 3 * N) throw new Error(`${form.name}: an export read as undefined`);
    form.ns.push(ns / (3 * N));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const form of forms) console.log(`${form.name}: ${median(form.ns).toFixed(2)} ns per read (median of ${RUNS})`);
