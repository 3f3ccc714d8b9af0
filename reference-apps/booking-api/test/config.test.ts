import { spawnSync } from 'node:child_process';
import path from 'node:path';
import test from 'ava';
import { DEFAULT_DATABASE_FILE, readBookingConfig } from '../src/config';

// The server's configuration: flags read with node:util parseArgs, then BOOKING_* and generic environment
// variables, then the defaults; every bad value refused with where it came from.

test('defaults apply when nothing is given', (t) => {
  const config = readBookingConfig([], {});
  t.like(config, {
    port: 8081,
    host: '0.0.0.0',
    databaseUrl: DEFAULT_DATABASE_FILE,
    publicBaseUrl: undefined,
    workers: 0,
  });
  t.deepEqual(config.postgresPool, { max: 4, statementTimeoutMs: 10_000, connectionTimeoutMs: 5_000 });
  t.deepEqual(config.background, { fulfilmentIntervalMs: 1000, sweepIntervalMs: 30_000 });
  t.like(config, { trustProxy: false, rateLimitPerMinute: 600, logLevel: 'info' });
});

test('operations: trust proxy, rate limit and log level from flags or BOOKING_* variables', (t) => {
  const env = { BOOKING_TRUST_PROXY: '10.0.0.0/8', BOOKING_RATE_LIMIT: '1200', BOOKING_LOG_LEVEL: 'warn' };
  t.like(readBookingConfig([], env), { trustProxy: '10.0.0.0/8', rateLimitPerMinute: 1200, logLevel: 'warn' });
  t.like(readBookingConfig(['--trust-proxy', '1', '--rate-limit', 'off', '--log-level', 'debug'], env), {
    trustProxy: 1,
    rateLimitPerMinute: false,
    logLevel: 'debug',
  });
  t.like(readBookingConfig(['--trust-proxy', 'off'], env), { trustProxy: false });
  t.throws(() => readBookingConfig(['--trust-proxy', '10.0.0.0/40'], {}), {
    message: /^Invalid --trust-proxy "10\.0\.0\.0\/40"/,
  });
  t.throws(() => readBookingConfig([], { BOOKING_RATE_LIMIT: '0' }), {
    message: /^Invalid BOOKING_RATE_LIMIT "0": expected requests per minute/,
  });
  t.throws(() => readBookingConfig(['--log-level', 'loud'], {}), { message: /^Invalid --log-level "loud"/ });
});

test('flags win over BOOKING_* variables, which win over generic ones; both flag spellings are read', (t) => {
  const env = {
    PORT: '3000',
    BOOKING_PORT: '3100',
    DATABASE_URL: 'postgres://h/generic',
    BOOKING_DATABASE_URL: 'postgres://h/booking',
    PUBLIC_BASE_URL: 'https://generic.example',
  };
  t.like(readBookingConfig([], env), {
    port: 3100,
    databaseUrl: 'postgres://h/booking',
    publicBaseUrl: 'https://generic.example',
  });
  const config = readBookingConfig(
    [
      '--port',
      '4000',
      '--database=sqlite::memory:',
      '--public-url',
      'https://book.example/',
      '--workers',
      '4',
      '--db-pool-size=3',
      '--background-jobs',
      'off',
    ],
    env,
  );
  t.like(config, {
    port: 4000,
    databaseUrl: 'sqlite::memory:',
    publicBaseUrl: 'https://book.example',
    workers: 4,
    background: false,
  });
  t.is(config.postgresPool.max, 3);
  t.deepEqual(readBookingConfig(['--fulfilment-interval-ms', '25', '--sweep-interval-ms', '50'], {}).background, {
    fulfilmentIntervalMs: 25,
    sweepIntervalMs: 50,
  });
  t.deepEqual(readBookingConfig([], { BOOKING_DB_STATEMENT_TIMEOUT_MS: '0' }).postgresPool.statementTimeoutMs, 0);
});

test('bad values, unknown flags and flags without their value are refused, naming what was wrong', (t) => {
  t.throws(() => readBookingConfig(['--port', '70000'], {}), { message: /Invalid port "70000" from --port/ });
  t.throws(() => readBookingConfig(['--public-url', 'ftp://x'], {}), {
    message: /Invalid public base URL "ftp:\/\/x"/,
  });
  t.throws(() => readBookingConfig(['--workers', 'many'], {}), {
    message: /Invalid --workers "many": expected a whole number from 0 to 256/,
  });
  t.throws(() => readBookingConfig([], { BOOKING_DB_POOL_SIZE: '0' }), {
    message: /Invalid BOOKING_DB_POOL_SIZE "0": expected a whole number from 1 to 1000/,
  });
  t.throws(() => readBookingConfig(['--background-jobs', 'maybe'], {}), {
    message: /Invalid background jobs setting "maybe": expected on or off/,
  });
  t.throws(() => readBookingConfig(['--prot', '80'], {}), { message: /Unknown option '--prot'/ });
  t.throws(() => readBookingConfig(['--port'], {}), { message: /--port/ });
  t.throws(() => readBookingConfig(['stray'], {}), { message: /stray/ });
});

test('the keys CLI takes the server flags and refuses unknown ones with its usage (exit 2)', (t) => {
  const cli = path.join(__dirname, '..', 'src', 'cli', 'keys-cli.js');
  const unknown = spawnSync(process.execPath, [cli, 'list', '--databse', 'sqlite::memory:'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.is(unknown.status, 2, unknown.stderr);
  t.regex(unknown.stderr, /Unknown option '--databse'/);
  t.regex(unknown.stderr, /usage: keys create <partner name> \| keys list \| keys revoke <key id>/);
  const listed = spawnSync(
    process.execPath,
    [cli, 'list', '--database', 'sqlite::memory:', '--public-url', 'https://book.example'],
    { encoding: 'utf8', timeout: 30_000 },
  );
  t.is(listed.status, 0, listed.stderr);
  t.regex(listed.stdout, /No API keys yet/);
});
