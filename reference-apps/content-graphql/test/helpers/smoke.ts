import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContentService } from '../../src/content-service';

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cg-'));
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(join(dir, 'c.db')) }) });
  const svc = await createContentService({ db, dialect: 'sqlite', assetsRoot: join(dir, 'assets'), settings: { changePollMs: 0 } });
  for (const q of process.argv.slice(2)) {
    const r = await svc.graphql.execute({ query: q });
    console.log(r.status, r.phase, r.body);
  }
  svc.close();
  await db.destroy();
}
main().catch((e) => { console.error(e); process.exit(1); });
