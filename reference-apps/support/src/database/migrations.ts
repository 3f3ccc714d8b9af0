import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database, DatabaseDialect } from './open-database';

/** A schema step that may differ per engine (types, indexes); ids sort in the order they apply. */
export interface AppMigration {
  up(db: Kysely<any>, dialect: DatabaseDialect): Promise<void>;
  down?(db: Kysely<any>, dialect: DatabaseDialect): Promise<void>;
}

class InCodeMigrationProvider implements MigrationProvider {
  constructor(
    private readonly migrations: Record<string, AppMigration>,
    private readonly dialect: DatabaseDialect,
  ) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const result: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(this.migrations)) {
      const down = migration.down;
      result[name] = {
        up: (db) => migration.up(db, this.dialect),
        ...(down ? { down: (db: Kysely<any>) => down(db, this.dialect) } : {}),
      };
    }
    return result;
  }
}

/**
 * Applies every migration not applied yet, in name order, and returns the names applied now.
 * Kysely's Migrator takes a lock table row, so several instances starting at once on one PostgreSQL database are safe.
 */
export async function migrateToLatest(
  database: Database<any>,
  migrations: Record<string, AppMigration>,
): Promise<string[]> {
  const migrator = new Migrator({
    db: database.db,
    provider: new InCodeMigrationProvider(migrations, database.dialect),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` "${failed.migrationName}"` : '';
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration${name} failed: ${cause}`, { cause: error });
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
