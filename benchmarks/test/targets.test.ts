/** The target lines and ratios a run prints, computed from measurements made up for the purpose. */
import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { blockEnd, blockStart, placeholder, writeBlockIntoDoc } from '../src/report/doc-blocks';
import { median, spreadPercent } from '../src/report/statistics';
import { pairedRatio, summarize } from '../src/report/summarize';
import { evaluateTargets } from '../src/report/targets';
import type { BenchmarkRun, Measurement, Mode } from '../src/runner/results';
import type { ScenarioId } from '../src/scenarios/scenario';

function measurement(
  server: string,
  scenario: ScenarioId,
  mode: Mode,
  round: number,
  requestsPerSec: number,
  extra: Partial<Measurement> = {},
): Measurement {
  return {
    server,
    scenario,
    mode,
    round,
    requestsPerSec,
    requests: requestsPerSec,
    p50Ms: 0.5,
    p99Ms: 2,
    cpuUsPerRequest: 3,
    serverCpuPercent: 99,
    peakRssMB: 60,
    statusErrors: 0,
    socketErrors: 0,
    ...extra,
  };
}

function run(measurements: Measurement[]): BenchmarkRun {
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    settings: {
      servers: ['raw-uws', 'rest-uws', 'fastify'],
      scenarios: [1, 2, 3, 5],
      modes: ['plain', 'pipelined'],
      rounds: 3,
      durationSec: 5,
      warmupSec: 2,
      connections: 64,
      pipeline: 10,
      serverCpu: 1,
      clientCpu: 0,
    },
    machine: { cpuModel: 'test', cpuCount: 2, node: 'v20', kernel: 'Linux', wrk: 'wrk 4.1.0', loadAverageAtStart: 0 },
    unavailable: [],
    measurements,
    startups: [],
    failures: [],
  };
}

test('median and spread over rounds', (t) => {
  t.is(median([3, 1, 2]), 2);
  t.is(median([4, 1, 3, 2]), 2.5);
  t.true(Number.isNaN(median([])));
  t.is(spreadPercent([90, 100, 110]), 20);
});

test('the ratio to raw is the median of per-round ratios, so a slow round for both servers cancels out', (t) => {
  const measurements = [
    measurement('raw-uws', 1, 'plain', 1, 100_000),
    measurement('rest-uws', 1, 'plain', 1, 90_000),
    measurement('raw-uws', 1, 'plain', 2, 50_000), // the machine was busy during round 2, for both
    measurement('rest-uws', 1, 'plain', 2, 45_000),
    measurement('raw-uws', 1, 'plain', 3, 100_000),
    measurement('rest-uws', 1, 'plain', 3, 88_000),
  ];
  t.is(pairedRatio(measurements, 'rest-uws', 'raw-uws', 1, 'plain'), 0.9);
  t.is(pairedRatio(measurements, 'rest-uws', 'raw-uws', 2, 'plain'), undefined);
  const row = summarize(run(measurements)).find((candidate) => candidate.server === 'rest-uws')!;
  t.is(row.rpsMedian, 88_000);
  t.is(row.rpsMin, 45_000);
  t.is(row.ratioToRaw, 0.9);
});

test('targets of the idiomatic and plugin servers: scenario 3 at 90% plain and 85% pipelined, every plugin unused within 3% of rest.uws', (t) => {
  const measurements = [
    measurement('raw-uws', 3, 'plain', 1, 40_000),
    measurement('rest-uws', 3, 'plain', 1, 36_400),
    measurement('raw-uws', 3, 'pipelined', 1, 100_000),
    measurement('rest-uws', 3, 'pipelined', 1, 84_000),
    measurement('rest-uws', 1, 'plain', 1, 100_000),
    measurement('rest-uws-plugins', 1, 'plain', 1, 97_500),
    measurement('rest-uws', 1, 'pipelined', 1, 400_000),
    measurement('rest-uws-plugins', 1, 'pipelined', 1, 380_000),
  ];
  const byName = new Map(evaluateTargets(run(measurements)).map((result) => [result.target, result]));
  t.is(byName.get('plain #3 >= 90% of raw uWS req/s')?.status, 'PASS');
  t.is(byName.get('pipelined #3 >= 85% of raw uWS req/s')?.status, 'FAIL');
  t.is(byName.get('every plugin unused, plain #1 >= 97% of rest.uws req/s')?.status, 'PASS');
  t.is(byName.get('every plugin unused, plain #1 >= 97% of rest.uws req/s')?.detail, '0.97x rest-uws');
  t.is(byName.get('every plugin unused, pipelined #1 >= 97% of rest.uws req/s')?.status, 'FAIL');
});

test('targets pass and fail on the thresholds of issue 8, and are skipped when rest.uws was not measured', (t) => {
  const measurements = [
    measurement('raw-uws', 1, 'plain', 1, 100_000, { p99Ms: 2 }),
    measurement('rest-uws', 1, 'plain', 1, 86_000, { p99Ms: 2.6, peakRssMB: 130 }),
    measurement('fastify', 1, 'plain', 1, 50_000),
    measurement('raw-uws', 2, 'plain', 1, 100_000),
    measurement('rest-uws', 2, 'plain', 1, 84_000),
    measurement('raw-uws', 1, 'pipelined', 1, 400_000),
    measurement('rest-uws', 1, 'pipelined', 1, 240_000),
  ];
  const byName = new Map(evaluateTargets(run(measurements)).map((result) => [result.target, result]));
  t.is(byName.get('plain #1 >= 85% of raw uWS req/s')?.status, 'PASS');
  t.is(byName.get('plain #1 >= 85% of raw uWS req/s')?.detail, '86.0% of raw');
  t.is(byName.get('plain #2 >= 85% of raw uWS req/s')?.status, 'FAIL');
  t.is(byName.get('plain #1 >= 1.7x Fastify req/s')?.status, 'PASS');
  t.is(byName.get('plain #3 >= 75% of raw uWS req/s')?.status, 'SKIP');
  t.is(byName.get('pipelined #1 >= 60% of raw uWS req/s')?.status, 'PASS');
  t.is(byName.get('plain #1 p99 <= 1.25x raw uWS p99')?.status, 'FAIL');
  t.is(byName.get('server RSS under load < 120 MB')?.status, 'FAIL');
  t.is(byName.get('pipelined #3 >= 85% of raw uWS req/s')?.status, 'SKIP');

  const withoutRestUws = evaluateTargets(run(measurements.filter((m) => m.server !== 'rest-uws')));
  t.true(withoutRestUws.every((result) => result.status === 'SKIP'));
});

test('the generated section replaces only the block of its machine type; another CPU model gets a block of its own beside it', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-doc-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const docPath = path.join(dir, 'benchmarks.md');
  const intel = 'Intel(R) Xeon(R) Processor';
  const amd = 'AMD EPYC 7B13';
  const block = (machine: string, text: string) =>
    `${blockStart('results', machine)}\n${text}\n${blockEnd('results', machine)}`;
  fs.writeFileSync(docPath, `# Benchmarks\n\nbefore\n\n${block(intel, 'old results')}\n\nafter\n`);
  writeBlockIntoDoc(docPath, 'results', intel, 'new results\n');
  t.is(fs.readFileSync(docPath, 'utf8'), `# Benchmarks\n\nbefore\n\n${block(intel, 'new results')}\n\nafter\n`);
  writeBlockIntoDoc(docPath, 'results', amd, 'amd results');
  t.is(
    fs.readFileSync(docPath, 'utf8'),
    `# Benchmarks\n\nbefore\n\n${block(intel, 'new results')}\n\n${block(amd, 'amd results')}\n\nafter\n`,
  );
  writeBlockIntoDoc(docPath, 'results', intel, 'third results');
  t.is(
    fs.readFileSync(docPath, 'utf8'),
    `# Benchmarks\n\nbefore\n\n${block(intel, 'third results')}\n\n${block(amd, 'amd results')}\n\nafter\n`,
  );

  const fresh = path.join(dir, 'fresh.md');
  writeBlockIntoDoc(fresh, 'results', intel, 'first results');
  t.is(fs.readFileSync(fresh, 'utf8'), `# Benchmarks\n\n## Results\n\n${block(intel, 'first results')}\n`);
  writeBlockIntoDoc(fresh, 'costs', intel, 'first costs');
  t.is(
    fs.readFileSync(fresh, 'utf8'),
    `# Benchmarks\n\n## Results\n\n${block(intel, 'first results')}\n\n## Cost table results\n\n${blockStart('costs', intel)}\nfirst costs\n${blockEnd('costs', intel)}\n`,
  );
});

test("a page's placeholder gives way to the first block of its kind; later machines go beside that block", (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-doc-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const docPath = path.join(dir, 'techempower.md');
  const [open, close] = placeholder('techempower');
  fs.writeFileSync(docPath, `# Page\n\n## Results\n\n${open}\nto be filled\n${close}\n\n## After\n`);
  writeBlockIntoDoc(docPath, 'techempower', 'AMD EPYC 7B13', 'amd');
  const amd = `${blockStart('techempower', 'AMD EPYC 7B13')}\namd\n${blockEnd('techempower', 'AMD EPYC 7B13')}`;
  t.is(fs.readFileSync(docPath, 'utf8'), `# Page\n\n## Results\n\n${amd}\n\n## After\n`);
  writeBlockIntoDoc(docPath, 'techempower', 'Intel Xeon', 'intel');
  const intel = `${blockStart('techempower', 'Intel Xeon')}\nintel\n${blockEnd('techempower', 'Intel Xeon')}`;
  t.is(fs.readFileSync(docPath, 'utf8'), `# Page\n\n## Results\n\n${amd}\n\n${intel}\n\n## After\n`);
});

test("in a sliced round each slice is paired with the other server's slice of the same turn, so a phase change inside the round spoils one pair, not the ratio", (t) => {
  const slices = (rates: number[], cpu: number[]) =>
    rates.map((requestsPerSec, i) => ({ requestsPerSec, cpuUsPerRequest: cpu[i]!, p50Ms: 0.5, p99Ms: 2 }));
  // Raw's third turn fell in a slow phase: its round sum says rest.uws was 1.08x raw, each turn says 0.9x.
  const measurements = [
    measurement('raw-uws', 1, 'plain', 1, 250 / 3, { slices: slices([100, 100, 50], [10, 10, 20]) }),
    measurement('rest-uws', 1, 'plain', 1, 90, { slices: slices([90, 90, 90], [11, 11, 11]) }),
  ];
  t.is(pairedRatio(measurements, 'rest-uws', 'raw-uws', 1, 'plain'), 0.9);
  t.is(
    pairedRatio(measurements, 'rest-uws', 'raw-uws', 1, 'plain', (m) => m.cpuUsPerRequest),
    1.1,
  );
  // Rows without slices, or with different counts of them, are paired by round as before.
  const unsliced = [
    measurement('raw-uws', 1, 'plain', 1, 100),
    measurement('rest-uws', 1, 'plain', 1, 90, { slices: slices([90, 90], [11, 11]) }),
  ];
  t.is(pairedRatio(unsliced, 'rest-uws', 'raw-uws', 1, 'plain'), 0.9);
});

test('a target is judged by CPU per request when the servers were not CPU-bound (wrk set the pace)', (t) => {
  const clientBound = [
    // A busy host slowed wrk: both servers answered all it sent, so their req/s are alike whatever they cost.
    measurement('raw-uws', 2, 'plain', 1, 58_000, { serverCpuPercent: 80, cpuUsPerRequest: 13.9 }),
    measurement('rest-uws-idiomatic', 2, 'plain', 1, 58_000, { serverCpuPercent: 91, cpuUsPerRequest: 15.6 }),
  ];
  const idiomatic = (measurements: Measurement[]) =>
    evaluateTargets(run(measurements)).find((r) => r.target === 'idiomatic plain #2 >= 90% of raw uWS req/s')!;
  const judged = idiomatic(clientBound);
  t.is(judged.status, 'FAIL');
  t.is(
    judged.detail,
    '100.0% of raw req/s, not CPU-bound (raw-uws busy 80%, rest-uws-idiomatic 91%), so judged by CPU per request: 89.1% of raw',
  );
  const cpuBound = clientBound.map((m) => ({ ...m, serverCpuPercent: 99 }));
  t.is(idiomatic(cpuBound).status, 'PASS', 'CPU-bound, the req/s ratio decides');
});
