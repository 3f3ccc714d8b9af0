import test from 'ava';
import pg from 'pg';
import { postgresForTests } from '../src/index';

async function databaseExists(adminUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
    return rows.length === 1;
  } finally {
    await client.end();
  }
}

test('each call and each freshDatabase() gives a separate empty database, all dropped by close()', async (t) => {
  const first = await postgresForTests('Support Fresh-DB');
  const second = await postgresForTests('support_fresh');
  t.regex(first.name, /^support_fresh_db_\d+_[0-9a-f]{8}$/);
  t.not(first.url, second.url);
  const extra = await first.freshDatabase('extra');
  const extraName = new URL(extra).pathname.slice(1);
  t.regex(extraName, /^extra_\d+_[0-9a-f]{8}$/);

  const adminUrl = new URL(first.url);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: extra });
  await client.connect();
  const { rows } = await client.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`);
  await client.end();
  t.is(rows[0].n, 0, 'empty');

  // A connection left open must not stop the drop.
  const leftOpen = new pg.Client({ connectionString: first.url });
  leftOpen.on('error', () => undefined);
  await leftOpen.connect();
  await first.close();
  t.false(await databaseExists(adminUrl.toString(), first.name));
  t.false(await databaseExists(adminUrl.toString(), extraName));
  t.true(
    await databaseExists(adminUrl.toString(), second.name),
    'the other handle keeps its database (and the server)',
  );
  await second.close();
  await leftOpen.end().catch(() => undefined);
});
