#!/usr/bin/env node
/**
 * API keys of the voice stream's session request:
 *   npm run -w voice-stream keys -- create <label>   prints a new key once (only its hash is stored)
 *   npm run -w voice-stream keys -- list             ids, labels, revoked or not
 *   npm run -w voice-stream keys -- revoke <key id>
 * The database comes from --database, VOICE_DATABASE_URL or DATABASE_URL (default: the app's SQLite file).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseDatabaseUrl, redactDatabaseUrl } from 'app-support';
import { ApiKeyStore } from '../auth/api-key-store';
import { readVoiceConfig } from '../voice-config';

const usage = 'usage: keys create <label> | keys list | keys revoke <key id>  [--database <url>]';

function positional(argv: readonly string[]): string[] {
  const result: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index].startsWith('--')) {
      if (!argv[index].includes('=')) index += 1; // the flag's value
      continue;
    }
    result.push(argv[index]);
  }
  return result;
}

export async function runKeysCommand(argv: readonly string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [command, ...rest] = positional(argv);
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    err(usage);
    return 2;
  }
  if ((command === 'create' || command === 'revoke') && rest.length === 0) {
    err(`keys ${command}: missing ${command === 'create' ? 'label' : 'key id'}\n${usage}`);
    return 2;
  }
  const config = readVoiceConfig(argv, process.env);
  const location = parseDatabaseUrl(config.databaseUrl);
  if (location.dialect === 'sqlite' && location.file !== ':memory:') mkdirSync(path.dirname(location.file), { recursive: true });
  const store = await ApiKeyStore.open(config.databaseUrl);
  try {
    if (command === 'create') {
      const created = await store.create(rest.join(' '));
      out(`Key id:  ${created.id}`);
      out(`API key: ${created.key}`);
      out('Store the key now: it is not shown again. Send it as "Authorization: DeepL-Auth-Key <key>".');
      out(`Database: ${redactDatabaseUrl(config.databaseUrl)}`);
      return 0;
    }
    if (command === 'list') {
      const keys = await store.list();
      if (keys.length === 0) out('No API keys yet. Create one with: keys create <label>');
      for (const key of keys) {
        const state = key.revokedAt === null ? 'active' : `revoked ${new Date(key.revokedAt).toISOString()}`;
        out(`${key.id}  ${key.label}  created ${new Date(key.createdAt).toISOString()}  ${state}`);
      }
      return 0;
    }
    const outcome = await store.revoke(rest[0]);
    if (outcome === 'unknown') {
      err(`keys revoke: no key with id ${rest[0]} (see: keys list)`);
      return 1;
    }
    out(outcome === 'revoked' ? `Revoked ${rest[0]}.` : `${rest[0]} was already revoked.`);
    return 0;
  } catch (error) {
    err(`keys ${command}: ${(error as Error).message}`);
    return 1;
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  runKeysCommand(process.argv.slice(2), console.log, console.error).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`keys: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
