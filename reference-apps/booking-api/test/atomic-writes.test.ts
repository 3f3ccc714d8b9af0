import test from 'ava';
import { sql, type Kysely } from 'kysely';
import type { BookingSchema } from '../src/storage/schema';
import { API } from './helpers/api-client';
import { useEngines, type Engine } from './helpers/engines';
import { createBody, remainingSeats } from './helpers/fixture';
import { startHttpFixture } from './helpers/http-fixture';

// What the crash-recovery test relies on, made certain: a write that fails half-way leaves nothing behind. A trigger
// makes the database refuse the second statement of a transaction (the booking row after its seats were taken; the
// tickets after the booking was marked COMPLETED), as a crash between the two would; the first must be undone too.

const engines = useEngines('atomic_writes');
const quiet = { error() {}, warn() {}, info() {}, debug() {} };

/** Makes every insert into `table` fail, as a crash between two statements would; returns how to stop it. */
async function failInserts(
  engine: Engine,
  db: Kysely<BookingSchema>,
  table: 'booking' | 'ticket',
): Promise<() => Promise<void>> {
  if (engine.name === 'SQLite') {
    await sql
      .raw(`CREATE TRIGGER fail_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
      .execute(db);
    return async () => void (await sql.raw(`DROP TRIGGER fail_${table}`).execute(db));
  }
  await sql
    .raw(
      `CREATE FUNCTION fail_${table}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER fail_${table} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION fail_${table}()`)
    .execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER fail_${table} ON ${table}`).execute(db);
    await sql.raw(`DROP FUNCTION fail_${table}()`).execute(db);
  };
}

for (const engine of engines) {
  test(`${engine.name}: a create whose booking row cannot be written gives its seats back (one transaction)`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl(), { capacity: 5, logger: quiet });
    t.teardown(() => server.close());
    const db = server.system.database.db;
    const stop = await failInserts(engine, db, 'booking');
    const refused = await alice.post(`${API}/booking`, createBody(2, 0));
    t.is(refused.status, 500, refused.text);
    t.is(await remainingSeats(server.system), 5, 'the seats taken before the failed insert are back');
    t.is((await alice.get(`${API}/booking`)).body.total, 0);
    await stop();
    t.is((await alice.post(`${API}/booking`, createBody(2, 0))).status, 201);
    t.is(await remainingSeats(server.system), 3);
  });

  test(`${engine.name}: a fulfilment whose tickets cannot be written leaves the booking PENDING, to be fulfilled later (one transaction)`, async (t) => {
    const { server, alice } = await startHttpFixture(await engine.freshUrl(), { logger: quiet });
    t.teardown(() => server.close());
    const db = server.system.database.db;
    const id = (await alice.post(`${API}/booking`, createBody(2, 0))).body.bookingId as string;
    t.is((await alice.put(`${API}/booking/${id}`, { status: 'PENDING', partnerReferenceId: 'ATOMIC-1' })).status, 200);
    const stop = await failInserts(engine, db, 'ticket');
    await t.throwsAsync(server.system.fulfilment.runOnce(), { any: true, message: /injected failure/ });
    const pending = (await alice.get(`${API}/booking/${id}`)).body;
    t.like(pending, { status: 'PENDING', voucherUrl: null, tickets: [] }, 'not COMPLETED without its tickets');
    await stop();
    t.deepEqual(await server.system.fulfilment.runOnce(), [Number(id)]);
    const completed = (await alice.get(`${API}/booking/${id}`)).body;
    t.is(completed.status, 'COMPLETED');
    t.is(completed.tickets.length, 2);
  });
}
