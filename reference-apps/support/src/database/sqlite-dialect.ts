import fs from 'node:fs';
import path from 'node:path';
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
 */
function withStatementCache(connection: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
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
      return {
        reader: cached.reader,
        all: (parameters) => cached.all(parameters as unknown[]),
        run: (parameters) => cached.run(parameters as unknown[]),
        iterate: (parameters) => connection.prepare(sql).iterate(parameters as unknown[]),
      };
    },
  };
}

export function createSqliteDialect(connection: BetterSqlite3.Database): SqliteDialect {
  return new SqliteDialect({ database: withStatementCache(connection) });
}
