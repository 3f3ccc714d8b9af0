#!/usr/bin/env node
/**
 * API keys of the voice stream's session request:
 *   npm run -w voice-stream keys -- create <label>   prints a new key once (only its hash is stored)
 *   npm run -w voice-stream keys -- list             ids, labels, revoked or not
 *   npm run -w voice-stream keys -- revoke <key id>
 * The database comes from --database, VOICE_DATABASE_URL or DATABASE_URL (default: the app's SQLite file).
 */
import {
  keyState,
  redactDatabaseUrl,
  runKeysCommand as runSharedKeysCommand,
  runKeysCommandAsMain,
  type KeysCommandSpec,
} from 'app-support';
import { ApiKeyStore } from '../storage/api-key-store';
import { readVoiceConfig } from '../config';

const VOICE_KEYS: KeysCommandSpec = {
  createArgument: 'label',
  async open(argv) {
    const config = readVoiceConfig(argv, process.env);
    const store = await ApiKeyStore.open(config.databaseUrl);
    return {
      async create(label) {
        const created = await store.create(label);
        return [
          `Key id:  ${created.id}`,
          `API key: ${created.key}`,
          'Store the key now: it is not shown again. Send it as "Authorization: DeepL-Auth-Key <key>".',
          `Database: ${redactDatabaseUrl(config.databaseUrl)}`,
        ];
      },
      async list() {
        return (await store.list()).map(
          (key) =>
            `${key.id}  ${key.label}  created ${new Date(key.createdAt).toISOString()}  ${keyState(key.revokedAt)}`,
        );
      },
      revoke: (keyId) => store.revoke(keyId),
      close: () => store.close(),
    };
  },
};

export function runKeysCommand(
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  return runSharedKeysCommand(VOICE_KEYS, argv, out, err);
}

if (require.main === module) runKeysCommandAsMain(VOICE_KEYS);
