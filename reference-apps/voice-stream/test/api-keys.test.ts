import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';
import { ApiKeyStore } from '../src/storage/api-key-store';
import { readAuthKey } from '../src/http/deepl-authorization';
import { runKeysCommand } from '../src/cli/keys-cli';

let directory: string;
let postgres: TestPostgresDatabase;
test.before(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'voice-keys-'));
  postgres = await postgresForTests('voice_keys');
});
test.after.always(async () => {
  rmSync(directory, { recursive: true, force: true });
  await postgres?.close();
});

const engines = [
  { name: 'SQLite', url: () => path.join(directory, `keys-${Math.random().toString(36).slice(2)}.db`) },
  { name: 'PostgreSQL', url: () => postgres.freshDatabase('voice_keys') },
];

for (const engine of engines) {
  test(`${engine.name}: a created key verifies, only its hash is stored, revoked keys stop working`, async (t) => {
    const url = await engine.url();
    const store = await ApiKeyStore.open(url);
    try {
      const created = await store.create('Conference booth');
      t.regex(created.key, /^dvs_[A-Za-z0-9_-]{43}$/);
      t.deepEqual(await store.verify(created.key), { id: created.id, label: 'Conference booth' });
      t.is(await store.verify(`${created.key}x`), undefined);
      t.is(await store.verify('dvs_unknown'), undefined);
      const listed = await store.list();
      t.is(listed.length, 1);
      t.false(JSON.stringify(listed).includes(created.key), 'the key itself is not stored');
      t.is(await store.revoke(created.id), 'revoked');
      t.is(await store.revoke(created.id), 'already');
      t.is(await store.revoke('key_nothing'), 'unknown');
      t.is(await store.verify(created.key), undefined);
    } finally {
      await store.close();
    }
    // Reopening the same database keeps the keys (migrations are not re-applied).
    const again = await ApiKeyStore.open(url);
    t.is((await again.list()).length, 1);
    await again.close();
  });
}

test('the keys CLI creates a key once, lists and revokes it', async (t) => {
  const database = path.join(directory, 'nested', 'cli.db');
  const out: string[] = [];
  const err: string[] = [];
  t.is(
    await runKeysCommand(
      ['create', 'Field', 'team', '--database', database],
      (line) => out.push(line),
      (line) => err.push(line),
    ),
    0,
  );
  const key = /API key: (\S+)/.exec(out.join('\n'))?.[1];
  const id = /Key id:\s+(\S+)/.exec(out.join('\n'))?.[1];
  t.truthy(key);
  const store = await ApiKeyStore.open(database);
  t.deepEqual(await store.verify(key!), { id: id!, label: 'Field team' });
  await store.close();
  out.length = 0;
  t.is(
    await runKeysCommand(
      ['list', '--database', database],
      (line) => out.push(line),
      (line) => err.push(line),
    ),
    0,
  );
  t.true(out[0].includes(id!) && out[0].includes('active') && !out[0].includes(key!));
  t.is(
    await runKeysCommand(
      ['revoke', id!, '--database', database],
      (line) => out.push(line),
      (line) => err.push(line),
    ),
    0,
  );
  t.is(
    await runKeysCommand(
      ['revoke', 'key_nope', '--database', database],
      (line) => out.push(line),
      (line) => err.push(line),
    ),
    1,
  );
  t.is(
    await runKeysCommand(
      ['rotate'],
      (line) => out.push(line),
      (line) => err.push(line),
    ),
    2,
  );
  t.regex(err.join('\n'), /usage: keys create/);
});

test('the Authorization header is read as real clients send it', (t) => {
  t.deepEqual(readAuthKey('DeepL-Auth-Key dvs_abc'), { key: 'dvs_abc' });
  t.deepEqual(readAuthKey('deepl-auth-key   dvs_abc  '), { key: 'dvs_abc' });
  t.true('problem' in readAuthKey(undefined));
  t.true('problem' in readAuthKey('Bearer dvs_abc'));
  t.true('problem' in readAuthKey('DeepL-Auth-Key'));
});
