/**
 * The migration guide's table of differences from rest.vertx: every row names a test (`file › title`) and
 * that test exists, so a row cannot point at nothing and a renamed test cannot leave the guide behind.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repository = path.resolve(__dirname, '..', '..', '..', '..');
const guide = fs.readFileSync(path.join(repository, 'docs', 'migrating-from-rest-vertx-and-jax-rs.md'), 'utf8');

function differenceRows(): string[][] {
  const section = guide.slice(guide.indexOf('## Differences that stay'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| rest.vertx |'))
    .map((line) => line.slice(2, -2).split(' | '));
}

test('the guide has the difference table, and every row names its reason and an existing test', (t) => {
  const rows = differenceRows();
  t.true(rows.length >= 20, `${rows.length} rows`);
  for (const cells of rows) {
    t.is(cells.length, 4, cells.join(' | '));
    const [reference, ours, why, named] = cells as [string, string, string, string];
    t.true(reference.length > 0 && ours.length > 0 && why.length > 0, cells.join(' | '));
    const match = /^`([\w/-]+) › (.+)`$/.exec(named);
    t.truthy(match, `test cell of "${reference}": ${named}`);
    if (!match) continue;
    const file = path.join(repository, 'framework', 'test', `${match[1]}.test.ts`);
    t.true(fs.existsSync(file), `${match[1]}.test.ts exists`);
    // The formatter may put a long title on the line after `test(`, in either kind of quotes.
    const source = fs
      .readFileSync(file, 'utf8')
      .replace(/\\'/g, "'")
      .replace(/\b(test(?:\.serial)?)\(\s+/g, '$1(');
    const title = match[2];
    t.true(
      [`test('${title}'`, `test("${title}"`, `test.serial('${title}'`, `test.serial("${title}"`].some((s) =>
        source.includes(s),
      ),
      `${match[1]} has the test "${match[2]}"`,
    );
  }
});
