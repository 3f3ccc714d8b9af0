/**
 * Runs the real harness in a tiny configuration (one round, 1 s, two servers; a GET and the 1 KB POST, plain and pipelined)
 * and checks what a user gets: the console table, the JSON results, the Markdown section and the chart.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BenchmarkRun } from '../src/runner/results';
import { blockEnd, blockStart } from '../src/report/doc-blocks';
import { runScript } from './support/run-script';

const RUN_SCRIPT = path.join(__dirname, '..', 'src', 'run.js');

const runHarness = (args: string[]) => runScript(RUN_SCRIPT, args);

test('a one-round run of raw uWebSockets.js and Express reports a measured row per server, scenario and mode', async (t) => {
  t.timeout(120_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-harness-'));
  t.teardown(() => fs.rmSync(out, { recursive: true, force: true }));
  const docPath = path.join(out, 'benchmarks.md');
  fs.writeFileSync(docPath, '# Benchmarks\n\nHand-written method section.\n');

  const { code, stdout, stderr } = await runHarness([
    '--servers',
    'raw-uws,express',
    '--scenarios',
    '1,3',
    '--modes',
    'plain,pipelined',
    '--rounds',
    '1',
    '--duration',
    '1',
    '--warmup',
    '0',
    '--doc',
    docPath,
    '--charts-dir',
    path.join(out, 'charts'),
    '--results-dir',
    path.join(out, 'results'),
  ]);
  t.is(code, 0, `harness exited with ${code}\n${stderr}`);

  // Console: one table row per scenario and server, and the target lines (SKIP: rest.uws is not in this run).
  const [plainTable, pipelinedTable] = stdout.split('Pipelined (10 per write)');
  t.truthy(pipelinedTable, 'a pipelined table is printed');
  for (const table of [plainTable, pipelinedTable]) {
    for (const row of [
      /#1 hello\s+uWebSockets\.js \(raw\)\s+[\d,]+/,
      /#1 hello\s+Express 5\s+[\d,]+/,
      /#3 order\s+uWebSockets\.js \(raw\)\s+[\d,]+/,
      /#3 order\s+Express 5\s+[\d,]+/,
    ]) {
      t.regex(table, row);
    }
  }
  t.regex(stdout, /^SKIP {2}plain #1 >= 85% of raw uWS req\/s/m);
  t.regex(stdout, /^SKIP {2}server RSS under load < 120 MB/m);

  // Raw results: every measurement answered, without errors, with memory sampled.
  const run = JSON.parse(fs.readFileSync(path.join(out, 'results', 'latest.json'), 'utf8')) as BenchmarkRun;
  t.deepEqual(run.failures, []);
  t.is(run.measurements.length, 8);
  // The run behind the page's block is kept as data, one file per machine type.
  const kept = fs.readdirSync(path.join(out, 'results', 'runs'));
  t.is(kept.length, 1);
  t.regex(kept[0], /^results-[a-z0-9-]+\.json$/);
  t.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'results', 'runs', kept[0]), 'utf8')), run);
  t.deepEqual(
    new Set(run.measurements.map((m) => `${m.scenario} ${m.mode}`)),
    new Set(['1 plain', '1 pipelined', '3 plain', '3 pipelined']),
  );
  for (const measurement of run.measurements) {
    t.true(
      measurement.requestsPerSec > 10,
      `${measurement.server} #${measurement.scenario}: ${measurement.requestsPerSec} req/s`,
    );
    t.is(measurement.statusErrors, 0);
    t.true(measurement.peakRssMB > 10 && measurement.peakRssMB < 2000, `peak RSS ${measurement.peakRssMB} MB`);
    t.true(measurement.cpuUsPerRequest > 0, `${measurement.server}: ${measurement.cpuUsPerRequest} CPU µs per request`);
    if (measurement.mode === 'plain') t.true(measurement.p99Ms >= measurement.p50Ms);
  }
  t.deepEqual(run.startups.map((startup) => startup.server).sort(), ['express', 'raw-uws']);

  // The doc keeps its hand-written part and gains the generated section with the chart link and tables.
  const doc = fs.readFileSync(docPath, 'utf8');
  t.true(doc.startsWith('# Benchmarks\n\nHand-written method section.'));
  t.true(
    doc.includes(blockStart('results', run.machine.cpuModel)) &&
      doc.includes(blockEnd('results', run.machine.cpuModel)),
  );
  t.regex(doc, /\| #1 hello \| uWebSockets\.js \(raw\) \| [\d,]+ \|/);
  t.regex(doc, /\| #3 order \| Express 5 \| [\d,]+ \|/);
  // One chart per mode and machine type, so a run on one machine leaves another machine's chart as it was.
  const machine = run.machine.cpuModel
    .toLowerCase()
    .replace(/\([^)]*\)/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  t.true(doc.includes(`![Pipelined (10 requests per write)](charts/pipelined-${machine}.svg)`));
  t.true(doc.includes(`![Plain keep-alive (one request per write)](charts/plain-${machine}.svg)`));

  const chart = fs.readFileSync(path.join(out, 'charts', `plain-${machine}.svg`), 'utf8');
  t.true(chart.startsWith('<svg'));
  t.true(chart.includes('Express 5') && chart.includes('uWebSockets.js (raw)'));
  t.is((chart.match(/<rect x="230"/g) ?? []).length, 4, 'one bar per server and scenario');
});

test('unknown options and servers are refused with a message naming them', async (t) => {
  const unknownServer = await runHarness(['--servers', 'raw-uws,koa']);
  t.is(unknownServer.code, 2);
  t.regex(
    unknownServer.stderr,
    /unknown server "koa"; known: raw-uws, rest-uws, rest-uws-idiomatic, rest-uws-plugins, fastify/,
  );
  const unknownOption = await runHarness(['--fast']);
  t.is(unknownOption.code, 2);
  t.regex(unknownOption.stderr, /unknown option "--fast"/);
  const badDuration = await runHarness(['--duration', '0.5']);
  t.is(badDuration.code, 2);
  t.regex(badDuration.stderr, /--duration needs a whole number >= 0, got "0.5"/);
});

test('--baseline runs a second rest.uws from another checkout in the same rounds and prints this one relative to it', async (t) => {
  t.timeout(120_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-baseline-'));
  t.teardown(() => fs.rmSync(out, { recursive: true, force: true }));
  // This checkout serves as its own baseline: the mechanism is what is checked, not a difference.
  const checkout = path.join(__dirname, '..', '..', '..');
  const { code, stdout, stderr } = await runHarness([
    '--servers',
    'rest-uws',
    '--baseline',
    checkout,
    '--scenarios',
    '1',
    '--modes',
    'plain',
    '--rounds',
    '1',
    '--duration',
    '1',
    '--warmup',
    '0',
    '--no-doc',
    '--results-dir',
    path.join(out, 'results'),
  ]);
  t.is(code, 0, `harness exited with ${code}\n${stderr}`);
  t.regex(stdout, /rest\.uws against the baseline \(--baseline\), paired by round/);
  t.regex(
    stdout,
    /^#1 plain +rest\.uws: req\/s \d+\.\d% of baseline, CPU\/request \d+\.\d% \(r1 this \d+, r1 base \d+\)$/m,
  );
  const run = JSON.parse(fs.readFileSync(path.join(out, 'results', 'latest.json'), 'utf8')) as BenchmarkRun;
  t.deepEqual(run.settings.servers, ['rest-uws', 'rest-uws@before']);
  t.deepEqual(run.failures, []);
});

test('--slice: the servers of a round run at once and take the measured time in turns (A B, B A); each row adds its slices up', async (t) => {
  t.timeout(120_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-slices-'));
  t.teardown(() => fs.rmSync(out, { recursive: true, force: true }));
  const { code, stderr } = await runHarness([
    '--servers',
    'raw-uws,rest-uws',
    '--scenarios',
    '1,5',
    '--modes',
    'plain',
    '--rounds',
    '1',
    '--duration',
    '3',
    '--slice',
    '1',
    '--warmup',
    '0',
    '--no-doc',
    '--results-dir',
    path.join(out, 'results'),
  ]);
  t.is(code, 0, `harness exited with ${code}\n${stderr}`);
  // Scenario 5 checks after the load that the server counted one event per request wrk counted over all slices.
  const run = JSON.parse(fs.readFileSync(path.join(out, 'results', 'latest.json'), 'utf8')) as BenchmarkRun;
  t.deepEqual(run.failures, []);
  t.is(run.settings.sliceSec, 1);
  t.is(run.measurements.length, 4);
  for (const measurement of run.measurements) {
    const seconds = measurement.requests / measurement.requestsPerSec;
    t.true(
      seconds > 2.9 && seconds < 3.6,
      `${measurement.server} #${measurement.scenario}: ${seconds} s measured in all`,
    );
    t.is(measurement.slices?.length, 3, "the row keeps its slices, for pairing them with the other servers' turns");
  }
  // The slices' order, as logged: forwards, backwards, forwards.
  for (const scenario of [1, 5]) {
    const order = [...stderr.matchAll(new RegExp(`^ {2}slice (\\d)/3 (\\S+) +#${scenario} `, 'gm'))].map(
      (match) => `${match[1]} ${match[2]}`,
    );
    t.deepEqual(
      order,
      ['1 raw-uws', '1 rest-uws', '2 rest-uws', '2 raw-uws', '3 raw-uws', '3 rest-uws'],
      `scenario ${scenario}`,
    );
  }
});
