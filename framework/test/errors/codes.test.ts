import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { CODE as CODES, errors } from '../../src/errors/factories';
import {
  ArgumentException,
  BadRequestException,
  ConflictException,
  ERROR_CODES,
  ForbiddenException,
  GoneException,
  InternalServerErrorException,
  MethodNotAllowedException,
  NotAcceptableException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  TooManyRequestsException,
  UnauthorizedException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
  RegistrationError,
  WebApplicationException,
  WebSocketUpgradeRefused,
  describeErrorCode,
} from '../../src/index';

const FRAMEWORK = path.resolve(__dirname, '../../..');
const SRC = path.join(FRAMEWORK, 'src');
const DOCS = path.resolve(FRAMEWORK, '../docs');
const TABLE_PAGE = path.join(DOCS, 'reference', 'error-codes.md');
const CODE = /RU_(?:ERR|HTTP)_[A-Z0-9_]*[A-Z0-9]/g;

function files(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(full, ext));
    else if (e.name.endsWith(ext)) out.push(full);
  }
  return out;
}

/** Files that may build errors without a factory, with why. */
const UNCODED_ALLOWED: Record<string, string> = {
  // The test double imitates uWebSockets.js's own errors, message for message.
  'testing/fake-uws.ts': "uWebSockets.js's errors",
};

/** Codes written in framework/src, by code, with where (codes.ts itself left out). */
function codesInSource(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files(SRC, '.ts')) {
    if (file.endsWith(path.join('errors', 'codes.ts'))) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(CODE)) {
      const where = found.get(m[0]) ?? [];
      where.push(path.relative(SRC, file));
      found.set(m[0], where);
    }
  }
  return found;
}

/** The rows of the table in docs/reference/error-codes.md: code -> [status, title]. */
function documentedRows(): Map<string, [string, string]> {
  const rows = new Map<string, [string, string]>();
  for (const line of fs.readFileSync(TABLE_PAGE, 'utf8').split('\n')) {
    const m = /^\| `(RU_ERR_[A-Z0-9_]+)` \| ([^|]+) \| (.+) \|$/.exec(line);
    if (m) rows.set(m[1]!, [m[2]!.trim(), m[3]!.trim()]);
  }
  return rows;
}

const registry = Object.keys(ERROR_CODES);

/** The Status column of the docs table: the status answered, else what the app's code is thrown. */
function statusColumn(entry: (typeof ERROR_CODES)[keyof typeof ERROR_CODES]): string {
  if (entry.status !== null) return String(entry.status);
  return (
    { type: 'TypeError', range: 'RangeError', error: 'Error', argument: 'argument' }[entry.type!] ?? 'registration'
  );
}

test('every code the framework throws is in the registry (errors/codes.ts)', (t) => {
  const unknown = [...codesInSource()]
    .filter(([code]) => code !== 'RU_HTTP_' && !registry.includes(code))
    .map(([code, where]) => `${code} (${where.join(', ')})`);
  t.deepEqual(unknown, [], `codes thrown but missing from ERROR_CODES:\n${unknown.join('\n')}`);
});

test('every code in the registry is thrown somewhere', (t) => {
  const used = codesInSource();
  t.deepEqual(
    registry.filter((code) => !used.has(code)),
    [],
    'codes in ERROR_CODES that no code throws',
  );
});

test('docs/reference/error-codes.md lists exactly the registry, with its statuses and titles', (t) => {
  const rows = documentedRows();
  t.deepEqual([...rows.keys()].sort(), [...registry].sort());
  for (const code of registry) {
    const entry = ERROR_CODES[code as keyof typeof ERROR_CODES];
    t.deepEqual(rows.get(code), [statusColumn(entry), entry.title], code);
  }
});

test('no page of docs/ names a code that does not exist', (t) => {
  const stale: string[] = [];
  for (const file of files(DOCS, '.md')) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(CODE)) {
      if (m[0].startsWith('RU_HTTP_')) continue;
      if (!registry.includes(m[0])) stale.push(`${m[0]} in ${path.relative(DOCS, file)}`);
    }
  }
  t.deepEqual(stale, []);
});

test('each HTTP error class answers the status its code has in the registry', (t) => {
  const classes = [
    BadRequestException,
    UnauthorizedException,
    ForbiddenException,
    NotFoundException,
    MethodNotAllowedException,
    NotAcceptableException,
    ConflictException,
    GoneException,
    PayloadTooLargeException,
    UnsupportedMediaTypeException,
    UnprocessableEntityException,
    TooManyRequestsException,
    InternalServerErrorException,
    ServiceUnavailableException,
  ];
  for (const ErrorClass of classes) {
    const error = new ErrorClass();
    t.is(describeErrorCode(error.code)?.status, error.status, ErrorClass.name);
  }
  t.is(describeErrorCode('E_SOMETHING_ELSE'), undefined);
  t.is(describeErrorCode('toString'), undefined);
});

/** What the syntax tree of each framework file says about how it builds errors. */
function errorSites(): { literals: string[]; uncoded: string[] } {
  const literals: string[] = [];
  const uncoded: string[] = [];
  // Built-in errors, and rest.uws's error classes: both only through a code's factory.
  const constructors = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'URIError', 'EvalError']);
  for (const name of Object.keys(require('../../src/errors/http-errors'))) constructors.add(name);
  for (const file of files(SRC, '.ts')) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    if (rel.startsWith('errors/')) continue;
    const text = fs.readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) => `${rel}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (
        ts.isStringLiteralLike(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)
      ) {
        for (const m of node.text.matchAll(CODE_TOKEN)) literals.push(`${m[0]} at ${where(node)}`);
      }
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && constructors.has(node.expression.text)) {
        if (UNCODED_ALLOWED[rel] === undefined) uncoded.push(`new ${node.expression.text} at ${where(node)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literals, uncoded };
}
const CODE_TOKEN = /RU_(?:ERR|HTTP)_[A-Z0-9_]*[A-Z0-9]/g;

test('the framework builds every error through a code factory: no error without a code', (t) => {
  const { uncoded } = errorSites();
  t.deepEqual(uncoded, [], `errors built without a factory of errors/factories.ts:\n${uncoded.join('\n')}`);
});

/**
 * Error classes declared outside errors/, with why each is not a framework error without a code: the compilers'
 * signals, caught where they are thrown; an error applications throw; a test helper's error, which has its code.
 */
const OUTSIDE_ERRORS: Record<string, string> = {
  NotSimple: 'json-one-pass.ts: a class the one-pass validation leaves to the two passes (caught in the same file)',
  NotCompilable: 'validator-compiler.ts: a class left to class-validator (caught by compiled-validation.ts)',
  NotTransformable: 'transform-types.ts: a class left to class-transformer (caught by compiled-transform.ts)',
  WebSocketCloseException: 'thrown by an application to close its WebSocket with a close code; never by the framework',
  WebSocketUpgradeRefused: 'connectWebSocket() rejects with it in tests: code RU_ERR_WEBSOCKET_REFUSED (checked below)',
};

test('an error class declared outside errors/ is one of those named, with why', (t) => {
  const declared: string[] = [];
  for (const file of files(SRC, '.ts')) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    if (rel.startsWith('errors/')) continue;
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isClassLike(node)) {
        for (const clause of node.heritageClauses ?? []) {
          for (const type of clause.types) {
            const base = type.expression.getText(source);
            if (/(?:Error|Exception)$/.test(base)) declared.push(`${node.name?.text ?? '(anonymous)'} in ${rel}`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  t.deepEqual(
    declared.filter((d) => OUTSIDE_ERRORS[d.split(' ')[0]!] === undefined),
    [],
    'error classes outside errors/: declare them in errors/ with a code, or name one here with why',
  );
  t.is(declared.length, Object.keys(OUTSIDE_ERRORS).length, `each named class is still there: ${declared.join(', ')}`);
  const refused = new WebSocketUpgradeRefused(403, {}, '');
  t.is(refused.code, CODES.RU_ERR_WEBSOCKET_REFUSED);
  const sources = files(SRC, '.ts').map((file) => fs.readFileSync(file, 'utf8'));
  t.false(
    sources.some((text) => /new WebSocketCloseException\b/.test(text)),
    'the framework never throws WebSocketCloseException',
  );
});

test('codes are written as literals only in the table: elsewhere a factory or CODE names them', (t) => {
  const { literals } = errorSites();
  t.deepEqual(literals, [], `code literals outside errors/:\n${literals.join('\n')}`);
});

test('one factory per code: each builds its code, with the status and class of the table', (t) => {
  t.deepEqual(Object.keys(errors).sort(), [...registry].sort());
  for (const code of registry as (keyof typeof errors)[]) {
    const { status, type } = ERROR_CODES[code];
    const error: Error & { code?: string; status?: number } = errors[code]('what went wrong', { cause: 'why' });
    t.is(error.code, code);
    t.is(CODES[code], code);
    t.is(error.message, 'what went wrong', code);
    t.is(error.cause, 'why', code);
    t.true(error.stack?.split('\n')[1]?.includes('codes.test') ?? false, `${code}: the stack starts at the throw`);
    if (type === 'argument') t.true(error instanceof ArgumentException, code);
    else if (type === 'type') t.true(error instanceof TypeError, code);
    else if (type === 'range') t.true(error instanceof RangeError, code);
    else if (type === 'error') t.is(Object.getPrototypeOf(error), Error.prototype, code);
    else if (status === null) t.true(error instanceof RegistrationError, code);
    if (status === null) t.false(error instanceof WebApplicationException, code);
    else {
      t.true(error instanceof WebApplicationException, code);
      t.is(error.status, status, code);
    }
  }
});

test('an HTTP code factory gives the class of its status, its default message, and the headers it is given', (t) => {
  const cors = errors.RU_ERR_CORS();
  t.true(cors instanceof ForbiddenException);
  t.is(cors.message, 'HTTP 403 Forbidden');
  const limited = errors.RU_ERR_RATE_LIMITED('slow down', { headers: { 'Retry-After': '3' } });
  t.true(limited instanceof TooManyRequestsException);
  t.deepEqual(limited.headers, { 'Retry-After': '3' });
  const range = errors.RU_ERR_RANGE_NOT_SATISFIABLE('no such bytes');
  t.is(range.constructor, WebApplicationException);
  t.is(range.status, 416);
});
