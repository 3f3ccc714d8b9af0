import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { IN_MEMORY } from './database-url';

/** How long a writer waits for another process's write lock before SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** A better-sqlite3 connection tuned for a service: WAL, busy timeout, foreign keys. */
export function openSqliteConnection(file: string): BetterSqlite3.Database {
  if (file !== IN_MEMORY) fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new BetterSqlite3(file);
  // WAL lets readers run while a writer commits; in-memory databases ignore it.
  if (file !== IN_MEMORY) connection.pragma('journal_mode = WAL');
  connection.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  connection.pragma('foreign_keys = ON');
  // NORMAL is durable across application crashes in WAL mode (only an OS crash may lose the last commits).
  connection.pragma('synchronous = NORMAL');
  return connection;
}

/** Statements kept prepared; beyond this the oldest is dropped. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, and preparing costs more than running a point query in better-sqlite3.
 * Queries are compiled to the same SQL text with parameters apart, so a cache by SQL text reuses statements.
 * Streaming (iterate) gets its own statement: a statement being iterated cannot run anything else.
 *
 * Reads of one turn of the event loop share one read transaction (see `ReadSnapshots`).
 */
function withStatementCache(connection: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const snapshots = new ReadSnapshots(connection);
  return {
    close: () => {
      snapshots.end();
      cache.clear();
      connection.close();
    },
    prepare(sql: string): SqliteStatement {
      let statement = cache.get(sql);
      if (!statement) {
        statement = connection.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      const cached = statement;
      const read = cached.reader ? rowReader(cached) : undefined;
      // Only statements that neither write nor control transactions may run in the shared read transaction.
      const pureRead = cached.reader && cached.readonly;
      return {
        reader: cached.reader,
        all: (parameters) => {
          if (pureRead) snapshots.begin();
          else ReadSnapshots.endAll();
          return read ? read(parameters as unknown[]) : cached.all(parameters as unknown[]);
        },
        run: (parameters) => {
          ReadSnapshots.endAll();
          return cached.run(parameters as unknown[]);
        },
        iterate: (parameters) => {
          snapshots.end();
          return connection.prepare(sql).iterate(parameters as unknown[]);
        },
      };
    },
  };
}

/** How long a read transaction serves reads (ms): a turn that runs longer reads a fresh snapshot after it. */
const READ_SNAPSHOT_MAX_MS = 5;

/**
 * One read transaction for the reads of one turn of the event loop (at most `READ_SNAPSHOT_MAX_MS` of it; a busy
 * server's turn runs several requests, a few hundred µs each), ended by `setImmediate` or by the next statement
 * that is not a pure read (writes, `begin`, streaming), whichever comes first. In WAL mode every read outside a
 * transaction takes and drops a read lock of the shared-memory index (two `fcntl` calls) and looks up the database
 * file's size (`fstat`); where system calls are dear (this VM: about 2.5 µs each) that cost more than the statements
 * themselves: three point reads 33 µs alone, 15 µs in one transaction (measured). The reads of a turn see one
 * snapshot, which they practically did already (better-sqlite3 runs statements synchronously, and nothing of this
 * process writes between them without ending the snapshot first); changes of other processes show from the next
 * turn or after 5 ms (a synchronous wait for another process, such as `spawnSync` of a command-line tool, takes
 * longer), those of another connection of this process at once: a statement that may write, on any connection,
 * first ends the read transactions of all of them. A transaction opened by anyone else (Kysely's `transaction()`)
 * is left alone.
 */
class ReadSnapshots {
  /** The read transactions open in this process, on any connection. */
  private static readonly opened = new Set<ReadSnapshots>();

  /** Before a statement that may write: every connection of this process must see it once it is committed. */
  static endAll(): void {
    for (const snapshot of ReadSnapshots.opened) snapshot.end();
  }

  private open = false;
  private openedAt = 0;
  private readonly beginStatement: BetterSqlite3.Statement;
  private readonly commitStatement: BetterSqlite3.Statement;
  private readonly endLater = () => this.end();

  constructor(private readonly connection: BetterSqlite3.Database) {
    this.beginStatement = connection.prepare('begin');
    this.commitStatement = connection.prepare('commit');
  }

  begin(): void {
    if (this.open) {
      if (performance.now() - this.openedAt <= READ_SNAPSHOT_MAX_MS) return;
      this.end();
    }
    if (this.connection.inTransaction) return;
    this.beginStatement.run();
    this.open = true;
    this.openedAt = performance.now();
    ReadSnapshots.opened.add(this);
    setImmediate(this.endLater);
  }

  end(): void {
    if (!this.open) return;
    this.open = false;
    ReadSnapshots.opened.delete(this);
    if (this.connection.open && this.connection.inTransaction) this.commitStatement.run();
  }
}

/** Readers by statement: a statement's columns never change. */
const readers = new WeakMap<BetterSqlite3.Statement, (parameters: unknown[]) => unknown[]>();

/** Column names that can be assigned as plain data properties in generated code (no `__proto__` and the like). */
const PLAIN_NAME = /^(?!__proto__$|constructor$|prototype$)[^\u0000-\u001f]*$/;

/**
 * Reads a statement's rows as arrays and builds the row objects in JavaScript, with an object literal made once per
 * statement, so that every row of a statement shares one shape. better-sqlite3 builds each row object in C++, one
 * property at a time (a dictionary-mode object): about a third slower to read and slower for every later use
 * (measured on content-graphql's element queries: 40 -> 26 µs for 8 rows of 23 columns). Rows are the same data
 * as before: own enumerable properties named after the columns, the last of duplicate names winning.
 */
function rowReader(statement: BetterSqlite3.Statement): ((parameters: unknown[]) => unknown[]) | undefined {
  const known = readers.get(statement);
  if (known) return known;
  const names = statement.columns().map((column) => column.name);
  if (!names.every((name) => PLAIN_NAME.test(name))) return undefined;
  // A plain object literal with the columns as quoted keys: the one piece of generated code, names only from SQLite.
  const toRow = new Function(
    'values',
    `return { ${names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`).join(', ')} };`,
  ) as (values: unknown[]) => object;
  const raw = statement.raw(true);
  const read = (parameters: unknown[]) => {
    const rows = raw.all(parameters) as unknown[][];
    const objects = new Array<object>(rows.length);
    for (let index = 0; index < rows.length; index++) objects[index] = toRow(rows[index]!);
    return objects;
  };
  readers.set(statement, read);
  return read;
}

export function createSqliteDialect(connection: BetterSqlite3.Database): SqliteDialect {
  return new SqliteDialect({ database: withStatementCache(connection) });
}
