import type { Kysely } from 'kysely';
import type { ContentDB } from './storage/database-types';
import { migrateContentDatabase, type Dialect } from './storage/migrations';
import { ContentStore } from './content/content-store';
import { seedDemoContent } from './content/seed-demo';
import { AccessStore } from './schemas/access-store';
import { expandScope } from './schemas/scope';
import { GraphqlService } from './graphql/graphql-service';
import type { GraphqlSettings } from './graphql/graphql-settings';
import { AssetFileService } from './assets/asset-file-service';

export interface ContentServiceOptions {
  db: Kysely<ContentDB>;
  dialect: Dialect;
  /** Directory holding the volumes' files. */
  assetsRoot: string;
  /** Seed the demo content and an enabled public schema when the database is empty (default true). */
  seedDemo?: boolean;
  settings?: Partial<GraphqlSettings>;
}

/** What the public schema of the demo can read: no users (their emails are not public) and not the documents volume. */
export const DEMO_PUBLIC_SCOPE = ['sections.*', 'volumes.images', 'categorygroups.*', 'taggroups.*', 'globalsets.*'];

export interface ContentService {
  store: ContentStore;
  access: AccessStore;
  graphql: GraphqlService;
  /** Serves asset files and generates transforms on their first request. */
  files: AssetFileService;
  close(): void;
}

/** Migrates the database, seeds the demo at first start, and wires the stores and the GraphQL service together. */
export async function createContentService(options: ContentServiceOptions): Promise<ContentService> {
  await migrateContentDatabase(options.db, options.dialect);
  const store = new ContentStore(options.db, options.dialect, options.assetsRoot);
  const access = new AccessStore(options.db, () => store.changed('access'));
  if (options.seedDemo !== false && (await seedDemoContent(store))) {
    await access.ensurePublicSchema(expandScope(DEMO_PUBLIC_SCOPE, await store.catalog()), true);
  } else {
    await access.ensurePublicSchema([], false);
  }
  const graphql = new GraphqlService(store, access, options.settings);
  return { store, access, graphql, files: new AssetFileService(store, graphql.transformer), close: () => graphql.close() };
}
