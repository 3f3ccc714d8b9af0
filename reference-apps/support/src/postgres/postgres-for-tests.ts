import crypto from 'node:crypto';
import { createDatabaseAt, dropDatabaseAt, startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres';

export interface TestPostgresDatabase {
  /** URL of a fresh, empty database for this test file. */
  url: string;
  name: string;
  /** Drops the database (and stops the cluster this process started when it was the last user). */
  close(): Promise<void>;
}

let ownCluster: Promise<ThrowawayPostgres> | undefined;
let openDatabases = 0;

/**
 * A fresh PostgreSQL database for a test file. Uses the cluster at TEST_POSTGRES_URL when set
 * (CI starts one for the whole run with with-postgres-cli), otherwise starts a throwaway cluster for this process.
 * Never skips: missing PostgreSQL binaries fail with the install command.
 */
export async function postgresForTests(label = 'test'): Promise<TestPostgresDatabase> {
  const sharedUrl = process.env.TEST_POSTGRES_URL;
  const prefix = label.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 30);
  const name = `${prefix}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  if (sharedUrl) {
    const url = await createDatabaseAt(sharedUrl, name);
    return { url, name, close: () => dropDatabaseAt(sharedUrl, name) };
  }
  ownCluster ??= startThrowawayPostgres();
  const cluster = await ownCluster;
  const url = await cluster.createDatabase(name);
  openDatabases++;
  let closed = false;
  return {
    url,
    name,
    close: async () => {
      if (closed) return;
      closed = true;
      await dropDatabaseAt(cluster.url, name).catch(() => undefined);
      if (--openDatabases === 0) {
        ownCluster = undefined;
        await cluster.stop();
      }
    },
  };
}
