#!/usr/bin/env node
// Starts every reference app (built by `npm start`'s prestart step) as a child process with the
// default, embedded configuration, prefixes their output, and stops them all on Ctrl-C / SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const apps = ['booking-api', 'content-graphql', 'voice-stream'];
// glibc malloc settings for voice-stream (an operator's value wins): its recognition workers free and load a
// 24 MB decoder per session; with these its RSS under the soak ran 35-45 MB lower (docs/reliability/long-load.md).
const appEnvironment = {
  'voice-stream': { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
};
const children = [];
let stopping = false;

/** Node flags an app asks for in its package.json (`config.nodeFlags`, also used by its own `npm start`). */
function nodeFlagsOf(app) {
  const flags = JSON.parse(readFileSync(join(root, app, 'package.json'), 'utf8')).config?.nodeFlags;
  return typeof flags === 'string' ? flags.split(/\s+/).filter(Boolean) : [];
}

for (const app of apps) {
  const main = join(root, app, 'dist', 'src', 'main.js');
  if (!existsSync(main)) {
    console.error(`[${app}] not built: ${main} is missing (run npx tsc -b)`);
    process.exitCode = 1;
    continue;
  }
  const env = { ...appEnvironment[app], ...process.env };
  const child = spawn(process.execPath, [...nodeFlagsOf(app), main, ...process.argv.slice(2)], {
    cwd: join(root, app),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (stream, out) => {
    let rest = '';
    stream.on('data', (d) => {
      const lines = (rest + d).split('\n');
      rest = lines.pop();
      for (const line of lines) out.write(`[${app}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    console.error(`[${app}] exited (${signal ?? code})`);
    if (!stopping) stop(code ?? 1);
  });
  children.push(child);
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r))))).then(() =>
    process.exit(code),
  );
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
