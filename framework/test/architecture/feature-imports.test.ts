import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { SRC, sourceFiles } from './source-files';

/**
 * The built-in plugins are written as an adopter's plugin is: a file under framework/src/features/ imports only
 * files of its own feature folder, the public entry points (`index.ts`, `rest.uws`; `plugin.ts`, `rest.uws/plugin`)
 * and packages (npm, `node:`). Type-only imports, re-exports, `import()` types and `require` count too: a plugin
 * author cannot reach an internal type either. What two features share is the core's, exported by `plugin.ts`.
 */
const ENTRY_POINTS = new Set([path.join(SRC, 'index.ts'), path.join(SRC, 'plugin.ts')]);
const FEATURES = path.join(SRC, 'features');

/** Every module specifier a file names, with its line. */
function specifiersOf(file: string, text: string): Array<{ spec: string; line: number }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Array<{ spec: string; line: number }> = [];
  const add = (node: ts.Node, literal: ts.Expression | undefined) => {
    if (literal !== undefined && ts.isStringLiteralLike(literal))
      out.push({ spec: literal.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node, node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      add(node, node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function resolve(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate)) return candidate;
  return `${base}.ts`;
}

/** Why `spec`, imported by the feature file `file`, is not one a plugin author could write; undefined when it is. */
export function refusal(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined; // a package, or node:
  const target = resolve(file, spec);
  if (ENTRY_POINTS.has(target)) return undefined;
  const feature = path.join(FEATURES, path.relative(FEATURES, file).split(path.sep)[0]!);
  if (target.startsWith(feature + path.sep)) return undefined;
  const where = path.relative(SRC, target);
  return where.startsWith(`features${path.sep}`) ? `another feature (${where})` : `an internal module (${where})`;
}

function violations(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(FEATURES)) {
    for (const { spec, line } of specifiersOf(file, fs.readFileSync(file, 'utf8'))) {
      const why = refusal(file, spec);
      if (why !== undefined) out.push(`${path.relative(SRC, file)}:${line} imports ${spec}: ${why}`);
    }
  }
  return out;
}

test('every feature imports only its own files, rest.uws, rest.uws/plugin and packages', (t) => {
  const wrong = violations();
  t.deepEqual(wrong, [], `features reaching past the public API:\n${wrong.join('\n')}`);
});

test('the check reads every feature, and refuses internals, other features and type-only imports alike', (t) => {
  // A guard against a checker that passes because it reads nothing.
  const files = sourceFiles(FEATURES);
  t.true(files.length > 100);
  t.true(files.some((f) => specifiersOf(f, fs.readFileSync(f, 'utf8')).some((s) => s.spec.endsWith('/plugin'))));
  const cors = path.join(FEATURES, 'cors', 'cors-plugin.ts');
  t.is(refusal(cors, '../../plugin'), undefined);
  t.is(refusal(cors, '../../index'), undefined);
  t.is(refusal(cors, './cors-options'), undefined);
  t.is(refusal(cors, 'node:crypto'), undefined);
  t.regex(refusal(cors, '../../http/internal') ?? '', /internal module/);
  t.regex(refusal(cors, '../security') ?? '', /another feature/);
  const typeOnly = specifiersOf(
    cors,
    "import type { X } from '../../pipeline/plugin';\ntype Y = import('../../io/registry').Provided<1>;",
  );
  t.deepEqual(
    typeOnly.map((s) => refusal(cors, s.spec) !== undefined),
    [true, true],
  );
});
