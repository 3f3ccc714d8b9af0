import pg from 'pg';

/** A database cut off for a test: `restore()` lets connections in again (safe to call twice). */
export interface DatabaseOutage {
  restore(): Promise<void>;
}

/**
 * Takes a PostgreSQL database away from its apps, as an outage would: no new connection is allowed to it and the
 * open ones are terminated (the server itself keeps running). `adminUrl` is a connection to another database of
 * the same cluster, as a superuser (a throwaway cluster's first database). Restore it before dropping the database.
 */
export async function cutOffDatabase(adminUrl: string, databaseUrl: string): Promise<DatabaseOutage> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (name === decodeURIComponent(new URL(adminUrl).pathname.slice(1)))
    throw new Error('cutOffDatabase: the admin connection must be to another database');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const quoted = `"${name.replace(/"/g, '""')}"`;
  try {
    await admin.query(`ALTER DATABASE ${quoted} ALLOW_CONNECTIONS false`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
  } catch (error) {
    await admin.end();
    throw error;
  }
  let restored: Promise<void> | undefined;
  return {
    restore: () =>
      (restored ??= (async () => {
        try {
          await admin.query(`ALTER DATABASE ${quoted} ALLOW_CONNECTIONS true`);
        } finally {
          await admin.end();
        }
      })()),
  };
}
