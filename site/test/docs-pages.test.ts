/**
 * The pages of docs/ as a reader meets them: no history of the project's work in them, short enough to skim, each
 * reference page naming the tests that show what it promises (and every test named anywhere still existing), and
 * the README's quick start the same as the guide's.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codeBlocks, DOCS, docPages, REPOSITORY } from '../src/markdown-pages';

const read = (page: string) => fs.readFileSync(path.join(DOCS, page), 'utf8');

/** Blocks a program writes (the harness's results, the data tables): not counted in a page's length. */
const GENERATED = /<!-- ([\w-]+(?::[\w-]+)*):start[^>]*-->[\s\S]*?<!-- \1:end[^>]*-->/g;

test('no page speaks of sessions, issues or rounds of the work that made it', (t) => {
  const found: string[] = [];
  for (const page of docPages()) {
    read(page)
      .split('\n')
      .forEach((line, i) => {
        if (/session [0-9]|issues? [0-9]|round of|engineers' jobs|other engineers/i.test(line))
          found.push(`docs/${page}:${i + 1}: ${line.trim()}`);
      });
  }
  t.deepEqual(found, [], 'history belongs in the CHANGELOG and in commit messages');
});

test('every nginx proxy in the docs sets or clears each forwarding header the apps trust', (t) => {
  // A header nginx does not set passes through as the client wrote it: with --trust-proxy an app would take a
  // client's own X-Forwarded-Host for its links (docs/deployment.md runs one such block against forged headers).
  const unsafe: string[] = [];
  for (const page of docPages()) {
    for (const block of codeBlocks(page).filter((b) => b.lang === 'nginx' && b.code.includes('proxy_pass'))) {
      const sets = (header: string, value: RegExp) =>
        new RegExp(`proxy_set_header\\s+${header}\\s+${value.source};`).test(block.code);
      const missing = [
        sets('X-Forwarded-For', /\$proxy_add_x_forwarded_for/) ? '' : 'X-Forwarded-For',
        sets('X-Forwarded-Proto', /\$scheme/) ? '' : 'X-Forwarded-Proto',
        sets('X-Forwarded-Host', /\$server_name|"[\w.-]+"/) ? '' : 'X-Forwarded-Host',
        sets('Forwarded', /""/) ? '' : 'Forwarded ""',
        sets('Host', /\$host/) ? "Host $host (the client's)" : '',
      ].filter(Boolean);
      if (missing.length > 0) unsafe.push(`docs/${page}:${block.line}: ${missing.join(', ')}`);
    }
  }
  t.deepEqual(unsafe, []);
});

test('no page holds the markers of an unresolved merge', (t) => {
  const marked = docPages().filter((page) => /^(<{7}|={7}|>{7})( |$)/m.test(read(page)));
  t.deepEqual(marked, []);
});

test('no page is longer than about 400 lines, generated tables aside', (t) => {
  const long = docPages()
    .map((page) => [page, read(page).replace(GENERATED, '').split('\n').length] as const)
    .filter(([, lines]) => lines > 420)
    .map(([page, lines]) => `docs/${page}: ${lines} lines`);
  t.deepEqual(long, [], 'split these pages');
});

test('every reference page names the tests that show what it promises', (t) => {
  const silent = docPages()
    .filter((page) => page.startsWith('reference/'))
    .filter((page) => !/\b(framework|reference-apps|benchmarks|packages|site)\/[\w./-]+\.test\.ts\b/.test(read(page)));
  t.deepEqual(silent, [], 'add a "Tests:" line naming the test files');
});

test('every reference page has an Errors section, then a Limits section', (t) => {
  const missing: string[] = [];
  for (const page of docPages().filter((p) => p.startsWith('reference/'))) {
    const headings = read(page)
      .split('\n')
      .filter((line) => line.startsWith('## '))
      .map((line) => line.slice(3).trim());
    const errors = headings.indexOf('Errors');
    const limits = headings.indexOf('Limits');
    // The error code table is the Errors of every page: it needs only its Limits.
    if (errors < 0 && page !== 'reference/error-codes.md') missing.push(`docs/${page}: no "## Errors"`);
    if (limits < 0) missing.push(`docs/${page}: no "## Limits"`);
    else if (errors > limits) missing.push(`docs/${page}: "## Limits" comes before "## Errors"`);
  }
  t.deepEqual(missing, [], 'a reader looks for what a feature can raise and what it does not do under these headings');
});

test('every test file a page names exists', (t) => {
  const missing: string[] = [];
  for (const page of docPages()) {
    const text = read(page);
    for (const match of text.matchAll(
      /`?((?:framework|reference-apps|benchmarks|packages|site)\/[\w./-]+\.test\.ts)/g,
    )) {
      if (!fs.existsSync(path.join(REPOSITORY, match[1]))) missing.push(`docs/${page}: ${match[1]}`);
    }
    // "test/x.test.ts in reference-apps/<app>": the app's own tests, named relative to it.
    const app = /in `reference-apps\/([\w-]+)`/.exec(text)?.[1];
    if (app) {
      for (const match of text.matchAll(/`(test\/[\w./-]+\.test\.ts)`/g)) {
        if (!fs.existsSync(path.join(REPOSITORY, 'reference-apps', app, match[1])))
          missing.push(`docs/${page}: reference-apps/${app}/${match[1]}`);
      }
    }
  }
  t.deepEqual(missing, []);
});

/** The shell commands of one README section. */
function readmeCommands(title: string): string[] {
  const readme = fs.readFileSync(path.join(REPOSITORY, 'README.md'), 'utf8');
  const section = new RegExp(`^## ${title}\\n([\\s\\S]*?)(?=^## )`, 'm').exec(readme)?.[1] ?? '';
  return codeBlocks('README.md', section)
    .filter((block) => block.lang === 'sh')
    .flatMap((block) => block.code.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

test("the README's quick start runs the apps and the whole suite, as CI does", (t) => {
  const commands = readmeCommands('Quick start');
  t.deepEqual(commands, ['npm ci && npm start', 'npm ci && npm test']);
  const ci = fs.readFileSync(path.join(REPOSITORY, '.ci', 'run'), 'utf8');
  t.true(ci.split('\n').includes('npm ci && npm test'), ".ci/run runs the README's test command");
});

test("the README's new-API commands are the getting-started guide's, in the same order", (t) => {
  const commands = readmeCommands('A new API of your own');
  t.true(commands.length >= 3, `the README's new-API section has ${commands.length} commands`);
  const guide = codeBlocks('getting-started.md')
    .filter((block) => block.lang === 'sh')
    .flatMap((block) => block.code.split('\n'))
    .map((line) => line.trim());
  let at = 0;
  for (const command of commands) {
    const found = guide.indexOf(command, at);
    t.true(found >= 0, `"${command}" is not in docs/getting-started.md after "${guide[at - 1] ?? 'the start'}"`);
    at = found + 1;
  }
});

test('the README says where the site runs locally', (t) => {
  const readme = fs.readFileSync(path.join(REPOSITORY, 'README.md'), 'utf8');
  t.regex(readme, /npm run docs:dev/);
  t.regex(readme, /http:\/\/localhost:5173\//);
});
