#!/usr/bin/env node
/**
 * API keys of partners:
 *   npm run -w booking-api keys -- create <partner name>   prints a new key once (only its hash is stored)
 *   npm run -w booking-api keys -- list                    partners, key ids, hints, revoked or not
 *   npm run -w booking-api keys -- revoke <key id>
 * The database comes from --database or DATABASE_URL (default: the app's SQLite file); the server's other flags are
 * accepted, an unknown one is a usage error (node:util parseArgs).
 */
import {
  keyState,
  redactDatabaseUrl,
  runKeysCommand as runSharedKeysCommand,
  runKeysCommandAsMain,
  type KeysCommandSpec,
} from 'app-support';
import { openBookingSystem } from '../booking-system';
import { BOOKING_FLAGS, bookingConfigFrom, parseBookingFlags } from '../config';

const PARTNER_KEYS: KeysCommandSpec = {
  createArgument: 'partner name',
  flags: BOOKING_FLAGS,
  async open(argv) {
    const config = bookingConfigFrom(parseBookingFlags(argv, true).flags, process.env);
    const system = await openBookingSystem({
      databaseUrl: config.databaseUrl,
      publicBaseUrl: config.publicBaseUrl ?? 'http://localhost',
      seedDemoCatalogue: false,
      background: false,
    });
    return {
      async create(partnerName) {
        const issued = await system.partnerKeys.issueKey(partnerName);
        return [
          `Partner: ${issued.partner.name} (${issued.partner.id})`,
          `Key id:  ${issued.keyId}`,
          `API key: ${issued.key}`,
          `Store the key now: it is not shown again. Send it as "Authorization: Bearer <key>" or "Headout-Auth: <key>".`,
          `Database: ${redactDatabaseUrl(config.databaseUrl)}`,
        ];
      },
      async list() {
        return (await system.partnerKeys.listKeys()).map(
          (key) =>
            `${key.id}  ${key.keyHint.padEnd(10)}  ${key.partnerName} (${key.partnerId})  created ${new Date(key.createdAt).toISOString()}  ${keyState(key.revokedAt)}`,
        );
      },
      async revoke(keyId) {
        const outcome = await system.partnerKeys.revokeKey(keyId);
        return outcome === 'already-revoked' ? 'already' : outcome;
      },
      close: () => system.close(),
    };
  },
};

export function runKeysCommand(
  argv: string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  return runSharedKeysCommand(PARTNER_KEYS, argv, out, err);
}

if (require.main === module) runKeysCommandAsMain(PARTNER_KEYS);
