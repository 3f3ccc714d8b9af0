import type { Database } from 'app-support';
import type { VoiceSchema } from './voice-schema';
import { MemorySessionRegistry } from './memory-session-registry';
import {
  PostgresSessionRegistry,
  type PostgresRegistryOptions,
  type RequestValidator,
} from './postgres-session-registry';
import type { SessionRegistry } from '../domain/registry/session-registry';

/**
 * The registry that fits the database: PostgreSQL (`DATABASE_URL=postgres://...`) shares sessions between any
 * number of instances; with SQLite (or no database) this single instance keeps them in memory.
 */
export async function openSessionRegistry(
  database: Database<VoiceSchema>,
  connectionString: string | undefined,
  validate: RequestValidator,
  options: Partial<PostgresRegistryOptions> = {},
): Promise<SessionRegistry> {
  if (database.dialect === 'postgres' && connectionString)
    return PostgresSessionRegistry.start(database.db, connectionString, validate, options);
  return new MemorySessionRegistry(options);
}
