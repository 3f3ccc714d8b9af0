/**
 * Runs the real soak runner for a few seconds against framework-hello and checks what a user gets: the interval
 * table and the verdict lines on the console, the raw JSON, the SVG chart, and the target's block of the doc.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SoakRun } from '../src/soak/soak-results';
import { blockEnd, blockStart } from '../src/soak/soak-doc';
import { runScript } from './support/run-script';

const RUN_SCRIPT = path.join(__dirname, '..', 'src', 'soak', 'run.js');

const runSoak = (args: string[]) => runScript(RUN_SCRIPT, args);

test('a 4-second soak of framework-hello prints the interval table and verdicts, and writes the JSON, the chart and its doc block', async (t) => {
  t.timeout(60_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-run-'));
  t.teardown(() => fs.rmSync(out, { recursive: true, force: true }));
  const docPath = path.join(out, 'reliability.md');
  const handWritten = "# Reliability\n\n## Hostile input\n\nSomeone else's section.\n\n## Long load\n\n";
  fs.writeFileSync(
    docPath,
    `${handWritten}${blockStart('framework-hello')}\nold figures\n${blockEnd('framework-hello')}\n\n## Faults\n\nAnother section.\n`,
  );

  const { code, stdout, stderr } = await runSoak([
    '--targets',
    'framework-hello',
    '--duration',
    '4',
    '--interval',
    '2',
    '--doc',
    docPath,
    '--charts-dir',
    path.join(out, 'charts'),
    '--results-dir',
    path.join(out, 'results'),
  ]);

  // Console: one row per interval, both verdict lines, the summary row; the exit code follows the verdict.
  t.regex(stdout, /t \(s\)\s+req\/s\s+errors\s+RSS MB\s+peak RSS MB\s+server CPU\s+load avg/);
  const rows = stdout
    .split('\n')
    .filter((line) => /^\s+\d+\s+[\d,]+\s+\d+\s+\d+\.\d\s+\d+\.\d\s+\d+%\s+[\d.]+\s*$/.test(line));
  t.is(rows.length, 2, stdout);
  t.regex(stdout, /^PASS {2}no errors: 0 error\(s\) in 2 interval\(s\)$/m, `${stdout}\n${stderr}`);
  const rssLine =
    /^(PASS|FAIL) {2}RSS flat after warm-up \(0 interval\(s\) left out\): slope -?[\d.]+ MB\/min \(max 1\), largest rise [\d.]+ MB \(max 24\), range [\d.]+-[\d.]+ MB$/m.exec(
      stdout,
    );
  t.truthy(rssLine, stdout);
  t.regex(
    stdout,
    /^framework-hello\s+0\.1\s+[\d,]+\s+[\d,]+\s+0\s+[\d.]+\s+[\d.]+-[\d.]+\s+-?[\d.]+\s+[\d.]+\s+[\d.]+-[\d.]+\s+(PASS|FAIL)/m,
  );
  t.is(code, rssLine?.[1] === 'PASS' ? 0 : 1, stderr);

  // Raw JSON: two measured intervals with requests, no errors, RSS from /proc.
  const soak = JSON.parse(fs.readFileSync(path.join(out, 'results', 'soak-latest.json'), 'utf8')) as SoakRun;
  t.is(soak.targets.length, 1);
  const run = soak.targets[0];
  t.is(run.target, 'framework-hello');
  t.is(run.abortedReason, undefined);
  t.deepEqual(
    run.samples.map((sample) => sample.index),
    [1, 2],
  );
  t.true(run.samples[1].elapsedSec > run.samples[0].elapsedSec);
  for (const sample of run.samples) {
    t.true(sample.requestsPerSec > 100, `${sample.requestsPerSec} req/s`);
    t.is(sample.errors, 0);
    t.is(sample.wrk.socketErrors, 0);
    t.true(sample.rssMB > 10 && sample.rssMB < 2000, `RSS ${sample.rssMB} MB`);
    t.true(sample.peakRssMB >= sample.rssMB);
    t.true(sample.serverCpuPercent > 0);
  }
  t.true(run.verdict.noErrors);
  t.is(run.totalRequests, run.samples[0].wrk.requests + run.samples[1].wrk.requests);

  // Chart: both lines, the title and verdict.
  const chart = fs.readFileSync(path.join(out, 'charts', 'soak-framework-hello.svg'), 'utf8');
  t.true(chart.startsWith('<svg'));
  t.true(chart.includes('Soak: framework-hello, rest.uws GET /hello, pipelined'));
  t.is((chart.match(/<polyline /g) ?? []).length, 2, 'RSS and req/s lines');
  t.regex(chart, /(PASS|FAIL): 0 errors/);

  // Doc: only the target's block changed, with the chart link, the summary row and the verdicts.
  const doc = fs.readFileSync(docPath, 'utf8');
  t.true(doc.startsWith(handWritten));
  t.true(doc.endsWith(`${blockEnd('framework-hello')}\n\n## Faults\n\nAnother section.\n`));
  t.false(doc.includes('old figures'));
  t.true(doc.includes('![framework-hello: RSS and requests per second over time](charts/soak-framework-hello.svg)'));
  t.regex(doc, /\| framework-hello \| 0\.1 \| [\d,]+ \| [\d,]+ \| 0 \|/);
  t.regex(doc, /Command: `npm run soak -- --targets framework-hello --duration 4 --interval 2 /);
  t.regex(doc, /PASS {2}no errors/);
});

test('bad options are refused with a message naming them', async (t) => {
  const unknownTarget = await runSoak(['--targets', 'framework-hello,koa']);
  t.is(unknownTarget.code, 2);
  t.regex(
    unknownTarget.stderr,
    /unknown target "koa"; known: framework-hello, booking-api, content-graphql, voice-stream/,
  );
  const badInterval = await runSoak(['--duration', '5', '--interval', '10']);
  t.is(badInterval.code, 2);
  t.regex(badInterval.stderr, /--interval \(10 s\) is longer than --duration \(5 s\)/);
  const badDuration = await runSoak(['--duration', '1.5']);
  t.is(badDuration.code, 2);
  t.regex(badDuration.stderr, /--duration needs a whole number >= 1, got "1.5"/);
});
