/** Where the benchmark package's own folders are, from the compiled file (dist/src/paths.js). */
import * as path from 'node:path';

/** benchmarks/ */
export const BENCHMARKS_ROOT = path.resolve(__dirname, '..', '..');
/** The Lua scripts wrk runs. */
export const LUA_DIR = path.join(BENCHMARKS_ROOT, 'lua');
/** hyper-express and ultimate-express, installed apart by `npm run bench -- --setup` (see setup/peers.ts). */
export const PEERS_DIR = path.join(BENCHMARKS_ROOT, '.peers');
/** Generated fixtures: the 1 MB file. Not committed. */
export const DATA_DIR = path.join(BENCHMARKS_ROOT, '.data');
/** Raw results of runs (JSON), git-ignored. */
export const RESULTS_DIR = path.join(BENCHMARKS_ROOT, 'results');
/** Charts the report links to (committed with the doc). */
export const CHARTS_DIR = path.join(BENCHMARKS_ROOT, 'charts');
/** The repository root and the generated pages: the scenario runs' results, and the cost table. */
export const REPOSITORY_ROOT = path.resolve(BENCHMARKS_ROOT, '..');
export const DOC_PATH = path.join(REPOSITORY_ROOT, 'docs', 'benchmarks', 'results.md');
export const COSTS_DOC_PATH = path.join(REPOSITORY_ROOT, 'docs', 'benchmarks', 'costs.md');
/** TechEmpower's test types: the page, and the data files of its runs (one per machine type, committed). */
export const TECHEMPOWER_DOC_PATH = path.join(REPOSITORY_ROOT, 'docs', 'benchmarks', 'techempower.md');
export const TECHEMPOWER_DATA_DIR = path.join(RESULTS_DIR, 'techempower');
