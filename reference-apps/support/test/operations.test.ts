import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { MemoryRateLimitStore, PostgresRateLimitStore } from 'rest.uws';
import {
  appRateLimitStore,
  databaseReadinessCheck,
  describeTrustProxy,
  openDatabase,
  parseLogLevel,
  parseRequestsPerMinute,
  parseTrustProxy,
  postgresForTests,
  type TestPostgresDatabase,
} from '../src/index';
import { cutOffDatabase } from '../src/testing';

let postgres: TestPostgresDatabase;
let folder: string;
test.before(async () => {
  postgres = await postgresForTests('support_operations');
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'support-operations-'));
});
test.after.always(async () => {
  await postgres?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('trust proxy settings: off by default, hop counts, ranges; mistakes name their source', (t) => {
  for (const off of [undefined, '', ' ', 'off', 'false']) t.is(parseTrustProxy(off, '--trust-proxy'), false);
  t.is(parseTrustProxy('1', '--trust-proxy'), 1);
  t.is(parseTrustProxy('10.0.0.0/8,loopback', 'BOOKING_TRUST_PROXY'), '10.0.0.0/8,loopback');
  t.throws(() => parseTrustProxy('10.0.0.0/33', 'BOOKING_TRUST_PROXY'), {
    message: /^Invalid BOOKING_TRUST_PROXY "10\.0\.0\.0\/33": .*expected off, a hop count/,
  });
  t.throws(() => parseTrustProxy('everyone', '--trust-proxy'), { message: /^Invalid --trust-proxy "everyone"/ });
  t.throws(() => parseTrustProxy('65', '--trust-proxy'), { message: /hop count/ });
  t.is(describeTrustProxy(false), 'off (forwarding headers ignored)');
  t.is(describeTrustProxy(2), '2 hops');
  t.is(describeTrustProxy('loopback'), 'loopback');
});

test('per-minute limits and log levels', (t) => {
  t.is(parseRequestsPerMinute(undefined, '--rate-limit', 600), 600);
  t.is(parseRequestsPerMinute('', '--rate-limit', false), false);
  t.is(parseRequestsPerMinute('off', '--rate-limit', 600), false);
  t.is(parseRequestsPerMinute(' 1200 ', '--rate-limit', 600), 1200);
  for (const bad of ['0', '-5', '1.5', 'lots', '600/s', '99999999']) {
    t.throws(() => parseRequestsPerMinute(bad, 'BOOKING_RATE_LIMIT', 600), {
      message: new RegExp(
        `^Invalid BOOKING_RATE_LIMIT "${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}": expected requests per minute`,
      ),
    });
  }
  t.is(parseLogLevel(undefined, '--log-level', 'info'), 'info');
  t.is(parseLogLevel('warn', '--log-level', 'info'), 'warn');
  t.throws(() => parseLogLevel('verbose', '--log-level', 'info'), {
    message: /^Invalid --log-level "verbose": expected error, warn, info, debug/,
  });
});

test('SQLite: the readiness check reads the file; it fails once the database is closed. Limits in memory', async (t) => {
  const database = await openDatabase(path.join(folder, 'ready.db'));
  t.teardown(() => database.destroy());
  const check = databaseReadinessCheck(database);
  t.is(check.name, 'database');
  await t.notThrowsAsync(async () => check.check());
  const limits = await appRateLimitStore(database);
  t.true(limits.options.store instanceof MemoryRateLimitStore);
  t.is(limits.options.onStoreError, 'allow');
  t.false(limits.shared);
  await database.destroy();
  await t.throwsAsync(async () => check.check());
});

test('PostgreSQL: the readiness check needs a connection; it fails while the database refuses them and passes again after. Limits in the database, on the app pool', async (t) => {
  const url = await postgres.freshDatabase('support_ready');
  const database = await openDatabase(url, { postgres: { max: 2, connectionTimeoutMs: 2000 } });
  t.teardown(() => database.destroy());
  const check = databaseReadinessCheck(database);
  await t.notThrowsAsync(async () => check.check());
  const limits = await appRateLimitStore(database);
  t.true(limits.options.store instanceof PostgresRateLimitStore);
  t.is(limits.options.onStoreError, 'refuse');
  t.true(limits.shared);
  // migrate() ran: the table is there before the first hit.
  const tables = await database.postgresPool!.query("select 1 from pg_tables where tablename = 'rest_uws_rate_limits'");
  t.is(tables.rowCount, 1);
  const state = await limits.options.store.hit('k:partner', { limit: 2, windowMs: 60_000 });
  t.deepEqual([state.allowed, state.remaining], [true, 1]);

  const outage = await cutOffDatabase(postgres.url, url);
  try {
    await t.throwsAsync(async () => check.check());
  } finally {
    await outage.restore();
  }
  // The pool drops the connections the outage cut when it hears of it (an event, maybe after the next query): passing
  // again is waited for, as a readiness probe would.
  let passes = false;
  for (const deadline = Date.now() + 10_000; !passes && Date.now() < deadline; ) {
    passes = await Promise.resolve(check.check()).then(
      () => true,
      () => false,
    );
    if (!passes) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.true(passes, 'the check passes again once the database takes connections');
});
