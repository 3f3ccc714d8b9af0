#!/usr/bin/env node
// Where a bench server's allocations come from, per request: the server runs under load from wrk (warm-up first),
// V8's sampling heap profiler counts every allocation site for the measured seconds, objects already collected
// included, and each function's bytes are divided by the requests answered. Bytes allocated per request do not
// depend on the machine's load (unlike time), so this runs anywhere; more bytes per request is more scavenges,
// each a pause of every request waiting (the tail). V8 attributes an allocation to the function it was inlined into.
//
//   node benchmarks/tools/allocation-sites.js [--server rest-uws] [--scenario 1|2] [--type json|plaintext]
//        [--seconds 5] [--warm 4] [--connections 8] [--top 25] [--no-inlining]
//
// --no-inlining runs node with --no-turbo-inlining: each allocation is then charged to the function that makes it,
// not to the one it was inlined into (the total grows a little: inlining lets V8 drop some allocations).
//
// --type runs a TechEmpower implementation (benchmarks/dist/src/techempower/servers/) on GET /json or /plaintext.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const root = path.join(__dirname, '..', '..');
const server = opt('server', 'rest-uws');
const type = opt('type', undefined);
const scenario = opt('scenario', '1');
const SECONDS = Number(opt('seconds', '5'));
const WARM = Number(opt('warm', '4'));
const CONNECTIONS = Number(opt('connections', '8'));
const TOP = Number(opt('top', '25'));
const TARGETS = {
  json: ['/json', 'Accept: application/json'],
  plaintext: ['/plaintext', 'Accept: text/plain'],
  1: ['/hello', undefined],
  2: ['/users/42?fields=a,b', undefined],
};
const [urlPath, header] = TARGETS[type ?? scenario] ?? [];
if (!urlPath) throw new Error('--type is json or plaintext; --scenario is 1 or 2');
const file = path.join(root, 'benchmarks/dist/src', type ? 'techempower/servers' : 'servers', `${server}.js`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'alloc-sites-'));
const out = path.join(work, 'sites.json');
const flags = args.includes('--no-inlining') ? ['--no-turbo-inlining'] : [];
const child = spawn(process.execPath, [...flags, '-r', path.join(__dirname, 'support/allocation-sampler.js'), file], {
  env: {
    TFB_DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    ...process.env,
    BENCH_PORT: '0',
    BENCH_STATIC_DIR: work,
    ALLOCATION_SITES_OUT: out,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const wrk = (seconds) => {
  const text = execFileSync(
    'wrk',
    [
      '-t1',
      `-c${CONNECTIONS}`,
      `-d${seconds}s`,
      ...(header ? ['-H', header] : []),
      `http://127.0.0.1:${port}${urlPath}`,
    ],
    { encoding: 'utf8' },
  );
  return Number(/(\d+) requests in/.exec(text)[1]);
};
let port;
let announced = '';
child.stdout.on('data', async (chunk) => {
  announced += chunk;
  const match = /"port":(\d+)/.exec(announced);
  if (!match || port) return;
  port = Number(match[1]);
  try {
    wrk(WARM);
    child.kill('SIGUSR2');
    const requests = wrk(SECONDS);
    child.kill('SIGUSR2');
    for (let waited = 0; !fs.existsSync(out) && waited < 100; waited++) await new Promise((r) => setTimeout(r, 100));
    const sites = JSON.parse(fs.readFileSync(out, 'utf8'));
    if (sites.error) throw new Error(sites.error);
    const total = sites.reduce((sum, [, bytes]) => sum + bytes, 0);
    console.log(
      `${server} ${type ?? `scenario ${scenario}`}: ${Math.round(total / requests)} bytes allocated per request (${requests} requests, sampled)`,
    );
    for (const [site, bytes] of sites.sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`${String(Math.round(bytes / requests)).padStart(8)}  ${site}`);
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(work, { recursive: true, force: true });
  }
});
