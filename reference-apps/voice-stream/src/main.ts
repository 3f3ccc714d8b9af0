#!/usr/bin/env node
/**
 * Runs the voice stream API: `npm start -w voice-stream [-- --port 8083 --database <url> --max-sessions N
 * --shutdown-timeout S]`. Port, host and database also come from VOICE_PORT/PORT, HOST,
 * VOICE_DATABASE_URL/DATABASE_URL, the limits from VOICE_MAX_SESSIONS and VOICE_SHUTDOWN_TIMEOUT;
 * VOICE_PUBLIC_URL sets the base of the streaming_url handed out. SIGTERM or SIGINT stops it gracefully,
 * within the shutdown timeout (default 10 s).
 */
import { describeServerConfig } from 'app-support';
import { readVoiceConfig } from './config';
import { limitMallocArenas } from './engines/pocketsphinx/native-memory';
import { SignalStop } from './cli/stop-on-signals';
import { PostgresSessionRegistry } from './storage/postgres-session-registry';
import { startVoiceServer } from './server';

async function main(): Promise<void> {
  const config = readVoiceConfig();
  limitMallocArenas();
  const stop = new SignalStop({ name: 'voice-stream', timeoutMs: config.shutdownTimeoutMs });
  const server = await startVoiceServer({
    port: config.port,
    host: config.host,
    databaseUrl: config.databaseUrl,
    publicBaseUrl: process.env.VOICE_PUBLIC_URL,
    maxSessions: config.maxSessions,
  });
  stop.serving(server);
  console.log(describeServerConfig('voice-stream', config, server.port));
  console.log(
    server.registry instanceof PostgresSessionRegistry
      ? `voice-stream: sessions in PostgreSQL, shared with every instance on this database (this is instance ${server.registry.instanceId})`
      : 'voice-stream: sessions in memory (single instance; set DATABASE_URL=postgres://... to run several)',
  );
  console.log(`voice-stream: at most ${config.maxSessions} concurrent sessions (--max-sessions); stops within ${config.shutdownTimeoutMs / 1000} s of SIGTERM`);
  console.log(`voice-stream: session requests at ${server.url}/v3/voice/realtime (create a key: npm run -w voice-stream keys -- create <label>)`);
}

main().catch((error: unknown) => {
  console.error(`voice-stream: ${(error as Error).message}`);
  process.exit(1);
});
