import test from 'ava';
import { parseOptions } from '../src/cli/options';
import { CHARTS_DIR } from '../src/paths';

test('a run that writes no doc puts its charts beside its raw results, leaving the committed charts alone', (t) => {
  t.is(parseOptions([]).chartsDir, CHARTS_DIR);
  const quiet = parseOptions(['--no-doc', '--results-dir', '/tmp/bench-results']);
  t.is(quiet.docPath, undefined);
  t.is(quiet.chartsDir, '/tmp/bench-results');
  t.is(parseOptions(['--no-doc', '--charts-dir', '/tmp/my-charts']).chartsDir, '/tmp/my-charts');
});

test('--baseline names a checkout whose rest.uws runs beside this one; it needs a folder', (t) => {
  t.is(parseOptions([]).baseline, undefined);
  t.is(parseOptions(['--baseline', '/tmp/rest-uws-before']).baseline, '/tmp/rest-uws-before');
  t.is(parseOptions(['--baseline=/tmp/x']).baseline, '/tmp/x');
  t.throws(() => parseOptions(['--baseline']), { message: /--baseline needs the folder of a built checkout/ });
});
