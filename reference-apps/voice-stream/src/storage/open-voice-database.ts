import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { migrateToLatest, openDatabase, parseDatabaseUrl, type Database } from 'app-support';
import { VOICE_MIGRATIONS } from './voice-migrations';
import type { VoiceSchema } from './voice-schema';

/**
 * Opens the voice stream's database (SQLite file or memory, or `postgres://...`) and brings its schema up to
 * date. Several instances starting at once on one PostgreSQL database are safe (the migrator takes a lock).
 */
export async function openVoiceDatabase(databaseUrl: string | undefined): Promise<Database<VoiceSchema>> {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === 'sqlite' && location.file !== ':memory:')
    mkdirSync(path.dirname(location.file), { recursive: true });
  const database = await openDatabase<VoiceSchema>(databaseUrl);
  try {
    await migrateToLatest(database, VOICE_MIGRATIONS);
  } catch (error) {
    await database.destroy();
    throw error;
  }
  return database;
}
