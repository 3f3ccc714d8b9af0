import test from 'ava';
import { describeServerConfig, readFlag, readServerConfig } from '../src/index';

const defaults = { port: 8080, databaseUrl: 'data/app.db', envPrefix: 'BOOKING' };

test('defaults apply when nothing is given', (t) => {
  t.deepEqual(readServerConfig(defaults, [], {}), { port: 8080, host: '0.0.0.0', databaseUrl: 'data/app.db' });
});

test('environment overrides defaults, the app prefix overrides the generic name, flags override both', (t) => {
  const env = { PORT: '3000', DATABASE_URL: 'postgres://h/db', HOST: '127.0.0.1' };
  t.deepEqual(readServerConfig(defaults, [], env), { port: 3000, host: '127.0.0.1', databaseUrl: 'postgres://h/db' });
  t.is(readServerConfig(defaults, [], { ...env, BOOKING_PORT: '3100' }).port, 3100);
  t.deepEqual(
    readServerConfig(defaults, ['--port', '4000', '--database=sqlite::memory:'], { ...env, BOOKING_PORT: '3100' }),
    {
      port: 4000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite::memory:',
    },
  );
});

test('a bad port is refused naming the value and where it came from', (t) => {
  t.throws(() => readServerConfig(defaults, ['--port', 'eighty'], {}), {
    message: /Invalid port "eighty" from --port/,
  });
  t.throws(() => readServerConfig(defaults, [], { PORT: '70000' }), { message: /Invalid port "70000" from PORT/ });
  t.throws(() => readServerConfig(defaults, [], { PORT: '-1' }), { message: /Invalid port "-1"/ });
});

test('readFlag reads both spellings, the last wins, a missing value is an error', (t) => {
  t.is(readFlag(['--port', '1', '--port=2'], 'port'), '2');
  t.is(readFlag(['--other', 'x'], 'port'), undefined);
  t.throws(() => readFlag(['--port'], 'port'), { message: /--port needs a value/ });
  t.throws(() => readFlag(['--port', '--host', 'h'], 'port'), { message: /--port needs a value/ });
});

test('describeServerConfig prints port and database with the password masked', (t) => {
  const line = describeServerConfig(
    'booking-api',
    { host: '0.0.0.0', port: 0, databaseUrl: 'postgres://u:pw@h/db' },
    41234,
  );
  t.is(line, 'booking-api: listening on http://0.0.0.0:41234, database postgres://u:***@h/db');
});
