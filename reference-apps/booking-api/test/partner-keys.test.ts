import { spawnSync } from 'node:child_process';
import path from 'node:path';
import test from 'ava';
import { openBookingSystem } from '../src/booking-system';
import { useEngines } from './helpers/engines';

const engines = useEngines('partner_keys');
const cli = path.join(__dirname, '..', 'src', 'cli', 'keys-cli.js');

function keys(databaseUrl: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args, '--database', databaseUrl], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

for (const engine of engines) {
  test(`${engine.name}: keys CLI creates a key shown once, lists it by hint, revokes it`, async (t) => {
    const url = await engine.freshUrl();
    const created = keys(url, 'create', 'Acme Travel');
    t.is(created.code, 0, created.err);
    const key = /API key: (pk_[A-Za-z0-9_-]{43})/.exec(created.out)?.[1];
    const keyId = /Key id:\s+(key_[0-9a-f]{12})/.exec(created.out)?.[1];
    t.truthy(key, created.out);
    t.truthy(keyId, created.out);

    const system = await openBookingSystem({
      databaseUrl: url,
      publicBaseUrl: 'https://x',
      seedDemoCatalogue: false,
      background: false,
    });
    t.teardown(() => system.close());
    const partner = await system.partnerKeys.authenticate(key);
    t.is(partner?.name, 'Acme Travel');

    const listed = keys(url, 'list');
    t.is(listed.code, 0, listed.err);
    t.regex(
      listed.out,
      new RegExp(`${keyId}\\s+${key!.slice(0, 7)}\\.\\.\\.\\s+Acme Travel \\(ptn_[0-9a-f]{12}\\).*active`),
    );
    t.false(listed.out.includes(key!), 'the key itself is never listed');

    // A second key for the same partner belongs to the same partner.
    const second = /API key: (\S+)/.exec(keys(url, 'create', 'Acme Travel').out)?.[1];
    t.deepEqual(await system.partnerKeys.authenticate(second), partner);

    t.is(keys(url, 'revoke', keyId!).code, 0);
    t.is(await system.partnerKeys.authenticate(key), undefined, 'a revoked key no longer authenticates');
    t.deepEqual(await system.partnerKeys.authenticate(second), partner, 'other keys still work');
    t.regex(keys(url, 'revoke', keyId!).out, /already revoked/);
    const unknown = keys(url, 'revoke', 'key_000000000000');
    t.is(unknown.code, 1);
    t.regex(unknown.err, /no key with id key_000000000000/);
    t.regex(keys(url, 'list').out, /revoked \d{4}-/);
  });
}

test('keys CLI without a command or with a missing argument prints usage and exits 2', (t) => {
  const none = spawnSync(process.execPath, [cli], { encoding: 'utf8' });
  t.is(none.status, 2);
  t.regex(none.stderr, /usage: keys create <partner name>/);
  const missing = spawnSync(process.execPath, [cli, 'create'], { encoding: 'utf8' });
  t.is(missing.status, 2);
  t.regex(missing.stderr, /keys create: missing partner name/);
});

test('unknown, empty, malformed and oversized keys do not authenticate', async (t) => {
  const system = await openBookingSystem({
    databaseUrl: 'sqlite::memory:',
    publicBaseUrl: 'https://x',
    seedDemoCatalogue: false,
    background: false,
  });
  t.teardown(() => system.close());
  const issued = await system.partnerKeys.issueKey('Zed');
  for (const candidate of [undefined, '', 'pk_', `${issued.key}x`, issued.key.slice(0, -1), 'x'.repeat(10_000)]) {
    t.is(await system.partnerKeys.authenticate(candidate), undefined, String(candidate).slice(0, 20));
  }
  t.deepEqual(await system.partnerKeys.authenticate(issued.key), issued.partner);
  // Only the hash is stored.
  const stored = await system.database.db.selectFrom('api_key').selectAll().execute();
  t.false(JSON.stringify(stored).includes(issued.key.slice(3)));
  await t.throwsAsync(system.partnerKeys.issueKey('<script>'), { message: /Invalid partner name/ });
});
