import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { SRC, sourceFiles } from './source-files';

/**
 * No file of framework/src reaches into another class's `_fields`: per-request state has one owner, and
 * other files go through the owner's public methods or the framework's own symbols (`http/internal.ts`, in the
 * style of Fastify's lib/symbols.js). A grep-level check: a file may write `x._name` only when it defines
 * `_name` itself (a field, method or property key of its own, which `this._name` needs anyway).
 */

/** The accesses that stay, each with why: file (under src), member, reason. */
const ALLOWED: ReadonlyArray<{ file: string; member: string; why: string }> = [
  {
    file: 'features/validation/compiled/transform-compiler.ts',
    member: '_typeMetadatas',
    why: "class-transformer's own metadata map: the package has no public way to list a class's decorated properties (internals.ts checks its version)",
  },
  {
    file: 'features/validation/compiled/transform-compiler.ts',
    member: '_transformMetadatas',
    why: "class-transformer's own metadata map, as above",
  },
];

/**
 * The code of a file without its comments and the text of its strings (newlines kept, for line numbers); a quoted
 * `'_name'` stays, as a key in brackets. Template literals keep their `${...}` code.
 */
function code(text: string): string {
  let out = '';
  const open: string[] = []; // '`': inside a template's text; '{': inside code (a template's ${...}, or a block in it)
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (open[open.length - 1] === '`') {
      if (c === '\\') i += 2;
      else if (c === '`') open.pop(), (out += '`'), i++;
      else if (c === '$' && next === '{') open.push('{'), (out += '${'), (i += 2);
      else (out += c === '\n' ? '\n' : ''), i++;
      continue;
    }
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      const literal = text.slice(i, j + 1);
      out += /^['"]_[A-Za-z]\w*['"]$/.test(literal) ? literal : "''";
      i = j + 1;
    } else {
      if (c === '`') open.push('`');
      else if (c === '{' && open.length > 0) open.push('{');
      else if (c === '}' && open[open.length - 1] === '{') open.pop();
      out += c;
      i++;
    }
  }
  return out;
}

/** `_names` a file reads or writes on something other than `this`: `x._name`, `x?._name`, `x['_name']`. */
function foreignAccesses(text: string): Array<{ member: string; line: number }> {
  const source = code(text);
  const defined = new Set<string>();
  // A declaration or property key: `_name` not after a dot (class members, object keys, parameters).
  for (const m of source.matchAll(/(?<![.\w$'"])(_[A-Za-z]\w*)\s*[?!]?\s*[:=(<;,]/g)) defined.add(m[1]!);
  const found: Array<{ member: string; line: number }> = [];
  const accesses = /(?<!\bthis)(?:\?\.|\.)(_[A-Za-z]\w*)\b|\[\s*['"](_[A-Za-z]\w*)['"]\s*\]/g;
  for (const m of source.matchAll(accesses)) {
    const member = (m[1] ?? m[2])!;
    if (defined.has(member)) continue;
    found.push({ member, line: source.slice(0, m.index).split('\n').length });
  }
  return found;
}

test('no file of framework/src accesses an underscore member it does not define (allow-list aside)', (t) => {
  const offences: string[] = [];
  const used = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    for (const { member, line } of foreignAccesses(fs.readFileSync(file, 'utf8'))) {
      const allowed = ALLOWED.find((a) => a.file === rel && a.member === member);
      if (allowed !== undefined) used.add(`${rel} ${member}`);
      else
        offences.push(
          `${rel}:${line} reaches into ${member}, which it does not define: use the owner's method or a symbol of http/internal.ts`,
        );
    }
  }
  t.deepEqual(offences, []);
  const stale = ALLOWED.filter((a) => !used.has(`${a.file} ${a.member}`)).map((a) => `${a.file} ${a.member}`);
  t.deepEqual(stale, [], 'allow-list entries no file needs any more');
});

test("the check sees the accesses it is meant to refuse, and not a file's own members", (t) => {
  const foreign = 'function f(r: Res) {\n  r._live = false;\n  return ctx.request?._body ?? x["_headers"];\n}\n';
  t.deepEqual(foreignAccesses(foreign), [
    { member: '_live', line: 2 },
    { member: '_body', line: 3 },
    { member: '_headers', line: 3 },
  ]);
  const own =
    'class A {\n  private _n = 1;\n  _m(): void {}\n  same(other: A) { return this._n + other._n; }\n  call() { this._m(); }\n}\n';
  t.deepEqual(foreignAccesses(own), []);
  t.deepEqual(
    foreignAccesses('// r._live = false;\n/* x._body */\nconst url = "http://a._b";\nconst s = `a._b ${"x"}`;\n'),
    [],
  );
  t.deepEqual(foreignAccesses("const s = `text ${r._live} text`;\n// it's\nq._n;\n"), [
    { member: '_live', line: 1 },
    { member: '_n', line: 3 },
  ]);
});
