/**
 * Every TypeScript block of docs/ (and of the README) is compiled, as an adopter's project compiles it (strict, decorators with
 * metadata, rest.uws and its peers from the workspace), so a page cannot show code that no longer compiles. A block
 * that is a fragment on purpose says so in its fence (```ts fragment); blocks with `file=path` are one project per
 * page, at those paths, so they may import each other; `project=<page>` puts a block in another page's project.
 */
import test from 'ava';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { attribute, type CodeBlock, codeBlocks, docPages, REPOSITORY } from '../src/markdown-pages';

const TYPESCRIPT = new Set(['ts', 'typescript', 'mts', 'tsx']);
const OUT = path.join(REPOSITORY, 'site', 'dist', 'code-blocks');

// The README's sample is the first code a visitor reads: compiled with the pages' (as `docs/../README.md`).
const readme = codeBlocks('../README.md', fs.readFileSync(path.join(REPOSITORY, 'README.md'), 'utf8'));
const blocks = [...docPages().flatMap((page) => codeBlocks(page)), ...readme];
const compiled = blocks.filter((block) => TYPESCRIPT.has(block.lang) && !block.attributes.includes('fragment'));

/**
 * Where a block is written: its `file=` path in its page's project (or in another page's, `project=getting-started`:
 * then it may import that page's files), else a module of its own.
 */
function fileOf(block: CodeBlock): string {
  const project = path.join(OUT, attribute(block, 'project') ?? block.page.replace(/\.md$/, ''));
  const file = attribute(block, 'file');
  return file ? path.join(project, file) : path.join(project, `line-${block.line}.ts`);
}

test('every TypeScript block of docs/ compiles, or is marked as a fragment', (t) => {
  fs.rmSync(OUT, { recursive: true, force: true });
  const where = new Map<string, CodeBlock>();
  for (const block of compiled) {
    const file = fileOf(block);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // A block without import or export is a script: made a module, so its names stay its own.
    const isModule = /^\s*(import|export)\s/m.test(block.code);
    fs.writeFileSync(file, isModule ? `${block.code}\n` : `${block.code}\nexport {};\n`);
    where.set(path.resolve(file), block);
  }
  const program = ts.createProgram([...where.keys()], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: false,
  });
  const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const block = diagnostic.file ? where.get(path.resolve(diagnostic.file.fileName)) : undefined;
    if (!block || !diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `docs/${block.page}:${block.line + 1 + line}: TS${diagnostic.code}: ${message}`;
  });
  t.deepEqual(problems, [], problems.join('\n'));
  t.true(compiled.length >= 30, `only ${compiled.length} TypeScript blocks found`);
});

test('a block that imports rest.uws says it is TypeScript', (t) => {
  const unlabelled = blocks.filter(
    (block) => (block.lang === '' || block.lang === 'js') && /from ['"]rest\.uws['"]|^\s*@[A-Z]\w*\(/m.test(block.code),
  );
  t.deepEqual(
    unlabelled.map((block) => `docs/${block.page}:${block.line}`),
    [],
    'label these fences ts (or ts fragment)',
  );
});
