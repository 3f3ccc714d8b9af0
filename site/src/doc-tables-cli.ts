/**
 * `npm run docs:tables`: writes every table block of docs/ from its data file. `--check` writes nothing and exits 1
 * when a page's table differs from its data (what the test checks too).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderTablesInto } from './doc-tables';
import { DOCS, docPages, REPOSITORY } from './markdown-pages';

const check = process.argv.includes('--check');
let differing = 0;
for (const page of docPages()) {
  const file = path.join(DOCS, page);
  const before = fs.readFileSync(file, 'utf8');
  const after = renderTablesInto(before, REPOSITORY);
  if (after === before) continue;
  differing++;
  if (check) console.log(`docs/${page}: a table differs from its data`);
  else {
    fs.writeFileSync(file, after);
    console.log(`wrote docs/${page}`);
  }
}
if (check && differing > 0) process.exit(1);
