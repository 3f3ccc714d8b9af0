import test from 'ava';
import { sql } from 'kysely';
import { openDatabase, startThrowawayPostgres } from '../src/index';

test('a paused throwaway cluster refuses connections, keeps its data, and an open pool works again after resume', async (t) => {
  const cluster = await startThrowawayPostgres();
  t.teardown(() => cluster.stop());
  const url = await cluster.createDatabase('outage_db');
  const database = await openDatabase<{ item: { id: number } }>(url, {
    postgres: { max: 2, connectionTimeoutMs: 2000 },
  });
  t.teardown(() => database.destroy());
  await sql`create table item (id integer primary key)`.execute(database.db);
  await database.db.insertInto('item').values({ id: 1 }).execute();

  // A transaction holds a client between two statements when the server goes: the client's error must reach the
  // transaction, not end the process (pg-pool listens on idle clients only).
  const interrupted = database.db.transaction().execute(async (trx) => {
    await trx.selectFrom('item').selectAll().execute();
    await cluster.pauseServer();
    await new Promise((resolve) => setTimeout(resolve, 100));
    return trx.selectFrom('item').selectAll().execute();
  });
  await t.throwsAsync(interrupted, { message: /not queryable|terminat|ECONNREFUSED/ });
  const during = await t.throwsAsync(database.db.selectFrom('item').selectAll().execute());
  t.regex(
    String((during as NodeJS.ErrnoException).code ?? during!.message),
    /ECONNREFUSED|57P01|terminat/i,
    during!.message,
  );

  await cluster.resumeServer();
  // The pool dropped its broken connections and opens new ones: no reopen needed.
  t.deepEqual(await database.db.selectFrom('item').selectAll().execute(), [{ id: 1 }]);
});

test('statementTimeoutMs cancels longer statements on the server (57014), shorter ones run', async (t) => {
  const cluster = await startThrowawayPostgres();
  t.teardown(() => cluster.stop());
  const database = await openDatabase(await cluster.createDatabase('timeout_db'), {
    postgres: { statementTimeoutMs: 200 },
  });
  t.teardown(() => database.destroy());
  const slow = await t.throwsAsync(sql`select pg_sleep(2)`.execute(database.db));
  t.is((slow as Error & { code?: string }).code, '57014');
  t.regex(slow!.message, /statement timeout/);
  const fast = await sql<{ one: number }>`select 1 as one`.execute(database.db);
  t.deepEqual(fast.rows, [{ one: 1 }]);
});
