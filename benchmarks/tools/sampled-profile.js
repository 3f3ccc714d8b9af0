#!/usr/bin/env node
// Where a bench server's time goes, timed: the server runs pinned to CPU 1 under load from wrk on CPU 0 (the bench's
// set-up), and `perf record` samples it (software clock, 2,000 Hz: no hardware counters needed, so it works on VMs).
// Each symbol's samples become microseconds of CPU per request: JavaScript functions by name (V8's
// --perf-basic-prof), V8's builtins and runtime, uWebSockets.js, libc and the kernel. With --against, a second
// server runs beside it, the two take measured turns (A B, B A, ...: `--rounds` of `--seconds` each), and the table
// lists the symbols by the difference.
//
// Unlike callgrind (instructions-per-request.js), this counts time, so it sees what instructions do not: cache misses
// in a request path that the kernel's network work evicts between requests (plain mode), atomics, lock-prefixed
// operations. Sampling costs the server about 10% at 2,000 Hz. On a VM whose speed drifts, two servers measured one
// after the other differed by 4% in their totals with the same code: compare in turns, and read small totals'
// differences against a run of a build against itself.
//
//   node benchmarks/tools/sampled-profile.js [--dir CHECKOUT] [--server rest-uws] [--against raw-uws] [--against-dir CHECKOUT]
//        [--scenario 1|2|3] [--rounds 4] [--seconds 3] [--pipeline 1] [--connections 8] [--sort sym|dso] [--top 40]
//        [--prime 1,3]   scenarios each server serves first (2 s each), as in the bench, where one server process takes
//                        every scenario in turn: code shared by routes has then seen them all (its feedback polymorphic)
//   node benchmarks/tools/sampled-profile.js --alloc [...]   bytes allocated per request (V8's --trace-gc), no perf
//        [--type json|plaintext]   TechEmpower implementations (--server raw-uws, rest-uws, ...) on GET /json or
//                        /plaintext (with the Accept header TechEmpower sends) instead of a scenario (no database)
//
// Needs perf (apt-get install linux-perf), wrk, taskset, and a built checkout (npx tsc -b).
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const here = path.join(__dirname, '..', '..');
const dir = path.resolve(opt('dir', here));
const server = opt('server', 'rest-uws');
const against = opt('against', undefined);
const againstDir = path.resolve(opt('against-dir', dir));
const scenario = opt('scenario', '1');
const SECONDS = Number(opt('seconds', '3'));
const ROUNDS = Number(opt('rounds', '4'));
const PIPELINE = Number(opt('pipeline', '1'));
const CONNECTIONS = Number(opt('connections', '8'));
const SORT = opt('sort', 'sym');
const TOP = Number(opt('top', '40'));
const ALLOC = args.includes('--alloc');
const FREQUENCY = 2000;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sampled-'));
const { SAMPLE_ORDER } = require(path.join(dir, 'benchmarks/dist/src/contract/order.js'));
const orderFile = path.join(work, 'order.json');
fs.writeFileSync(orderFile, JSON.stringify(SAMPLE_ORDER));
const SCENARIOS = {
  1: { path: '/hello', lua: ['method=GET'] },
  2: { path: '/users/42?fields=a,b', lua: ['method=GET'] },
  3: { path: '/orders', lua: ['method=POST', `body=${orderFile}`, 'header=Content-Type: application/json'] },
};
const TYPE = opt('type', undefined);
// With the Accept header of TechEmpower's own load (content negotiation reads it).
const { ACCEPT } = require(path.join(dir, 'benchmarks/dist/src/techempower/verify/checks.js'));
const TYPES = {
  json: { path: '/json', lua: ['method=GET', `header=Accept: ${ACCEPT.json}`] },
  plaintext: { path: '/plaintext', lua: ['method=GET', `header=Accept: ${ACCEPT.plaintext}`] },
};
const request = TYPE === undefined ? SCENARIOS[scenario] : TYPES[TYPE];
if (request === undefined) throw new Error('--scenario is 1, 2 or 3; --type is json or plaintext');
const serversDir = TYPE === undefined ? 'benchmarks/dist/src/servers' : 'benchmarks/dist/src/techempower/servers';
const primes = (opt('prime', '') || '')
  .split(',')
  .filter(Boolean)
  .map((id) => {
    if (SCENARIOS[id] === undefined) throw new Error('--prime lists scenarios 1, 2 or 3');
    return SCENARIOS[id];
  });

function startServer(checkout, id, nodeFlags) {
  const child = spawn(
    'taskset',
    ['-c', '1', process.execPath, ...nodeFlags, path.join(checkout, serversDir, `${id}.js`)],
    {
      // The TechEmpower servers open their database lazily: json and plaintext never reach it.
      env: {
        TFB_DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
        ...process.env,
        BENCH_PORT: '0',
        BENCH_STATIC_DIR: work,
      },
      // --perf-basic-prof also writes V8's log (isolate-*.log) where the process runs: in the temporary folder.
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /"port":(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), gcLog: () => out + errors });
    });
    child.on('exit', (code) => reject(new Error(`${id} exited (${code}) before listening:\n${errors.slice(-2000)}`)));
  });
}

/** wrk as the bench runs it (one thread on CPU 0); the requests it completed. */
function runWrk(port, seconds, load = request) {
  const lua = path.join(here, 'benchmarks/lua', PIPELINE > 1 ? 'pipeline.lua' : 'request.lua');
  const out = execFileSync(
    'taskset',
    [
      '-c',
      '0',
      'wrk',
      '-t1',
      `-c${CONNECTIONS}`,
      `-d${seconds}s`,
      '-s',
      lua,
      `http://127.0.0.1:${port}${load.path}`,
      '--',
      ...load.lua,
      `pipeline=${PIPELINE}`,
    ],
    { encoding: 'utf8' },
  );
  const m = /"requests":(\d+)/.exec(out);
  if (!m) throw new Error(`wrk reported no requests:\n${out}`);
  return Number(m[1]);
}

/** A server started for measuring, with what its turns have added up. */
async function start(checkout, id) {
  const server = await startServer(
    checkout,
    id,
    ALLOC ? ['--trace-gc', '--max-semi-space-size=2'] : ['--perf-basic-prof'],
  );
  for (const load of primes) runWrk(server.port, 2, load);
  runWrk(server.port, 3); // warm-up: JIT settled, heap grown
  return { ...server, id, requests: 0, samples: new Map(), allocated: 0 };
}

/** One measured turn: a second of load not counted (the server sat idle during the other's turn), then SECONDS counted. */
async function turn(server) {
  runWrk(server.port, 1);
  if (ALLOC) {
    const before = server.gcLog().length;
    server.requests += runWrk(server.port, SECONDS);
    server.allocated += allocatedBytes(server.gcLog().slice(before));
    return;
  }
  const data = path.join(work, `${server.id}-${Math.random().toString(36).slice(2)}.data`);
  const perf = spawn(
    'perf',
    [
      'record',
      '-q',
      '-e',
      'cpu-clock',
      '-F',
      String(FREQUENCY),
      '-p',
      String(server.child.pid),
      '-o',
      data,
      '--',
      'sleep',
      String(SECONDS),
    ],
    { stdio: 'ignore' },
  );
  server.requests += runWrk(server.port, SECONDS);
  await new Promise((resolve) => perf.on('exit', resolve));
  for (const [name, n] of samplesBy(data)) server.samples.set(name, (server.samples.get(name) ?? 0) + n);
  fs.rmSync(data, { force: true });
}

async function stop(server) {
  const child = server.child;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(`/tmp/perf-${child.pid}.map`, { force: true });
}

/** Megabytes allocated between collections (each collection's size before, minus the previous one's after), in bytes. */
function allocatedBytes(log) {
  const sizes = [...log.matchAll(/(?:Scavenge|Mark-Compact|Mark-Sweep)[^ ]* ([\d.]+) \([\d.]+\) -> ([\d.]+)/g)].map(
    (m) => [Number(m[1]), Number(m[2])],
  );
  let mb = 0;
  for (let i = 1; i < sizes.length; i++) mb += sizes[i][0] - sizes[i - 1][1];
  return mb * 1024 * 1024;
}

function samplesBy(data) {
  // The server is gone, but perf's report still names its JIT code from /tmp/perf-PID.map (removed after this).
  const report = execFileSync('perf', ['report', '-i', data, '--no-children', '--sort', SORT, '-n', '--stdio'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const samples = new Map();
  for (const line of report.split('\n')) {
    const m = /^\s*[\d.]+%\s+(\d+)\s+(.*\S)\s*$/.exec(line);
    if (!m) continue;
    const name = comparableName(m[2]);
    samples.set(name, (samples.get(name) ?? 0) + Number(m[1]));
  }
  return samples;
}

/**
 * A JavaScript function's name without what differs between two checkouts of the same code: the checkout's folder,
 * and the line and column (an edit above a function moves them). Functions of one file without a name add up.
 */
function comparableName(name) {
  const js = /^\[\.\] JS:([*~^]?)(\S*) (.*?)(?::\d+:\d+)?$/.exec(name);
  if (js === null) return name;
  const file = js[3].startsWith(dir)
    ? js[3].slice(dir.length + 1)
    : js[3].startsWith(againstDir)
      ? js[3].slice(againstDir.length + 1)
      : js[3];
  return `[.] JS:${js[1]}${js[2] || '(anonymous)'} ${file}`;
}

const perRequest = (samples, requests) => (samples / FREQUENCY / requests) * 1e6;
const fmt = (x) => x.toFixed(3).padStart(9);

async function main() {
  const servers = [await start(dir, server)];
  try {
    if (against !== undefined) servers.push(await start(againstDir, against));
    // Turns in the order A B, B A, A B...: a slow phase of the machine falls on both servers alike.
    for (let round = 0; round < ROUNDS; round++)
      for (const s of round % 2 === 0 ? servers : [...servers].reverse()) await turn(s);
  } finally {
    for (const s of servers) await stop(s);
  }
  const [a, b] = servers;
  const shape = `${TYPE ?? `scenario ${scenario}`}${primes.length > 0 ? ` (primed with ${opt('prime')})` : ''}, ${PIPELINE > 1 ? `pipelined ${PIPELINE}` : 'plain'}, ${CONNECTIONS} connections, ${ROUNDS} turns of ${SECONDS} s each`;
  if (ALLOC) {
    console.log(`bytes allocated per request (${shape}):`);
    for (const [id, r] of [[server, a], ...(b ? [[against, b]] : [])])
      console.log(`  ${id.padEnd(22)} ${Math.round(r.allocated / r.requests)} (${r.requests} requests)`);
    return;
  }
  const total = (r) => [...r.samples.values()].reduce((x, y) => x + y, 0);
  console.log(
    `CPU µs per request by ${SORT} (${shape}); ${server}: ${a.requests} requests${b ? `, ${against}: ${b.requests}` : ''}`,
  );
  if (b === undefined) {
    for (const [name, n] of [...a.samples].sort((x, y) => y[1] - x[1]).slice(0, TOP))
      console.log(`${fmt(perRequest(n, a.requests))}  ${name}`);
    console.log(`${fmt(perRequest(total(a), a.requests))}  total`);
    return;
  }
  const names = new Set([...a.samples.keys(), ...b.samples.keys()]);
  const rows = [...names].map((name) => {
    const x = perRequest(a.samples.get(name) ?? 0, a.requests);
    const y = perRequest(b.samples.get(name) ?? 0, b.requests);
    return { name, x, y, d: x - y };
  });
  rows.sort((p, q) => Math.abs(q.d) - Math.abs(p.d));
  console.log(`${server.padStart(9).slice(-9)} ${against.padStart(9).slice(-9)}      diff  symbol`);
  for (const r of rows.slice(0, TOP)) console.log(`${fmt(r.x)} ${fmt(r.y)} ${fmt(r.d)}  ${r.name}`);
  console.log(
    `${fmt(perRequest(total(a), a.requests))} ${fmt(perRequest(total(b), b.requests))} ${fmt(perRequest(total(a), a.requests) - perRequest(total(b), b.requests))}  total`,
  );
}

main()
  .catch((err) => {
    console.error(err.message ?? err);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));
