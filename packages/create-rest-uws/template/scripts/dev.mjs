// npm run dev: compiles src/ with SWC (scripts/swc.mjs), starts the server, and when a file of src/ changes,
// compiles that file and restarts the server. Runner processes (scripts/dev-runner.mjs) wait ahead with the
// dependencies loaded, so a restart loads only the app's own files: the new answer is served well under a second
// after the save. Two wait (loaded one after the other), so that two saves in quick succession each find one ready.
// Types are not checked here: `npm run typecheck` does, or `npm run dev -- --typecheck` runs tsc --watch beside the
// server. Ctrl-C stops everything.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, watch } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { compileAll, compileFile, removeOutput, root } from './swc.mjs';

const entry = path.join(root, 'dist', 'src', 'main.js');
const runnerScript = path.join(root, 'scripts', 'dev-runner.mjs');
const WAITING = 2;
const log = (message) => console.log(`[dev] ${message}`);
// --verbose also says when the runners are loaded (the dev loop's own measurement waits for it between edits).
const verbose = process.argv.includes('--verbose');

function spawnRunner() {
  const child = spawn(process.execPath, ['--enable-source-maps', runnerScript], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.ready = new Promise((resolve) => child.once('message', () => resolve(true)));
  void child.ready.then(() => {
    child.isReady = true;
    refill();
  });
  // A runner that dies waiting (its dependencies failed to load) is not handed the app.
  void child.exited.then(() => {
    const at = waiting.indexOf(child);
    if (at >= 0) waiting.splice(at, 1);
  });
  return child;
}

let server = null;
const waiting = [];
waiting.push(spawnRunner());
let checker = null;
/** Loads runners one at a time (two loading at once would each take twice as long) until two wait. */
function refill() {
  if (server !== null && !server.started) return; // not while the server starts
  if (waiting.some((child) => !child.isReady)) return;
  if (waiting.length < WAITING) waiting.push(spawnRunner());
  else if (verbose) log('ready for changes');
}

/** Serves the app from a waiting runner; the previous server stops listening at once and finishes its requests. */
async function restart(startedAt, what) {
  const ready = waiting.findIndex((child) => child.isReady);
  const next = waiting.splice(Math.max(ready, 0), 1)[0] ?? spawnRunner();
  server?.kill('SIGTERM');
  server = next;
  if ((await Promise.race([next.ready, next.exited.then(() => false)])) === false) {
    log(`the runner exited before the app could start (${await next.exited}); waiting for a change`);
    next.started = true;
    refill();
    return;
  }
  next.once('message', () => {
    next.started = true;
    log(`${what} in ${Math.round(performance.now() - startedAt)} ms`);
    // The next runners load once this server is up, not while it starts.
    refill();
  });
  void next.exited.then((how) => {
    if (server !== next) return;
    log(`the server exited (${how}); it starts again when a file of src/ changes`);
    next.started = true;
    refill();
  });
  next.send({ run: entry });
}

const startedAt = performance.now();
const count = compileAll(['src']);
await restart(startedAt, `compiled ${count} files and started`);

if (process.argv.includes('--typecheck')) {
  const require = createRequire(import.meta.url);
  const typescript = require.resolve('typescript/package.json');
  const tsc = path.join(path.dirname(typescript), require(typescript).bin.tsc);
  checker = spawn(process.execPath, [tsc, '--noEmit', '--watch', '--preserveWatchOutput'], { stdio: 'inherit' });
}

// Editors save in one write or several (or write a copy and rename it): changes are gathered for a moment, and
// rebuilds run one after the other.
const changed = new Set();
let firstChangeAt = 0;
let timer;
let queue = Promise.resolve();
function onChange(file) {
  if (!file.endsWith('.ts')) return;
  if (changed.size === 0) firstChangeAt = performance.now();
  changed.add(file);
  clearTimeout(timer);
  timer = setTimeout(() => (queue = queue.then(rebuild)), 10);
}

// Each folder of src/ is watched by itself, and a folder created later as it appears. Node's recursive watch on
// Linux follows files, and loses one for good once an editor saves it by writing a copy and renaming it over the
// file (JetBrains' safe write, vim, sed -i): later saves of it would go unseen. The files of a folder that appears
// are compiled: they may have been written before it was watched.
const watchers = new Map();
function watchFolder(folder, appeared = false) {
  if (watchers.has(folder)) return;
  const watcher = watch(folder, (_event, name) => {
    if (name === null) return;
    const file = path.join(folder, name.toString());
    if (isFolder(file)) watchFolder(file, true);
    else if (watchers.has(file)) unwatch(file);
    else onChange(file);
  });
  watchers.set(folder, watcher);
  // The folder was removed (or can no longer be read).
  watcher.on('error', () => unwatch(folder));
  let entries = [];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    // Removed as soon as it was made: its watcher's error unwatches it.
  }
  for (const entry of entries) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) watchFolder(file, appeared);
    else if (appeared) onChange(file);
  }
}
/** Stops watching a folder that is gone, and those under it. */
function unwatch(folder) {
  for (const [watchedFolder, watcher] of watchers)
    if (watchedFolder === folder || watchedFolder.startsWith(folder + path.sep)) {
      watcher.close();
      watchers.delete(watchedFolder);
    }
}
function isFolder(file) {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
watchFolder(path.join(root, 'src'));

async function rebuild() {
  if (changed.size === 0) return;
  const files = [...changed];
  const at = firstChangeAt;
  changed.clear();
  try {
    for (const file of files) {
      if (existsSync(file)) compileFile(file);
      else removeOutput(file);
    }
  } catch (err) {
    // A syntax error: say where, and keep the running server until the file compiles.
    console.error(`[dev] ${err.message ?? err}`);
    return;
  }
  await restart(at, `${files.map((file) => path.relative(root, file)).join(', ')} changed: restarted`);
}

const stop = () => {
  clearTimeout(timer);
  for (const child of [server, ...waiting, checker]) child?.kill('SIGTERM');
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
