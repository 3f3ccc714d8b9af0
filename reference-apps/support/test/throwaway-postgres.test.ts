import net from 'node:net';
import test from 'ava';
import pg from 'pg';
import { findPostgresBinaries, startThrowawayPostgres } from '../src/index';

function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

test('a throwaway cluster serves fresh databases on 127.0.0.1 and is gone after stop()', async (t) => {
  const cluster = await startThrowawayPostgres();
  t.regex(cluster.url, /^postgres:\/\/app@127\.0\.0\.1:\d+\/postgres$/);
  t.true(await portIsOpen(cluster.port));

  const url = await cluster.createDatabase('orders_db');
  t.true(url.endsWith('/orders_db'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    'select current_database() as name, current_setting($1) as fsync, version() as version',
    ['fsync'],
  );
  await client.end();
  t.is(rows[0].name, 'orders_db');
  t.is(rows[0].fsync, 'off');
  t.regex(rows[0].version, /^PostgreSQL \d+/);

  await t.throwsAsync(cluster.createDatabase('Bad-Name; drop'), { message: /Invalid database name/ });

  await cluster.stop();
  await cluster.stop(); // twice is harmless
  t.false(await portIsOpen(cluster.port));
});

test('missing binaries fail loudly with the apt-get command', (t) => {
  const error = t.throws(() =>
    findPostgresBinaries({ POSTGRES_BIN_DIR: '/nonexistent/bin' }, '/nonexistent/lib/postgresql'),
  );
  t.regex(error!.message, /not found in \/nonexistent\/bin/);
  t.regex(error!.message, /apt-get install -y .*postgresql/);
});

test('POSTGRES_BIN_DIR, when it holds the binaries, is used first', (t) => {
  const found = findPostgresBinaries({});
  t.deepEqual(findPostgresBinaries({ POSTGRES_BIN_DIR: found.directory }, '/nonexistent'), found);
});
