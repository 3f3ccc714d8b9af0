import test from 'ava';
import { parseOptions } from '../src/cli/options';
import { sliceDurations } from '../src/runner/run-benchmark';
import * as path from 'node:path';
import { CHARTS_DIR } from '../src/paths';

test('a run that writes no doc puts its charts beside its raw results, leaving the committed charts alone', (t) => {
  t.is(parseOptions([]).chartsDir, CHARTS_DIR);
  const quiet = parseOptions(['--no-doc', '--results-dir', '/tmp/bench-results']);
  t.is(quiet.docPath, undefined);
  t.is(quiet.chartsDir, '/tmp/bench-results');
  t.is(parseOptions(['--no-doc', '--charts-dir', '/tmp/my-charts']).chartsDir, '/tmp/my-charts');
});

test('a run writes the results page, a cost run the costs page, unless --doc names another', (t) => {
  const docs = path.join(path.dirname(CHARTS_DIR), '..', 'docs', 'benchmarks');
  t.is(parseOptions([]).docPath, path.join(docs, 'results.md'));
  t.is(parseOptions(['--costs']).docPath, path.join(docs, 'costs.md'));
  t.is(parseOptions(['--costs', '--doc', '/tmp/mine.md']).docPath, '/tmp/mine.md');
});

test('--costs takes its own defaults unless told otherwise; --rows needs --costs; servers run from a baseline need --baseline', (t) => {
  const costs = parseOptions(['--costs']);
  t.deepEqual([costs.rounds, costs.durationSec, costs.warmupSec, costs.modes], [5, 3, 1, ['pipelined']]);
  const told = parseOptions(['--costs', '--rounds', '7', '--modes', 'plain,pipelined', '--rows', 'produces-one,auth']);
  t.deepEqual([told.rounds, told.modes, told.rows], [7, ['plain', 'pipelined'], ['produces-one', 'auth']]);
  t.throws(() => parseOptions(['--rows', 'auth']), {
    message: /--rows selects rows of the cost table: use it with --costs/,
  });
  t.throws(() => parseOptions(['--servers', 'rest-uws,rest-uws@before']), {
    message: /servers ending in @before run from the checkout given with --baseline PATH/,
  });
  t.throws(() => parseOptions(['--baseline', '/nonexistent-checkout']), {
    message: /--baseline needs a checkout of this repository whose benchmarks are built/,
  });
  const checkout = path.resolve(__dirname, '..', '..', '..');
  const before = parseOptions(['--servers', 'raw-uws,rest-uws@before', '--baseline', checkout]);
  t.deepEqual([before.servers, before.baseline], [['raw-uws', 'rest-uws@before'], checkout]);
  t.is(parseOptions([]).baseline, undefined);
  t.is(parseOptions([`--baseline=${checkout}`]).baseline, checkout);
  t.throws(() => parseOptions(['--baseline']), {
    message: /--baseline needs a checkout of this repository whose benchmarks are built \(npx tsc -b\), got nothing/,
  });
});

test('--slice cuts the measured time into turns; a last short turn joins the one before', (t) => {
  t.is(parseOptions([]).sliceSec, 2);
  t.is(parseOptions(['--slice', '0']).sliceSec, 0);
  t.deepEqual(sliceDurations(6, 2), [2, 2, 2]);
  t.deepEqual(sliceDurations(5, 2), [2, 3]);
  t.deepEqual(sliceDurations(1, 2), [1]);
  t.deepEqual(sliceDurations(3, 1), [1, 1, 1]);
});
