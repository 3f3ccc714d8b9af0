import fs from 'node:fs';
import path from 'node:path';

export const POSTGRES_INSTALL_COMMAND = 'apt-get update && apt-get install -y --no-install-recommends postgresql';

/**
 * Finds the PostgreSQL server binaries (initdb, pg_ctl): POSTGRES_BIN_DIR if set,
 * otherwise Debian's /usr/lib/postgresql/<version>/bin, preferring 15 and then the newest.
 * Throws with the install command when they are missing: tests must never skip PostgreSQL silently.
 */
export function findPostgresBinaries(
  env: NodeJS.ProcessEnv = process.env,
  debianRoot = '/usr/lib/postgresql',
): { initdb: string; pgCtl: string; directory: string } {
  const candidates: string[] = [];
  if (env.POSTGRES_BIN_DIR) candidates.push(env.POSTGRES_BIN_DIR);
  if (fs.existsSync(debianRoot)) {
    const versions = fs
      .readdirSync(debianRoot)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => (a === '15' ? -1 : b === '15' ? 1 : Number(b) - Number(a)));
    candidates.push(...versions.map((version) => path.join(debianRoot, version, 'bin')));
  }
  for (const directory of candidates) {
    const initdb = path.join(directory, 'initdb');
    const pgCtl = path.join(directory, 'pg_ctl');
    if (fs.existsSync(initdb) && fs.existsSync(pgCtl)) return { initdb, pgCtl, directory };
  }
  throw new Error(
    `PostgreSQL server binaries (initdb, pg_ctl) not found in ${candidates.join(', ') || debianRoot}. ` +
      `Install them as root with: ${POSTGRES_INSTALL_COMMAND} (or set POSTGRES_BIN_DIR)`,
  );
}
