#!/usr/bin/env node
// Instructions the bench server runs per request, counted by callgrind (valgrind), which does not depend on the
// machine's load: timed runs on a shared 2-core VM cannot settle a 2% difference, this can (repeated runs of one
// build agree within about 0.5%). The server starts under callgrind with instrumentation off, is warmed up with
// WARM requests (JIT settled), then instrumentation is switched on for N requests (pipelined 10 per write on 4
// connections) and off again; the count of that window divided by N is printed.
//
//   node benchmarks/tools/instructions-per-request.js [--dir CHECKOUT] [--server rest-uws] [--scenario 1|2|3] [--n 10000] [--warm 6000] [--keep DIR]
//        [--pipeline 10] [--connections 4]   (--pipeline 1: one request per write, as the plain mode of the bench)
//        [--cache-sim]   also count simulated cache misses per request (first-level and last-level, reads and writes)
//        [--type json|plaintext|db|queries|fortunes|updates]   a TechEmpower implementation (--server raw-uws,
//                        rest-uws, fastify, ...) on that test type instead of a scenario, with the Accept header of
//                        TechEmpower's load (plaintext pipelined 16 per write, the database types 1, unless --pipeline
//                        says). The database types start a throwaway PostgreSQL (as the verifier test does) and count
//                        the server's own instructions only; [--driver postgres|pg] [--pool 4] as the runner passes.
//                        Every answer must be a 2xx: an error page would be counted as cheap work otherwise.
//
// --keep DIR keeps the callgrind output there: `callgrind_annotate DIR/callgrind.out*` then splits the count by
// native function (V8's builtins and runtime, JSON.parse and JSON.stringify among them, uWebSockets.js, the
// kernel interface); optimised JavaScript shows as unnamed addresses, together.
//
// --dir is a built checkout (default: this one), so two builds compare in one sitting. Environment variables
// reach the server (a probe server of your own in benchmarks/dist/src/servers/ can read them). Needs valgrind
// (apt-get install valgrind). Note that a change in one function can move V8's inlining elsewhere: compare
// builds by a few hundred instructions only with care, and re-run both.
const { spawn, execFileSync } = require('node:child_process');
const net = require('node:net');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const dir = path.resolve(opt('dir', path.join(__dirname, '..', '..')));
const server = opt('server', 'rest-uws');
const scenario = opt('scenario', '1');
const N = Number(opt('n', '10000'));
const W = Number(opt('warm', '6000'));
const keep = opt('keep', undefined);
const TYPE = opt('type', undefined);
// Plaintext pipelined as TechEmpower loads it; the database types one request per write (uWebSockets.js closes a
// connection that pipelines a request behind one answered later, raw servers included).
const PIPELINE = Number(
  opt('pipeline', TYPE === 'plaintext' ? '16' : TYPE === undefined || TYPE === 'json' ? '10' : '1'),
);
const CONNECTIONS = Number(opt('connections', '4'));
const CACHE_SIM = args.includes('--cache-sim');
if (!(N > 0 && N % CONNECTIONS === 0 && W % CONNECTIONS === 0))
  throw new Error('--n and --warm must be multiples of --connections');

const { SAMPLE_ORDER } = require(path.join(dir, 'benchmarks/dist/src/contract/order.js'));
const order = JSON.stringify(SAMPLE_ORDER);
const REQUESTS = {
  1: 'GET /hello HTTP/1.1\r\nHost: x\r\n\r\n',
  2: 'GET /users/42?fields=a,b HTTP/1.1\r\nHost: x\r\n\r\n',
  3: `POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(order)}\r\n\r\n${order}`,
};
// The load is this checkout's (a --dir checkout older than the TechEmpower harness still counts its scenarios).
const here = path.join(__dirname, '..', '..');
const { ACCEPT } = require(path.join(here, 'benchmarks/dist/src/techempower/verify/checks.js'));
const { QUERIES_PER_REQUEST } = require(path.join(here, 'benchmarks/dist/src/techempower/test-types.js'));
const teRequest = (target, accept) => `GET ${target} HTTP/1.1\r\nHost: x\r\nAccept: ${accept}\r\n\r\n`;
const TYPES = {
  json: teRequest('/json', ACCEPT.json),
  plaintext: teRequest('/plaintext', ACCEPT.plaintext),
  db: teRequest('/db', ACCEPT.json),
  queries: teRequest(`/queries?queries=${QUERIES_PER_REQUEST}`, ACCEPT.json),
  fortunes: teRequest('/fortunes', ACCEPT.html),
  updates: teRequest(`/updates?queries=${QUERIES_PER_REQUEST}`, ACCEPT.json),
};
const request = TYPE === undefined ? REQUESTS[scenario] : TYPES[TYPE];
if (request === undefined)
  throw new Error(`--scenario is 1, 2 or 3; --type is one of ${Object.keys(TYPES).join(', ')}`);
const DATABASE_TYPE = TYPE !== undefined && TYPE !== 'json' && TYPE !== 'plaintext';
const serverFile =
  TYPE === undefined
    ? path.join(dir, 'benchmarks/dist/src/servers', `${server}.js`)
    : path.join(dir, 'benchmarks/dist/src/techempower/servers', `${server}.js`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ipr-'));
const outFile = path.join(work, 'callgrind.out');

// The database types: a throwaway cluster with the two tables, stopped when the count is printed.
async function database() {
  if (!DATABASE_TYPE)
    return { env: { TFB_DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused' }, stop: async () => {} };
  const { startBenchCluster } = require(path.join(here, 'benchmarks/dist/src/techempower/database/bench-cluster.js'));
  const cluster = await startBenchCluster();
  const url = await cluster.createDatabase('tfb_instructions');
  return {
    env: { TFB_DATABASE_URL: url, TFB_DRIVER: opt('driver', 'postgres'), TFB_POOL: opt('pool', '4') },
    stop: () => cluster.stop(),
  };
}

database().then(run, (error) => {
  console.error(error);
  process.exitCode = 1;
});

function run(db) {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      ...(CACHE_SIM ? ['--cache-sim=yes'] : []),
      `--callgrind-out-file=${outFile}`,
      'node',
      '--predictable',
      serverFile,
    ],
    {
      // The TechEmpower servers open their database lazily: json and plaintext never reach it.
      env: {
        ...db.env,
        ...process.env,
        BENCH_PORT: '0',
        BENCH_STATIC_DIR: work,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  child.stderr.on('data', (d) => (errors = (errors + d).slice(-4000)));
  let announced = '';
  child.stdout.on('data', (d) => {
    announced += d;
    const m = /"port":(\d+)/.exec(announced);
    if (m && !child.started) {
      child.started = true;
      measure(child, Number(m[1])).catch((err) => {
        console.error(err);
        child.kill('SIGKILL');
      });
    }
  });
  child.on('exit', async () => {
    await db.stop();
    let total = 0;
    const events = {};
    for (const f of fs.readdirSync(work).filter((f) => f.startsWith('callgrind.out'))) {
      const text = fs.readFileSync(path.join(work, f), 'utf8');
      const m = /^totals: (\d+)/m.exec(text);
      if (m) total += Number(m[1]);
      const names = /^events: (.*)$/m.exec(text)?.[1].trim().split(/\s+/) ?? [];
      const values = /^totals: (.*)$/m.exec(text)?.[1].trim().split(/\s+/) ?? [];
      names.forEach((name, i) => (events[name] = (events[name] ?? 0) + Number(values[i] ?? 0)));
    }
    if (keep !== undefined) {
      fs.mkdirSync(keep, { recursive: true });
      for (const f of fs.readdirSync(work).filter((f) => f.startsWith('callgrind.out')))
        fs.copyFileSync(path.join(work, f), path.join(keep, f));
    }
    fs.rmSync(work, { recursive: true, force: true });
    if (total === 0) {
      console.error(`no instructions counted (did the server start under valgrind?)\n${errors}`);
      process.exitCode = 1;
      return;
    }
    console.log(
      `${server} ${TYPE ?? `scenario ${scenario}`} (${dir}): ${Math.round(total / N)} instructions per request (${N} requests after ${W} of warm-up)`,
    );
    // --cache-sim: callgrind's simulated caches (first level, last level), misses per request.
    if (CACHE_SIM)
      console.log(
        Object.entries(events)
          .filter(([name]) => name !== 'Ir')
          .map(([name, value]) => `${name} ${Math.round(value / N)}`)
          .join(', '),
      );
  });
}

// callgrind_control is told this server's process id: without one it switches every callgrind run of the machine,
// and two measurements at once (two builds, or another user's) would count each other's windows.
async function measure(child, port) {
  await load(port, W);
  execFileSync('callgrind_control', ['--instr=on', String(child.pid)], { stdio: 'ignore' });
  await load(port, N);
  execFileSync('callgrind_control', ['--instr=off', String(child.pid)], { stdio: 'ignore' });
  child.kill('SIGTERM');
}

function load(port, n) {
  return new Promise((resolve, reject) => {
    const per = n / CONNECTIONS;
    let closed = 0;
    for (let c = 0; c < CONNECTIONS; c++) {
      const socket = net.connect(port, '127.0.0.1');
      let sent = 0;
      let answers = 0;
      let tail = '';
      const batch = () => {
        const k = Math.min(PIPELINE, per - sent);
        sent += k;
        socket.write(request.repeat(k));
      };
      socket.on('connect', batch);
      socket.on('error', reject);
      socket.on('data', (d) => {
        const text = tail + d.toString('latin1');
        for (let i = text.indexOf('HTTP/1.1 '); i !== -1; i = text.indexOf('HTTP/1.1 ', i + 1)) {
          answers++;
          // Only successful (2xx) answers count (a status cut by the end of a read goes unchecked: rare, and not miscounted).
          const status = text.slice(i + 9, i + 12);
          if (status.length === 3 && status[0] !== '2') {
            reject(new Error(`the server answered ${text.slice(i, i + 60).split('\r\n')[0]}`));
            socket.destroy();
            return;
          }
        }
        tail = text.slice(-8);
        if (answers < sent) return;
        if (sent < per) batch();
        else socket.end();
      });
      socket.on('close', () => {
        if (answers < per) reject(new Error(`the server closed a connection after ${answers} of ${per} answers`));
        if (++closed === CONNECTIONS) resolve();
      });
    }
  });
}
