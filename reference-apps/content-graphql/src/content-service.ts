import { sql, type Kysely } from 'kysely';
import { PostgresNoticeListener } from 'app-support';
import { CHANGE_CHANNEL, parseChangeNotice, type ChangeNotice } from './storage/change-notice';
import type { ContentDB } from './storage/database-types';
import { migrateContentDatabase, type Dialect } from './storage/migrations';
import { ContentStore } from './storage/content-store';
import { seedDemoContent } from './domain/demo/seed-demo';
import { AccessStore } from './storage/access-store';
import { expandScope } from './domain/access/scope';
import { GraphqlService } from './graphql/graphql-service';
import type { GraphqlSettings } from './graphql/graphql-settings';
import { AssetFileService } from './domain/assets/asset-file-service';

export interface ContentServiceOptions {
  db: Kysely<ContentDB>;
  dialect: Dialect;
  /** Directory holding the volumes' files. */
  assetsRoot: string;
  /** Seed the demo content and an enabled public schema when the database is empty (default true). */
  seedDemo?: boolean;
  settings?: Partial<GraphqlSettings>;
  /**
   * PostgreSQL only: the database URL to hold a `LISTEN` connection on, so that changes made by other instances
   * and processes reach this one within milliseconds (several instances on one database).
   */
  listenUrl?: string;
}

/** What the public schema of the demo can read: no users (their emails are not public) and not the documents volume. */
export const DEMO_PUBLIC_SCOPE = ['sections.*', 'volumes.images', 'categorygroups.*', 'taggroups.*', 'globalsets.*'];

export interface ContentService {
  store: ContentStore;
  access: AccessStore;
  graphql: GraphqlService;
  /** Serves asset files and generates transforms on their first request. */
  files: AssetFileService;
  /** The LISTEN connection, when the service listens for other instances' changes. */
  changes: PostgresNoticeListener<ChangeNotice> | null;
  close(): Promise<void>;
}

/** Migrates the database, seeds the demo at first start, and wires the stores and the GraphQL service together. */
export async function createContentService(options: ContentServiceOptions): Promise<ContentService> {
  const store = new ContentStore(options.db, options.dialect, options.assetsRoot);
  const access = new AccessStore(options.db, () => store.changed('access'));
  await withSetupLock(options.db, options.dialect, async () => {
    await migrateContentDatabase(options.db, options.dialect);
    if (options.seedDemo !== false && (await seedDemoContent(store))) {
      await access.ensurePublicSchema(expandScope(DEMO_PUBLIC_SCOPE, await store.catalog()), true);
    } else {
      await access.ensurePublicSchema([], false);
    }
  });
  const graphql = new GraphqlService(store, access, options.settings);
  let changes: PostgresNoticeListener<ChangeNotice> | null = null;
  if (options.listenUrl && options.dialect === 'postgres') {
    changes = new PostgresNoticeListener(options.listenUrl, {
      channel: CHANGE_CHANNEL,
      parse: parseChangeNotice,
      handlers: { onNotice: (notice) => graphql.applyNotice(notice), onResumed: () => graphql.forgetAll() },
    });
    try {
      await changes.start();
    } catch (error) {
      graphql.close();
      throw new Error(`Cannot listen for changes on PostgreSQL: ${(error as Error).message}`, { cause: error });
    }
  }
  const listener = changes;
  return {
    store,
    access,
    graphql,
    files: new AssetFileService(store, graphql.transformer),
    changes,
    close: async () => {
      graphql.close();
      await listener?.close();
    },
  };
}

/** Any number for the advisory lock, as long as it is always the same one. */
const SETUP_LOCK_KEY = 4_206_061;

/**
 * Instances starting at once on one empty PostgreSQL database must not each seed the demo: migrations and the seed
 * run under a session-level advisory lock held on one pooled connection (others wait for it, then find the seed).
 */
async function withSetupLock(db: Kysely<ContentDB>, dialect: Dialect, setup: () => Promise<void>): Promise<void> {
  if (dialect !== 'postgres') return setup();
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${SETUP_LOCK_KEY})`.execute(connection);
    try {
      await setup();
    } finally {
      await sql`select pg_advisory_unlock(${SETUP_LOCK_KEY})`.execute(connection);
    }
  });
}
