import path from 'node:path';
import test from 'ava';
import { parseDatabaseUrl, redactDatabaseUrl } from '../src/index';

test('an empty URL, :memory: and sqlite::memory: open SQLite in memory', (t) => {
  for (const url of [undefined, '', ':memory:', 'sqlite::memory:']) {
    t.deepEqual(parseDatabaseUrl(url), { dialect: 'sqlite', file: ':memory:' }, `for ${String(url)}`);
  }
});

test('file paths and sqlite: URLs resolve to absolute SQLite files', (t) => {
  t.deepEqual(parseDatabaseUrl('data/app.db'), { dialect: 'sqlite', file: path.resolve('data/app.db') });
  t.deepEqual(parseDatabaseUrl('sqlite:data/app.db'), { dialect: 'sqlite', file: path.resolve('data/app.db') });
  t.deepEqual(parseDatabaseUrl('sqlite:///var/lib/app.db'), { dialect: 'sqlite', file: '/var/lib/app.db' });
  t.deepEqual(parseDatabaseUrl('file:/tmp/x.db'), { dialect: 'sqlite', file: '/tmp/x.db' });
});

test('postgres:// and postgresql:// URLs select PostgreSQL', (t) => {
  t.deepEqual(parseDatabaseUrl('postgres://u:p@h:5432/db'), {
    dialect: 'postgres',
    connectionString: 'postgres://u:p@h:5432/db',
  });
  t.is(parseDatabaseUrl('postgresql://h/db').dialect, 'postgres');
});

test('an unknown scheme is refused with a message naming the URL', (t) => {
  const error = t.throws(() => parseDatabaseUrl('mysql://h/db'));
  t.regex(error!.message, /mysql:\/\/h\/db.*unsupported scheme/);
});

test('redactDatabaseUrl hides the password only', (t) => {
  t.is(redactDatabaseUrl('postgres://app:secret@127.0.0.1:5432/db'), 'postgres://app:***@127.0.0.1:5432/db');
  t.is(redactDatabaseUrl('postgres://app@127.0.0.1/db'), 'postgres://app@127.0.0.1/db');
  t.is(redactDatabaseUrl('/data/app.db'), '/data/app.db');
});
