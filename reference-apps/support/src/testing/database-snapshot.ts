import type { Kysely } from 'kysely';

/** Every table's rows, serialised and sorted: two snapshots are equal exactly when no stored row changed. */
export type DatabaseSnapshot = ReadonlyMap<string, string>;

const tableNames = new WeakMap<object, Promise<string[]>>();

function serialise(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return `${item}n`;
    if (item instanceof Uint8Array) return Buffer.from(item).toString('base64');
    return item;
  });
}

/** Reads every table of the database (SQLite or PostgreSQL) but those in `exclude`. */
// Kysely<any>: the snapshot works on any app's schema, naming tables it only learns at run time.
export async function snapshotDatabase(db: Kysely<any>, options: { exclude?: readonly string[] } = {}): Promise<DatabaseSnapshot> {
  let names = tableNames.get(db);
  if (names === undefined) {
    names = db.introspection.getTables().then((tables) => tables.map((table) => (table.schema && table.schema !== 'public' ? `${table.schema}.${table.name}` : table.name)));
    tableNames.set(db, names);
  }
  const snapshot = new Map<string, string>();
  for (const name of await names) {
    if (options.exclude?.includes(name)) continue;
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
