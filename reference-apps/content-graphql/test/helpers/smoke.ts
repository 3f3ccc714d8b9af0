import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateContentDatabase } from '../../src/storage/migrations';
import { ContentStore } from '../../src/content/content-store';
import { seedDemoContent } from '../../src/content/seed-demo';

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cg-'));
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(join(dir, 'c.db')) }) });
  await migrateContentDatabase(db, 'sqlite');
  const store = new ContentStore(db, 'sqlite', join(dir, 'assets'));
  const t = Date.now();
  await seedDemoContent(store);
  console.log('seeded in', Date.now() - t, 'ms', dir);
  console.log(await db.selectFrom('structureelements').selectAll().execute());
  console.log(await db.selectFrom('elements_sites').select(['elementId', 'siteId', 'title', 'uri']).limit(50).execute());
  console.log(await db.selectFrom('searchindex').selectAll().limit(20).execute());
}
main().catch((e) => { console.error(e); process.exit(1); });
