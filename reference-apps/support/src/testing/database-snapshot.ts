import { sql, type Kysely } from 'kysely';

/** Every table's rows, serialised and sorted: two snapshots are equal exactly when no stored row changed. */
export type DatabaseSnapshot = ReadonlyMap<string, string>;

const tableNames = new WeakMap<object, Promise<string[]>>();
/** SQLite: the last snapshot of a database and the write counters it was taken at. */
const lastSnapshots = new WeakMap<object, { counters: string; snapshot: DatabaseSnapshot }>();

/**
 * SQLite's write counters: writes through this connection (`total_changes()`) and commits by any other connection
 * (`PRAGMA data_version`). While both stand still, no row can have changed, and the last snapshot still holds.
 */
async function sqliteCounters(db: Kysely<any>): Promise<string> {
  const changes = await sql<{ n: number }>`select total_changes() as n`.execute(db);
  const version = await sql<{ data_version: number }>`pragma data_version`.execute(db);
  return `${changes.rows[0]?.n}/${version.rows[0]?.data_version}`;
}

function serialise(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return `${item}n`;
    if (item instanceof Uint8Array) return Buffer.from(item).toString('base64');
    return item;
  });
}

/**
 * Reads every table of the database (SQLite or PostgreSQL) but those in `exclude`. With `dialect: 'sqlite'` the tables
 * are read again only when SQLite's write counters moved since the last snapshot of this database.
 */
// Kysely<any>: the snapshot works on any app's schema, naming tables it only learns at run time.
export async function snapshotDatabase(
  db: Kysely<any>,
  options: { exclude?: readonly string[]; dialect?: 'sqlite' | 'postgres' } = {},
): Promise<DatabaseSnapshot> {
  if (options.dialect === 'sqlite') {
    // Reading every table after every request is most of a corpus run's time; on SQLite, only after a write.
    const counters = await sqliteCounters(db);
    const last = lastSnapshots.get(db);
    if (last?.counters === counters) return last.snapshot;
    const snapshot = await readTables(db, options.exclude);
    lastSnapshots.set(db, { counters: await sqliteCounters(db), snapshot });
    return snapshot;
  }
  return readTables(db, options.exclude);
}

async function readTables(db: Kysely<any>, exclude: readonly string[] | undefined): Promise<DatabaseSnapshot> {
  let names = tableNames.get(db);
  if (names === undefined) {
    names = db.introspection
      .getTables()
      .then((tables) =>
        tables.map((table) =>
          table.schema && table.schema !== 'public' ? `${table.schema}.${table.name}` : table.name,
        ),
      );
    tableNames.set(db, names);
  }
  const snapshot = new Map<string, string>();
  for (const name of await names) {
    if (exclude?.includes(name)) continue;
    const rows = await db.selectFrom(name).selectAll().execute();
    snapshot.set(name, rows.map(serialise).sort().join('\n'));
  }
  return snapshot;
}

/** Tables whose rows differ between two snapshots. */
export function changedTables(before: DatabaseSnapshot, after: DatabaseSnapshot): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name));
}
