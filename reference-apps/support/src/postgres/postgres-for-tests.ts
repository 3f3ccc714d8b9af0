import crypto from 'node:crypto';
import { createDatabaseAt, dropDatabaseAt, startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres';

export interface TestPostgresDatabase {
  /** URL of a fresh, empty database for this test file. */
  url: string;
  name: string;
  /** Another fresh database on the same server (for tests that each want an empty one); dropped by close(). */
  freshDatabase(label?: string): Promise<string>;
  /** Drops the databases (and stops the cluster this process started when it was the last user). */
  close(): Promise<void>;
}

let ownCluster: Promise<ThrowawayPostgres> | undefined;
let openHandles = 0;

function uniqueName(label: string): string {
  const prefix = label
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/^[^a-z_]/, '_')
    .slice(0, 30);
  return `${prefix}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
}

/**
 * A fresh PostgreSQL database for a test file. Uses the cluster at TEST_POSTGRES_URL when set
 * (CI starts one for the whole run with with-postgres-cli), otherwise starts a throwaway cluster for this process.
 * Never skips: missing PostgreSQL binaries fail with the install command.
 */
export async function postgresForTests(label = 'test'): Promise<TestPostgresDatabase> {
  const sharedUrl = process.env.TEST_POSTGRES_URL;
  let cluster: ThrowawayPostgres | undefined;
  if (!sharedUrl) {
    ownCluster ??= startThrowawayPostgres();
    openHandles++;
    cluster = await ownCluster;
  }
  const adminUrl = sharedUrl ?? cluster!.url;
  const created: string[] = [];
  const create = async (databaseLabel: string) => {
    const name = uniqueName(databaseLabel);
    const url = await createDatabaseAt(adminUrl, name);
    created.push(name);
    return { name, url };
  };
  const first = await create(label);
  let closed = false;
  return {
    url: first.url,
    name: first.name,
    freshDatabase: async (databaseLabel = label) => (await create(databaseLabel)).url,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const name of created) await dropDatabaseAt(adminUrl, name).catch(() => undefined);
      if (cluster && --openHandles === 0) {
        ownCluster = undefined;
        await cluster.stop();
      }
    },
  };
}
