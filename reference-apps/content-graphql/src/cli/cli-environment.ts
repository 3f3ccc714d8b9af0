import { resolve } from 'node:path';
import { openDatabase, readFlag } from 'app-support';
import { createContentService, type ContentService } from '../content-service';
import type { ContentDB } from '../storage/database-types';

/** Where the app keeps its data unless told otherwise (`--database`/`DATABASE_URL`, `--assets`/`ASSETS_DIR`). */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/content-graphql.db';
export const DEFAULT_ASSETS_DIR = './data/assets';

export function databaseUrlFrom(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  return readFlag(argv, 'database') ?? env.CONTENT_GRAPHQL_DATABASE_URL ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

export function assetsDirFrom(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  return resolve(readFlag(argv, 'assets') ?? env.ASSETS_DIR ?? DEFAULT_ASSETS_DIR);
}

/** Opens the service for a command; `seedDemo` is off so that `import` finds an empty database. */
export async function openForCommand(argv: readonly string[], env: NodeJS.ProcessEnv, seedDemo: boolean): Promise<{ service: ContentService; close(): Promise<void> }> {
  const database = await openDatabase<ContentDB>(databaseUrlFrom(argv, env));
  const service = await createContentService({ db: database.db, dialect: database.dialect, assetsRoot: assetsDirFrom(argv, env), seedDemo, settings: { changePollMs: 0 } });
  return { service, close: async () => { await service.close(); await database.destroy(); } };
}

/** Positional arguments: everything that is not a `--flag value` pair. */
export function positionals(argv: readonly string[]): string[] {
  const result: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      if (!arg.includes('=')) i++;
      continue;
    }
    result.push(arg);
  }
  return result;
}
