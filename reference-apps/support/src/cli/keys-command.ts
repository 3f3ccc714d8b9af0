import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The `keys` command every reference app ships (create / list / revoke API keys), with the app's own store
 * and wording plugged in:
 *   keys create <name>    prints a new key once (only its hash is stored)
 *   keys list             ids, names, revoked or not (never the keys)
 *   keys revoke <key id>
 */

/** What the command needs from an app's key store, opened for one command. */
export interface KeysCommandStore {
  /** Issues a key for `name` and returns the lines to print (the key itself among them, shown once). */
  create(name: string): Promise<string[]>;
  /** One line per key, oldest first; no key material. */
  list(): Promise<string[]>;
  revoke(keyId: string): Promise<'revoked' | 'already' | 'unknown'>;
  close(): Promise<void>;
}

export interface KeysCommandSpec {
  /** What `create` takes, as the usage names it: "partner name", "label". */
  readonly createArgument: string;
  /**
   * The flags the command takes, read with node:util parseArgs (an unknown one is a usage error). Without them,
   * words starting with `--` and their values are skipped.
   */
  readonly flags?: NonNullable<ParseArgsConfig['options']>;
  /** Opens the app's store on the database the flags and environment name. */
  open(argv: readonly string[]): Promise<KeysCommandStore>;
}

export function keysUsage(spec: KeysCommandSpec): string {
  return `usage: keys create <${spec.createArgument}> | keys list | keys revoke <key id>  [--database <url>]`;
}

/** Words that are not flags or flag values (`--database x` and `--database=x` are skipped), for specs without `flags`. */
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

/** Runs one `keys` command; resolves with the process exit code (0 done, 1 failed, 2 usage). */
export async function runKeysCommand(
  spec: KeysCommandSpec,
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const usage = keysUsage(spec);
  let words: string[];
  try {
    words = spec.flags
      ? parseArgs({ args: [...argv], options: spec.flags, strict: true, allowPositionals: true }).positionals
      : positional(argv);
  } catch (error) {
    err(`keys: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  const [command, ...rest] = words;
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    err(usage);
    return 2;
  }
  if ((command === 'create' || command === 'revoke') && rest.length === 0) {
    err(`keys ${command}: missing ${command === 'create' ? spec.createArgument : 'key id'}\n${usage}`);
    return 2;
  }
  const store = await spec.open(argv);
  try {
    if (command === 'create') {
      for (const line of await store.create(rest.join(' '))) out(line);
      return 0;
    }
    if (command === 'list') {
      const lines = await store.list();
      if (lines.length === 0) out(`No API keys yet. Create one with: keys create <${spec.createArgument}>`);
      for (const line of lines) out(line);
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

/** `if (require.main === module) runKeysCommandAsMain(spec)`: runs with the process's arguments and exits. */
export function runKeysCommandAsMain(spec: KeysCommandSpec): void {
  runKeysCommand(spec, process.argv.slice(2), console.log, console.error).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`keys: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}

/** "revoked <ISO time>" or "active", as every app's list shows a key's state. */
export function keyState(revokedAt: number | null): string {
  return revokedAt === null ? 'active' : `revoked ${new Date(revokedAt).toISOString()}`;
}
