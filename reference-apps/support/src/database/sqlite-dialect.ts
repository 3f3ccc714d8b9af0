import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
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

export function createSqliteDialect(connection: BetterSqlite3.Database): SqliteDialect {
  return new SqliteDialect({ database: connection });
}
