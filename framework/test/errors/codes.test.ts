import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import {
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
    t.deepEqual(rows.get(code), [entry.status === null ? 'registration' : String(entry.status), entry.title], code);
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
