import path from 'node:path';
import { readServerConfig, type ServerConfig } from 'app-support';

/** The embedded default: a SQLite file in the app's data folder (git-ignored). */
export const DEFAULT_DATABASE_FILE = path.resolve(__dirname, '..', '..', 'data', 'voice-stream.db');
export const DEFAULT_PORT = 8083;

/** Port, host and database from flags (--port, --host, --database) or VOICE_* / generic env variables. */
export function readVoiceConfig(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return readServerConfig({ port: DEFAULT_PORT, databaseUrl: DEFAULT_DATABASE_FILE, envPrefix: 'VOICE' }, argv, env);
}
