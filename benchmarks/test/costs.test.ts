/**
 * The cost table: its arithmetic on measurements made up for the purpose, every row's check against the real
 * costs server (each feature proven in effect, wrong input refused), and a tiny real run with a baseline.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { summarizeCosts } from '../src/costs/cost-report';
import type { CostMeasurement, CostRun } from '../src/costs/cost-results';
import { COST_APPS, costRows } from '../src/costs/cost-rows';
import { blockStart } from '../src/report/doc-blocks';
import { startServer } from '../src/runner/server-process';
import { runScript } from './support/run-script';

const RUN_SCRIPT = path.join(__dirname, '..', 'src', 'run.js');
const CHECKOUT = path.resolve(__dirname, '..', '..', '..');

function cost(
  row: string,
  round: number,
  cpuUsPerRequest: number,
  variant: CostMeasurement['variant'] = 'after',
): CostMeasurement {
  return {
    row,
    variant,
    mode: 'pipelined',
    round,
    requestsPerSec: 1e5,
    cpuUsPerRequest,
    serverCpuPercent: 100,
    errors: 0,
  };
}

function costRun(measurements: CostMeasurement[], baseline?: string): CostRun {
  const rows = costRows().filter((row) =>
    ['raw', 'bare', 'produces-one', 'header-param', 'post-body', 'valid'].includes(row.id),
  );
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    settings: {
      rounds: 3,
      durationSec: 3,
      warmupSec: 1,
      modes: ['pipelined'],
      connections: 64,
      pipeline: 10,
      serverCpu: 1,
      clientCpu: 0,
    },
    machine: { cpuModel: 'test', cpuCount: 2, node: 'v20', kernel: 'Linux', wrk: 'wrk 4.1.0', loadAverageAtStart: 0 },
    baseline,
    rows,
    measurements,
    failures: [],
  };
}

test('a row costs the median of its per-round differences from its reference; features without inherent work are held to 0.3 µs', (t) => {
  const measurements = [
    ...[2, 4, 2].map((cpu, i) => cost('raw', i + 1, cpu)),
    // Round 2 was slow for everything: the per-round difference cancels it.
    ...[2.5, 5, 2.5].map((cpu, i) => cost('bare', i + 1, cpu)),
    ...[2.7, 5.2, 2.6].map((cpu, i) => cost('produces-one', i + 1, cpu)),
    ...[3.0, 5.5, 3.0].map((cpu, i) => cost('header-param', i + 1, cpu)),
    ...[6, 9, 6].map((cpu, i) => cost('post-body', i + 1, cpu)),
    ...[6.5, 9.5, 7].map((cpu, i) => cost('valid', i + 1, cpu)),
    ...[3.5, 6, 3.5].map((cpu, i) => cost('produces-one', i + 1, cpu, 'before')),
    ...[2.5, 5, 2.5].map((cpu, i) => cost('bare', i + 1, cpu, 'before')),
  ];
  const lines = new Map(summarizeCosts(costRun(measurements, '/elsewhere')).map((line) => [line.row, line]));
  t.is(lines.get('raw')!.ratioToRaw, 1);
  t.is(lines.get('bare')!.overUs, undefined);
  t.is(lines.get('bare')!.ratioToRaw, 0.8);
  const produces = lines.get('produces-one')!;
  t.is(Number(produces.overUs!.toFixed(6)), 0.2);
  t.is(produces.verdict, 'ok');
  t.is(produces.before!.overUs, 1);
  t.is(lines.get('header-param')!.verdict, '', 'reading a header is inherent work: no verdict');
  t.is(lines.get('valid')!.against, 'post-body');
  t.is(lines.get('valid')!.overUs, 0.5);

  const over = summarizeCosts(costRun([cost('raw', 1, 2), cost('bare', 1, 2.5), cost('produces-one', 1, 2.9)]));
  t.is(over.find((line) => line.row === 'produces-one')!.verdict, 'over');
});

test('every row of every costs app passes its check: the feature is in effect and wrong input is refused', async (t) => {
  t.timeout(120_000);
  const rows = costRows();
  for (const app of COST_APPS.filter((name) => name !== 'raw')) {
    const server = await startServer(
      { id: `costs-${app}`, label: app, file: '../costs/costs-server.js' },
      { cpu: undefined, env: { BENCH_COSTS_APP: app }, timeoutMs: 45_000 },
    );
    try {
      for (const row of rows.filter((candidate) => candidate.app === app))
        await t.notThrowsAsync(row.check(server.baseUrl), `${app} ${row.id}`);
      // The bare route answers in every app: app-wide features are compared with it.
      const bare = await fetch(`${server.baseUrl}/bare`);
      t.deepEqual(await bare.json(), { message: 'Hello, World!' }, app);
    } finally {
      await server.stop();
    }
  }
});

test('a one-round --costs run with a baseline prints before and after, writes the JSON and the doc block of its machine', async (t) => {
  t.timeout(120_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-costs-'));
  t.teardown(() => fs.rmSync(out, { recursive: true, force: true }));
  const docPath = path.join(out, 'benchmarks.md');
  fs.writeFileSync(docPath, '# Benchmarks\n\nHand-written.\n');
  const args = [
    '--costs',
    '--rows',
    'produces-one',
    '--rounds',
    '1',
    '--duration',
    '1',
    '--warmup',
    '0',
    '--baseline',
    CHECKOUT,
    '--doc',
    docPath,
    '--results-dir',
    path.join(out, 'results'),
  ];
  const { code, stdout, stderr } = await runScript(RUN_SCRIPT, args);
  t.is(code, 0, stderr);
  t.regex(stdout, /Cost per request: Pipelined \(10 requests per write\)/);
  t.regex(
    stdout,
    /`@Produces\('application\/json'\)`\s+GET, no extra header\s+no\s+[\d.]+\s+[+-][\d.]+\s+\d+%\s+[\d.]+\s+[+-][\d.]+\s+\d+%\s+(OK|OVER)\s+0/,
  );
  const run = JSON.parse(fs.readFileSync(path.join(out, 'results', 'costs-latest.json'), 'utf8')) as CostRun;
  t.deepEqual(run.failures, []);
  t.deepEqual(run.measurements.map((m) => `${m.row} ${m.variant}`).sort(), [
    'bare after',
    'bare before',
    'produces-one after',
    'produces-one before',
    'raw after',
  ]);
  for (const measurement of run.measurements)
    t.true(measurement.cpuUsPerRequest > 0 && measurement.errors === 0, `${measurement.row} ${measurement.variant}`);
  const doc = fs.readFileSync(docPath, 'utf8');
  t.true(doc.includes(blockStart('costs', run.machine.cpuModel)));
  t.regex(
    doc,
    /\| `@Produces\('application\/json'\)` \| GET, no extra header \| no \| [\d.]+ \| [+-][\d.]+ \| \d+% \|/,
  );
});
