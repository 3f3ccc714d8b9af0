#!/usr/bin/env node
/**
 * API keys of partners:
 *   npm run -w booking-api keys -- create <partner name>   prints a new key once (only its hash is stored)
 *   npm run -w booking-api keys -- list                    partners, key ids, hints, revoked or not
 *   npm run -w booking-api keys -- revoke <key id>
 * The database comes from --database or DATABASE_URL (default: the app's SQLite file).
 */
import { redactDatabaseUrl } from 'app-support';
import { openBookingSystem } from '../booking-system';
import { readBookingConfig } from '../booking-config';

const usage = `usage: keys create <partner name> | keys list | keys revoke <key id>  [--database <url>]`;

function positional(argv: string[]): string[] {
  const result: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    if (argv[index].startsWith('--')) {
      if (!argv[index].includes('=')) index++; // skip the flag's value
      continue;
    }
    result.push(argv[index]);
  }
  return result;
}

export async function runKeysCommand(argv: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [command, ...rest] = positional(argv);
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    err(usage);
    return 2;
  }
  if ((command === 'create' || command === 'revoke') && rest.length === 0) {
    err(`keys ${command}: missing ${command === 'create' ? 'partner name' : 'key id'}\n${usage}`);
    return 2;
  }
  const config = readBookingConfig(argv, process.env);
  const system = await openBookingSystem({
    databaseUrl: config.databaseUrl,
    publicBaseUrl: config.publicBaseUrl ?? 'http://localhost',
    seedDemoCatalogue: false,
    background: false,
  });
  try {
    if (command === 'create') {
      const issued = await system.partnerKeys.issueKey(rest.join(' '));
      out(`Partner: ${issued.partner.name} (${issued.partner.id})`);
      out(`Key id:  ${issued.keyId}`);
      out(`API key: ${issued.key}`);
      out(`Store the key now: it is not shown again. Send it as "Authorization: Bearer <key>" or "Headout-Auth: <key>".`);
      out(`Database: ${redactDatabaseUrl(config.databaseUrl)}`);
      return 0;
    }
    if (command === 'list') {
      const keys = await system.partnerKeys.listKeys();
      if (keys.length === 0) out('No API keys yet. Create one with: keys create <partner name>');
      for (const key of keys) {
        const state = key.revokedAt === null ? 'active' : `revoked ${new Date(key.revokedAt).toISOString()}`;
        out(`${key.id}  ${key.keyHint.padEnd(10)}  ${key.partnerName} (${key.partnerId})  created ${new Date(key.createdAt).toISOString()}  ${state}`);
      }
      return 0;
    }
    const outcome = await system.partnerKeys.revokeKey(rest[0]);
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
    await system.close();
  }
}

if (require.main === module) {
  runKeysCommand(process.argv.slice(2), console.log, console.error).then(
    (code) => process.exit(code),
    (error) => {
      console.error(`keys: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
