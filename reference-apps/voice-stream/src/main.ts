#!/usr/bin/env node
/**
 * Runs the voice stream API: `npm start -w voice-stream [-- --port 8083 --database <url>]`.
 * Port, host and database also come from VOICE_PORT/PORT, HOST, VOICE_DATABASE_URL/DATABASE_URL;
 * VOICE_PUBLIC_URL sets the base of the streaming_url handed out. SIGTERM or SIGINT stops it gracefully.
 */
import { describeServerConfig } from 'app-support';
import { readVoiceConfig } from './voice-config';
import { PostgresSessionRegistry } from './registry/postgres-session-registry';
import { startVoiceServer } from './server/voice-server';

async function main(): Promise<void> {
  const config = readVoiceConfig();
  const server = await startVoiceServer({ port: config.port, host: config.host, databaseUrl: config.databaseUrl, publicBaseUrl: process.env.VOICE_PUBLIC_URL });
  console.log(describeServerConfig('voice-stream', config, server.port));
  console.log(
    server.registry instanceof PostgresSessionRegistry
      ? `voice-stream: sessions in PostgreSQL, shared with every instance on this database (this is instance ${server.registry.instanceId})`
      : 'voice-stream: sessions in memory (single instance; set DATABASE_URL=postgres://... to run several)',
  );
  console.log(`voice-stream: session requests at ${server.url}/v3/voice/realtime (create a key: npm run -w voice-stream keys -- create <label>)`);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`voice-stream: ${signal} received, stopping`);
    server.close().then(
      () => {
        console.log('voice-stream: stopped');
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`voice-stream: error while stopping: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`voice-stream: ${(error as Error).message}`);
  process.exit(1);
});
