import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import test from 'ava';
import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import {
  migrateToLatest,
  openDatabase,
  postgresForTests,
  type AppMigration,
  type TestPostgresDatabase,
} from '../src/index';

interface NotesDB {
  note: { id: string; body: string; created_at: number; pinned: number };
}

const migrations: Record<string, AppMigration> = {
  '0001_notes': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('note')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('body', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
    },
  },
  '0002_pinned': {
    async up(db: Kysely<any>, dialect) {
      // The dialect is passed so a step may differ per engine.
      await db.schema
        .alterTable('note')
        .addColumn('pinned', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      await db
        .insertInto('note')
        .values({ id: `seed-${dialect}`, body: 'seeded', created_at: 1 })
        .execute();
    },
  },
};

let postgres: TestPostgresDatabase;
let tempDir: string;

test.before(async () => {
  postgres = await postgresForTests('support_open_database');
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'support-db-'));
});

test.after.always(async () => {
  await postgres?.close();
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
});

const engines = [
  {
    name: 'SQLite',
    url: () => path.join(tempDir, `notes-${Math.random().toString(36).slice(2)}.db`),
    dialect: 'sqlite',
  },
  { name: 'PostgreSQL', url: () => postgres.url, dialect: 'postgres' },
] as const;

for (const engine of engines) {
  test.serial(`${engine.name}: migrations apply once, in order, and data survives a reopen`, async (t) => {
    const url = engine.url();
    const first = await openDatabase<NotesDB>(url);
    t.is(first.dialect, engine.dialect);
    t.deepEqual(await migrateToLatest(first, migrations), ['0001_notes', '0002_pinned']);
    await first.db
      .insertInto('note')
      .values({ id: 'n1', body: 'hello', created_at: 1_700_000_000_123, pinned: 1 })
      .execute();
    await first.destroy();
    await first.destroy(); // twice is harmless

    const second = await openDatabase<NotesDB>(url);
    t.deepEqual(await migrateToLatest(second, migrations), [], 'nothing left to apply on the second start');
    const rows = await second.db.selectFrom('note').selectAll().orderBy('id').execute();
    t.deepEqual(rows, [
      { id: 'n1', body: 'hello', created_at: 1_700_000_000_123, pinned: 1 },
      { id: `seed-${engine.dialect}`, body: 'seeded', created_at: 1, pinned: 0 },
    ]);
    await second.db.deleteFrom('note').execute();
    await second.destroy();
  });

  test.serial(`${engine.name}: bigint, count(*) and numeric come back as numbers`, async (t) => {
    const database = await openDatabase(engine.url());
    const { rows } = await sql<{ total: unknown; big: unknown; amount: unknown }>`
      select count(*) as total, cast(9007199254740991 as bigint) as big, cast(12.5 as numeric) as amount`.execute(
      database.db,
    );
    t.deepEqual(rows[0], { total: 1, big: 9007199254740991, amount: 12.5 });
    await database.destroy();
  });

  test.serial(`${engine.name}: a failing migration stops with its name and the cause`, async (t) => {
    const database = await openDatabase(engine.url());
    const broken: Record<string, AppMigration> = {
      ...migrations,
      '0003_broken': { up: async (db) => void (await sql`create tabel nonsense ()`.execute(db)) },
    };
    const error = await t.throwsAsync(migrateToLatest(database, broken));
    await database.destroy();
    t.regex(error!.message, /migration "0003_broken" failed: .*syntax/i);
  });
}

test('SQLite file databases use WAL and a busy timeout; the parent folder is created', async (t) => {
  const file = path.join(tempDir, 'nested', 'deeper', 'app.db');
  const database = await openDatabase(`sqlite:${file}`);
  const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
  const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db);
  t.is(journal.rows[0].journal_mode, 'wal');
  t.true(busy.rows[0].timeout >= 1000);
  t.true(fs.existsSync(file));
  await database.destroy();
});

test('sqlite::memory: gives a private empty database', async (t) => {
  const a = await openDatabase('sqlite::memory:');
  const b = await openDatabase('sqlite::memory:');
  await sql`create table only_in_a (x integer)`.execute(a.db);
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(b.db);
  t.deepEqual(tables.rows, []);
  await a.destroy();
  await b.destroy();
});

test('an unreachable PostgreSQL fails at open with the cause', async (t) => {
  const error = await t.throwsAsync(openDatabase('postgres://nobody@127.0.0.1:1/none'));
  t.regex(error!.message, /Cannot connect to PostgreSQL: .*ECONNREFUSED/);
});

/**
 * A TCP proxy in front of the test PostgreSQL that swallows its first `stalled` connections (accepted, never
 * answered: the client's connect timeout fires) and forwards the later ones.
 */
async function stallingProxy(
  target: URL,
  stalled: number,
): Promise<{ url: string; accepted: () => number; close: () => Promise<void> }> {
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (++accepted <= stalled) return;
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target.href);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.href,
    accepted: () => accepted,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

test('PostgreSQL at start-up: a first connection that times out (a short pool connect timeout, a loaded server) is tried again', async (t) => {
  const proxy = await stallingProxy(new URL(postgres.url), 2);
  t.teardown(proxy.close);
  const database = await openDatabase<NotesDB>(proxy.url, { postgres: { connectionTimeoutMs: 100 } });
  t.teardown(() => database.destroy());
  t.is(proxy.accepted(), 3, 'two stalled connections, then the one that worked');
  const answer = await sql<{ one: number }>`select 1 as one`.execute(database.db);
  t.deepEqual(answer.rows, [{ one: 1 }]);
});

test('PostgreSQL at start-up: a server that never answers fails the open after a bounded wait, with the cause', async (t) => {
  const proxy = await stallingProxy(new URL(postgres.url), Number.POSITIVE_INFINITY);
  t.teardown(proxy.close);
  const started = performance.now();
  const error = await t.throwsAsync(openDatabase(proxy.url, { postgres: { connectionTimeoutMs: 200 } }));
  const waited = performance.now() - started;
  t.regex(error!.message, /Cannot connect to PostgreSQL: .*timeout/i);
  t.true(waited >= 4900 && waited < 15_000, `gave up after ${Math.round(waited)} ms`);
});

test('SQLite statements are reused by SQL text, streaming still works, and past the cache size queries stay correct', async (t) => {
  const database = await openDatabase<{ item: { id: number; label: string } }>('sqlite::memory:');
  await sql`create table item (id integer primary key, label text not null)`.execute(database.db);
  for (let id = 1; id <= 600; id++) {
    // 600 distinct SQL texts (the limit is part of the text) overflow the 500-statement cache.
    await database.db
      .insertInto('item')
      .values({ id, label: `item ${id}` })
      .execute();
    const rows = await database.db.selectFrom('item').select('label').where('id', '=', id).limit(id).execute();
    t.deepEqual(rows, [{ label: `item ${id}` }]);
  }
  const streamed: number[] = [];
  for await (const row of database.db.selectFrom('item').select('id').where('id', '<=', 3).orderBy('id').stream()) {
    streamed.push(row.id);
  }
  t.deepEqual(streamed, [1, 2, 3]);
  // The same SQL as a plain query afterwards: the stream used its own statement, the cached one is free.
  const plain = await database.db.selectFrom('item').select('id').where('id', '<=', 3).orderBy('id').execute();
  t.deepEqual(
    plain.map((row) => row.id),
    [1, 2, 3],
  );
  await database.destroy();
});

test('SQLite rows are plain objects holding what better-sqlite3 itself gives, whatever the column names', async (t) => {
  const database = await openDatabase<any>('sqlite::memory:');
  t.teardown(() => database.destroy());
  const own = new BetterSqlite3(':memory:');
  t.teardown(() => own.close());
  const statements = [
    `select 1 as a, 'x' as b, 2 as a`,
    `select null as absent, 1.5 as half, x'00ff' as bytes, 'é€' as text, 9007199254740991 as big`,
    `select value as v, value * 2 as "two words", '' as " " from json_each('[1,2,3]')`,
    `select 1 as "__proto__", 2 as "constructor"`,
    `select 1 as one where 0`,
  ];
  for (const text of statements) {
    const rows = (await sql.raw(text).execute(database.db)).rows as object[];
    const expected = own.prepare(text).all() as object[];
    t.deepEqual(rows, expected, text);
    t.deepEqual(
      rows.map((row) => Object.keys(row)),
      expected.map((row) => Object.keys(row)),
      `${text}: same keys in the same order`,
    );
    if (!text.includes('__proto__'))
      t.true(
        rows.every((row) => Object.getPrototypeOf(row) === Object.prototype),
        `${text}: plain objects`,
      );
  }
});

test('SQLite: reads of one turn share a read transaction, and writes, transactions and streams after them in the same turn are not held in it', async (t) => {
  const file = path.join(tempDir, `snapshots-${Math.random().toString(36).slice(2)}.db`);
  const server = await openDatabase<NotesDB>(file);
  t.teardown(() => server.destroy());
  await migrateToLatest(server, migrations);
  // Another process's view of the file (a CLI, another instance): a connection of its own.
  const other = new BetterSqlite3(file);
  t.teardown(() => other.close());
  const countOther = () => (other.prepare('select count(*) as n from note').get() as { n: number }).n;
  const countServer = async () =>
    Number(
      (
        await server.db
          .selectFrom('note')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const base = await countServer();

  // A write right after a read, in the same turn, is committed at once: another connection sees it before the turn ends.
  t.is(await countServer(), base);
  await server.db.insertInto('note').values({ id: 'w1', body: 'write', created_at: 1, pinned: 0 }).execute();
  t.is(countOther(), base + 1, 'the write is not held in the read transaction');

  // insert ... returning reads rows back, yet writes: also committed at once.
  t.is(await countServer(), base + 1);
  const returned = await server.db
    .insertInto('note')
    .values({ id: 'w2', body: 'returning', created_at: 2, pinned: 0 })
    .returning('id')
    .execute();
  t.deepEqual(returned, [{ id: 'w2' }]);
  t.is(countOther(), base + 2, 'a write with RETURNING is not held in the read transaction');

  // A transaction after a read in the same turn: begins, commits and rolls back as without the read.
  t.is(await countServer(), base + 2);
  await server.db.transaction().execute(async (trx) => {
    await trx.insertInto('note').values({ id: 't1', body: 'in a transaction', created_at: 3, pinned: 0 }).execute();
  });
  t.is(countOther(), base + 3);
  t.is(await countServer(), base + 3);
  await t.throwsAsync(
    server.db.transaction().execute(async (trx) => {
      await trx.insertInto('note').values({ id: 't2', body: 'rolled back', created_at: 4, pinned: 0 }).execute();
      throw new Error('undo');
    }),
    { message: 'undo' },
  );
  t.is(countOther(), base + 3);
  t.is(await countServer(), base + 3);

  // A stream after a read in the same turn.
  const streamed: string[] = [];
  for await (const row of server.db
    .selectFrom('note')
    .select('id')
    .where('id', 'in', ['w1', 'w2'])
    .orderBy('id')
    .stream())
    streamed.push(row.id);
  t.deepEqual(streamed, ['w1', 'w2']);

  // A second connection of this process (opened through app-support) that read in this turn sees a commit made
  // through the first at once: a statement that may write ends every read transaction of the process first.
  const second = await openDatabase<NotesDB>(file);
  t.teardown(() => second.destroy());
  const countSecond = async () =>
    Number(
      (
        await second.db
          .selectFrom('note')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  t.is(await countSecond(), base + 3);
  await server.db
    .insertInto('note')
    .values({ id: 'w3', body: 'seen by the second connection', created_at: 6, pinned: 0 })
    .execute();
  t.is(await countSecond(), base + 4, 'the second connection sees the commit in the same turn');
  await server.db.deleteFrom('note').where('id', '=', 'w3').execute();
  t.is(await countSecond(), base + 3);

  // A connection of another process's view (not app-support's): its commit is seen from the next turn on...
  t.is(await countServer(), base + 3);
  other.prepare(`insert into note (id, body, created_at, pinned) values ('o1', 'other', 5, 0)`).run();
  await new Promise((resolve) => setImmediate(resolve));
  t.is(await countServer(), base + 4);
  // ... or in the same turn after a synchronous wait for it (as spawnSync of a command-line tool): snapshots last 5 ms.
  t.is(await countServer(), base + 4);
  other.prepare(`insert into note (id, body, created_at, pinned) values ('o2', 'other', 7, 0)`).run();
  const waitUntil = performance.now() + 10;
  while (performance.now() < waitUntil) {
    /* a synchronous wait */
  }
  t.is(
    await countServer(),
    base + 5,
    'a commit of another process made before a synchronous wait is seen in the same turn',
  );
  // The read transaction does not outlive its turn: the other connection can still write and checkpoint.
  await new Promise((resolve) => setImmediate(resolve));
  t.is((other.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]!.busy, 0);
});
