/** The soak's pass criteria and the pieces the runner parses and writes, on data with known answers. */
import test from 'ava';
import { judgeRss, judgeTarget, largestRise, linearSlope, warmupSampleCount } from '../src/soak/flatness';
import { mixLine, wrongAnswer, type MixRequest } from '../src/soak/mix-file';
import type { IntervalSample } from '../src/soak/soak-results';
import { parseSoakResult } from '../src/soak/soak-wrk';
import { replaceTargetBlock, blockEnd, blockStart } from '../src/soak/soak-doc';

const THRESHOLDS = { warmupFraction: 0.2, maxSlopeMBPerMin: 1, maxRiseMB: 24 };

function samples(rssMB: number[], errors: number[] = []): IntervalSample[] {
  return rssMB.map(
    (rss, index) =>
      ({ index: index + 1, elapsedSec: (index + 1) * 10, rssMB: rss, errors: errors[index] ?? 0 }) as IntervalSample,
  );
}

test('the slope is the least-squares one', (t) => {
  t.is(
    linearSlope([
      { x: 0, y: 1 },
      { x: 1, y: 3 },
      { x: 2, y: 5 },
    ]),
    2,
  );
  t.is(
    linearSlope([
      { x: 0, y: 4 },
      { x: 1, y: 2 },
      { x: 2, y: 6 },
      { x: 3, y: 4 },
    ]),
    0.4,
  );
  t.true(Number.isNaN(linearSlope([{ x: 1, y: 1 }])));
});

test('the largest rise is from a value to a later one: drops do not count', (t) => {
  t.is(largestRise([5, 9, 3, 8, 1]), 5);
  t.is(largestRise([9, 7, 5]), 0);
  t.is(largestRise([100, 130, 100, 130]), 30);
});

test('warm-up leaves out a share of the samples, at least one, and keeps two to judge', (t) => {
  t.is(warmupSampleCount(60, 0.2), 12);
  t.is(warmupSampleCount(10, 0.2), 2);
  t.is(warmupSampleCount(3, 0.2), 1);
  t.is(warmupSampleCount(2, 0.2), 0);
});

test('a steady climb after warm-up fails on its slope, a sawtooth on its rise, a noisy flat line and memory given back pass', (t) => {
  // 60 samples, 10 s apart: the first 12 are warm-up (a big rise there does not count).
  const warmup = Array.from({ length: 12 }, (_, index) => 100 + index * 5);
  const climbing = judgeRss(
    samples([...warmup, ...Array.from({ length: 48 }, (_, index) => 160 + index * 0.5)]),
    THRESHOLDS,
  );
  t.is(climbing.warmupSamples, 12);
  t.true(Math.abs(climbing.slopeMBPerMin - 3) < 1e-9, `${climbing.slopeMBPerMin}`);
  t.false(climbing.flat);
  const sawtooth = judgeRss(
    samples([...warmup, ...Array.from({ length: 48 }, (_, index) => (index % 2 ? 190 : 160))]),
    THRESHOLDS,
  );
  t.true(Math.abs(sawtooth.slopeMBPerMin) < 1);
  t.is(sawtooth.riseMB, 30);
  t.false(sawtooth.flat);
  // V8 returning 35 MB after a while: a drop, not growth.
  const givenBack = judgeRss(
    samples([...warmup, ...Array.from({ length: 48 }, (_, index) => (index < 10 ? 160 : 125) + (index % 3))]),
    THRESHOLDS,
  );
  t.true(givenBack.flat, JSON.stringify(givenBack));
  t.is(givenBack.rangeMB, 37);
  t.is(givenBack.riseMB, 2);
  const flat = judgeRss(
    samples([...warmup, ...Array.from({ length: 48 }, (_, index) => 160 + ((index * 7) % 5))]),
    THRESHOLDS,
  );
  t.true(flat.flat, JSON.stringify(flat));
  t.is(flat.minMB, 160);
  t.is(flat.maxMB, 164);
});

test("a sample is judged by its interval's highest reading: a momentary dip at its end is no rise", (t) => {
  const series = samples(Array.from({ length: 20 }, (_, index) => (index === 15 ? 312 : 348)));
  for (const sample of series) sample.peakRssMB = 348.5;
  const verdict = judgeRss(series, THRESHOLDS);
  t.is(verdict.riseMB, 0);
  t.true(verdict.flat);
  t.false(
    judgeRss(samples(Array.from({ length: 20 }, (_, index) => (index === 15 ? 312 : 348))), THRESHOLDS).flat,
    'without peaks the dip and return read as a 36 MB rise',
  );
});

test('a target passes only with no error in any interval, RSS flat, and not stopped early', (t) => {
  const rss = Array.from({ length: 10 }, () => 100);
  t.true(judgeTarget(samples(rss), THRESHOLDS).pass);
  const withErrors = judgeTarget(samples(rss, [0, 0, 0, 0, 3]), THRESHOLDS);
  t.false(withErrors.pass);
  t.is(withErrors.errors, 3);
  t.is(withErrors.lines[0], 'FAIL  no errors: 3 error(s) in 10 interval(s)');
  const stopped = judgeTarget(samples(rss), THRESHOLDS, 'the server exited');
  t.false(stopped.pass);
  t.regex(stopped.lines[0], /stopped early: the server exited/);
  t.false(judgeTarget(samples([100]), THRESHOLDS).rss.flat, 'one sample cannot show a flat line');
});

test('the result line of the Lua scripts is parsed into counts, socket errors added up', (t) => {
  const line =
    'SOAK_RESULT {"requests":10,"duration_us":2000000,"bytes":1,"socket_errors":{"connect":1,"read":2,"write":0,"timeout":3},"status_errors":4,' +
    '"latency_us":{"mean":1.5,"p50":1,"p99":2,"max":3},"sent":{"a":11},"ok":{"a":6},"refused":{},"failed":{"a 500":4},"samples":["a -> 500 : boom"]}';
  const counts = parseSoakResult(`Running 2s test\n${line}\n`);
  t.like(counts, {
    requests: 10,
    durationSec: 2,
    socketErrors: 6,
    wrkStatusErrors: 4,
    sent: { a: 11 },
    failed: { 'a 500': 4 },
    samples: ['a -> 500 : boom'],
  });
  t.is(parseSoakResult('no result here'), undefined);
});

test('mix lines refuse what would break the tab-separated file, and answers are judged by status and texts', (t) => {
  const request: MixRequest = {
    kind: 'q',
    weight: 3,
    method: 'POST',
    path: '/api',
    headers: { 'Content-Type': 'application/json', 'X-A': 'b' },
    body: '{"q":1}',
    status: 200,
    mustContain: '"data"',
    mustNotContain: '"errors"',
  };
  t.is(mixLine(request), 'q\t3\tPOST\t/api\tContent-Type: application/json | X-A: b\t{"q":1}\t200\t"data"\t"errors"');
  t.is(
    mixLine({ ...request, headers: {}, body: undefined, mustContain: undefined, mustNotContain: undefined }),
    'q\t3\tPOST\t/api\t-\t-\t200\t-\t-',
  );
  t.throws(() => mixLine({ ...request, body: 'a\tb' }), { message: /must not hold tabs or line breaks/ });
  t.is(wrongAnswer(request, 200, '{"data":{}}'), undefined);
  t.is(wrongAnswer(request, 400, '{"data":{}}'), 'status 400, expected 200');
  t.is(wrongAnswer(request, 200, '{"data":null,"errors":[]}'), 'has "errors"');
  t.is(wrongAnswer(request, 200, '{}'), 'no "data"');
});

test('a doc block is replaced between its markers only, and a page without the block is refused', (t) => {
  const page = `# R\n\nmine\n${blockStart('x')}\nold\n${blockEnd('x')}\ntheirs\n`;
  t.is(replaceTargetBlock(page, 'x', 'new'), `# R\n\nmine\n${blockStart('x')}\nnew\n${blockEnd('x')}\ntheirs\n`);
  t.throws(() => replaceTargetBlock(page, 'y', 'new'), { message: /the page has no block for y/ });
});
