/**
 * Figures kept as data: every table block of docs/ is what its data file renders, every data file is shown by a page,
 * and a figure changed in the data is a difference the check sees.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readTableData, renderTable, renderTablesInto, tableBlocks, tableDataFrom } from '../src/doc-tables';
import { DOCS, docPages, REPOSITORY } from '../src/markdown-pages';

const DATA = path.join(REPOSITORY, 'benchmarks', 'results', 'data');
const blocks = docPages().flatMap((page) =>
  tableBlocks(fs.readFileSync(path.join(DOCS, page), 'utf8')).map((block) => ({ page, ...block })),
);

test('every table of figures in docs/ is the one its data file makes (npm run docs:tables writes them)', (t) => {
  t.true(blocks.length >= 10, `only ${blocks.length} table blocks`);
  const differing = blocks
    .filter((block) => block.shown !== renderTable(readTableData(REPOSITORY, block.dataFile)))
    .map((block) => `docs/${block.page}: ${block.dataFile}`);
  t.deepEqual(differing, []);
});

test('every data file of benchmarks/results/data is shown by a page', (t) => {
  const shown = new Set(blocks.map((block) => path.resolve(REPOSITORY, block.dataFile)));
  const unshown = fs
    .readdirSync(DATA)
    .filter((name) => name.endsWith('.json'))
    .filter((name) => !shown.has(path.join(DATA, name)));
  t.deepEqual(unshown, []);
});

test('a figure changed in the data changes the page; a table read back gives the same data', (t) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-tables-'));
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }));
  const data = {
    measured: 'a test',
    columns: ['server', 'req/s', 'note'],
    align: ['left', 'right', 'left'] as Array<'left' | 'right'>,
    rows: [
      ['raw', 150057, 'a | pipe'],
      ['rest.uws', 148055, ''],
    ],
  };
  fs.writeFileSync(path.join(folder, 'd.json'), JSON.stringify(data));
  const page = '# Page\n\n<!-- table:start data="d.json" -->\n| stale |\n<!-- table:end -->\n';
  const written = renderTablesInto(page, folder);
  t.true(written.includes('| raw | 150057 | a \\| pipe |'));
  t.deepEqual(tableDataFrom(renderTable(data), 'a test'), data);
  data.rows[0][1] = 149000;
  fs.writeFileSync(path.join(folder, 'd.json'), JSON.stringify(data));
  t.not(renderTablesInto(written, folder), written);
  t.throws(() => readTableData(folder, 'missing.json'));
  fs.writeFileSync(path.join(folder, 'bad.json'), JSON.stringify({ ...data, rows: [['one cell']] }));
  t.throws(() => readTableData(folder, 'bad.json'), { message: /row 1 has 1 cells for 3 columns/ });
});
