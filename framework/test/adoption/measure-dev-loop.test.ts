/**
 * The dev-loop measurement docs/getting-started.md quotes runs as a user runs it: packages/create-rest-uws/scripts/
 * measure-dev-loop.mjs packs both packages, creates and installs a project, starts npm run dev, times an edit until
 * the change is served and prints the time, the median and the machine. The figure itself is not judged here (a
 * test run shares the machine with the whole suite): that it is measured and said is.
 */
import test from 'ava';
import * as path from 'node:path';
import { repositoryDir, run } from './support/adopter-project';

test('measure-dev-loop.mjs creates a project, times an edit until it is served, and names the machine', async (t) => {
  t.timeout(300_000);
  const script = path.join(repositoryDir, 'packages', 'create-rest-uws', 'scripts', 'measure-dev-loop.mjs');
  const result = await run(process.execPath, [script, '--edits', '2', '--pause-ms', '0'], repositoryDir, {}, 300_000);
  t.is(result.code, 0, result.output);
  t.regex(result.output, /^npm run dev served its first answer after \d+ ms$/m);
  t.regex(result.output, /^edit 1: the new answer was served \d+ ms after the save$/m);
  t.regex(result.output, /^edit 2: the new answer was served \d+ ms after the save$/m);
  t.regex(result.output, /^median of 2 edits: \d+ ms \(each: \d+, \d+ ms\)$/m);
  t.regex(result.output, /^machine: .+, \d+ cores, \d+ GiB, load average [\d. ]+, Node v\d+\.\d+\.\d+, \w+ /m);
  t.regex(result.output, /\[dev\] src\/todo\.ts changed: restarted in \d+ ms/);
});
