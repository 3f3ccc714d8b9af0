// Measures the dev loop of a new project, as a user meets it: packs rest.uws and create-rest-uws from this
// repository, creates a project in a temporary folder, installs it, starts `npm run dev`, then edits a source file
// five times and times each save until the server answers with the change. Prints each time, the median and the
// machine.
//   node packages/create-rest-uws/scripts/measure-dev-loop.mjs [--edits 5] [--pause-ms 500] [--keep]
// Before each edit it waits until the dev loop says its runners are loaded (`npm run dev -- --verbose`), then
// --pause-ms more; it prints how long the loading took after each restart (the pace of edits the loop keeps up
// with). --keep leaves the project folder for a look.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    edits: { type: 'string', default: '5' },
    'pause-ms': { type: 'string', default: '500' },
    keep: { type: 'boolean', default: false },
  },
});
const edits = Number(values.edits);
const pauseMs = Number(values['pause-ms']);
const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-uws-dev-loop-'));
const say = (line) => console.log(line);

/** The environment of the nested npm: no variables of an enclosing npm run, which would point it back here. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || /^npm_config_(cache|registry)$/i.test(key)),
);
const npm = (args, cwd) => execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One GET on a fresh connection: the body, or undefined when nothing answers at this instant (between two servers). */
function get(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve(body));
      response.on('error', () => resolve(undefined));
    });
    request.on('error', () => resolve(undefined));
  });
}

/** GETs until the body holds `expected`; the time since `since`. */
async function timeUntilServed(url, expected, since) {
  for (;;) {
    if ((await get(url))?.includes(expected)) return performance.now() - since;
    await sleep(5);
  }
}

let dev;
try {
  say(`packing rest.uws and create-rest-uws into ${workspace}`);
  const packed = JSON.parse(
    npm(['pack', '-w', 'rest.uws', '-w', 'create-rest-uws', '--pack-destination', workspace, '--json'], repository),
  );
  const tarball = (name) => path.join(workspace, packed.find((p) => p.name === name).filename);
  npm(
    [
      'exec',
      '--yes',
      `--package=${tarball('create-rest-uws')}`,
      '--',
      'create-rest-uws',
      'dev-loop-api',
      '--rest-uws',
      tarball('rest.uws'),
    ],
    workspace,
  );
  const project = path.join(workspace, 'dev-loop-api');
  say('npm install');
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], project);

  const port = await freePort();
  const output = [];
  dev = spawn('npm', ['run', 'dev', '--', '--verbose'], {
    cwd: project,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let readyLines = 0;
  let onReady = () => undefined;
  for (const stream of [dev.stdout, dev.stderr])
    stream.on('data', (chunk) => {
      const text = chunk.toString('utf8');
      output.push(text);
      readyLines += text.split('[dev] ready for changes').length - 1;
      onReady();
    });
  /** Resolves once the dev loop has said it is ready more than `seen` times. */
  const readyAfter = (seen) =>
    new Promise((resolve) => {
      onReady = () => readyLines > seen && resolve();
      onReady();
    });
  const url = `http://127.0.0.1:${port}/todos/999`;
  const startedAt = performance.now();
  await timeUntilServed(url, 'No todo 999', startedAt);
  say(`npm run dev served its first answer after ${Math.round(performance.now() - startedAt)} ms`);

  // Each edit changes the text of the 404 the URL answers: the change is seen only once the new code serves it.
  const source = path.join(project, 'src', 'todo.ts');
  const original = fs.readFileSync(source, 'utf8');
  const times = [];
  let servedAt = performance.now();
  for (let i = 1; i <= edits; i++) {
    await readyAfter(i - 1);
    if (i > 1) say(`  the runners were loaded again ${Math.round(performance.now() - servedAt)} ms after that answer`);
    await sleep(pauseMs);
    const marker = `edit ${i}`;
    const saved = performance.now();
    fs.writeFileSync(source, original.replace('super(`No todo ${id}`);', `super(\`No todo \${id} (${marker})\`);`));
    const ms = await timeUntilServed(url, `(${marker})`, saved);
    times.push(ms);
    servedAt = performance.now();
    say(`edit ${i}: the new answer was served ${Math.round(ms)} ms after the save`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const cpu = os.cpus();
  say(`\nmedian of ${edits} edits: ${Math.round(median)} ms (each: ${times.map((t) => Math.round(t)).join(', ')} ms)`);
  say(
    `machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, Node ${process.version}, ${os.platform()} ${os.release()}`,
  );
  say(`\nnpm run dev printed:\n${output.join('').trim()}`);
} finally {
  if (dev?.pid !== undefined && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    process.kill(-dev.pid, 'SIGINT');
    await exited;
  }
  if (!values.keep) fs.rmSync(workspace, { recursive: true, force: true });
  else say(`project kept in ${workspace}`);
}
