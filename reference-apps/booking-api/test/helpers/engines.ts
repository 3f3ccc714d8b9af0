import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { postgresForTests, type TestPostgresDatabase } from 'app-support';

export interface Engine {
  name: 'SQLite' | 'PostgreSQL';
  /** URL of a new, empty database on this engine. */
  freshUrl(): Promise<string>;
  /** PostgreSQL: a superuser connection to another database of the cluster (to cut a database off); SQLite: none. */
  adminUrl(): Promise<string>;
}

/**
 * Both storage engines for a test file: SQLite files in a temp folder and databases on a real PostgreSQL
 * (TEST_POSTGRES_URL, or a throwaway cluster). Registers the hooks that clean them up.
 */
export function useEngines(label: string): Engine[] {
  let postgres: TestPostgresDatabase | undefined;
  let folder: string | undefined;
  let counter = 0;
  test.before(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`));
    postgres = await postgresForTests(label);
  });
  test.after.always(async () => {
    await postgres?.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });
  return [
    {
      name: 'SQLite',
      freshUrl: async () => path.join(folder!, `booking-${++counter}.db`),
      adminUrl: () => Promise.reject(new Error('SQLite has no admin connection')),
    },
    { name: 'PostgreSQL', freshUrl: () => postgres!.freshDatabase(label), adminUrl: async () => postgres!.url },
  ];
}
