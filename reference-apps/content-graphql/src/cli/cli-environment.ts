import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { openDatabase } from 'app-support';
import { createContentService, type ContentService } from '../content-service';
import type { ContentDB } from '../storage/database-types';

/** Where the app keeps its data unless told otherwise (`--database`/`DATABASE_URL`, `--assets`/`ASSETS_DIR`). */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/content-graphql.db';
export const DEFAULT_ASSETS_DIR = './data/assets';

/** The flags every command takes: where the database and the asset files are. */
export const LOCATION_OPTIONS = {
  database: { type: 'string' },
  assets: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export interface Locations { database?: string; assets?: string }

export function databaseUrlFrom(flags: Locations, env: NodeJS.ProcessEnv): string {
  return flags.database ?? env.CONTENT_GRAPHQL_DATABASE_URL ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

export function assetsDirFrom(flags: Locations, env: NodeJS.ProcessEnv): string {
  return resolve(flags.assets ?? env.ASSETS_DIR ?? DEFAULT_ASSETS_DIR);
}

/** Opens the service for a command; `seedDemo` is off so that `import` finds an empty database. */
export async function openForCommand(flags: Locations, env: NodeJS.ProcessEnv, seedDemo: boolean): Promise<{ service: ContentService; close(): Promise<void> }> {
  const database = await openDatabase<ContentDB>(databaseUrlFrom(flags, env));
  const service = await createContentService({ db: database.db, dialect: database.dialect, assetsRoot: assetsDirFrom(flags, env), seedDemo, settings: { changePollMs: 0 } });
  return { service, close: async () => { await service.close(); await database.destroy(); } };
}
