#!/usr/bin/env node
/**
 * Runs the voice stream API: `npm start -w voice-stream [-- --port 8083 --database <url> --max-sessions N
 * --shutdown-timeout S]`. Port, host and database also come from VOICE_PORT/PORT, HOST,
 * VOICE_DATABASE_URL/DATABASE_URL, the limits from VOICE_MAX_SESSIONS and VOICE_SHUTDOWN_TIMEOUT;
 * VOICE_PUBLIC_URL sets the base of the streaming_url handed out; --trust-proxy, --session-rate-limit and
 * --log-level (VOICE_TRUST_PROXY, VOICE_SESSION_RATE_LIMIT, VOICE_LOG_LEVEL) the operations. Logs are JSON lines on
 * stdout (an access line per request at info). SIGTERM or SIGINT stops it gracefully, within the shutdown timeout
 * (default 10 s). With OTEL_EXPORTER_OTLP_ENDPOINT set, traces go there (telemetry.ts).
 */
// First: with OTEL_EXPORTER_OTLP_ENDPOINT set, the pg instrumentation must see `pg` before anything loads it.
import { stopTelemetry } from './telemetry';
import { describeServerConfig, describeTrustProxy } from 'app-support';
import { createLogger } from 'rest.uws';
import { readVoiceConfig } from './config';
import { acousticModelUse } from './engines/pocketsphinx/acoustic-adaptation';
import { limitMallocArenas } from './engines/pocketsphinx/native-memory';
import { parkRecognitionWorkersOnStop } from './engines/pocketsphinx/pocketsphinx-recognizer';
import { SignalStop } from './cli/stop-on-signals';
import { PostgresSessionRegistry } from './storage/postgres-session-registry';
import { startVoiceServer } from './server';

async function main(): Promise<void> {
  const config = readVoiceConfig();
  limitMallocArenas();
  const logger = createLogger({ level: config.logLevel, name: 'voice-stream', base: null });
  const stop = new SignalStop({
    name: 'voice-stream',
    timeoutMs: config.shutdownTimeoutMs,
    flush: () => logger.flush(),
    // The process ends with _exit once the server is closed: recognition threads free their decoders and stay
    // parked rather than being torn down (a dozen at once crashed the process now and then, SIGSEGV).
    onSignal: parkRecognitionWorkersOnStop,
  });
  // Without `npm run adapt` (a container's command, a process manager), recognition silently got worse: say so.
  for (const use of acousticModelUse()) (use.adapted ? console.log : console.warn)(use.line);
  const server = await startVoiceServer({
    port: config.port,
    host: config.host,
    databaseUrl: config.databaseUrl,
    publicBaseUrl: process.env.VOICE_PUBLIC_URL,
    maxSessions: config.maxSessions,
    logger,
    trustProxy: config.trustProxy,
    sessionRateLimit:
      config.sessionRateLimitPerMinute === false
        ? false
        : { limit: config.sessionRateLimitPerMinute, windowSeconds: 60 },
    jobs: {
      directory: config.jobs.directory,
      concurrency: config.jobs.concurrency,
      limits: { maxFileBytes: config.jobs.maxFileBytes, maxDurationMs: config.jobs.maxDurationMs },
    },
  });
  // The spans still batched are sent before the process ends.
  stop.serving({ close: () => server.close().then(() => stopTelemetry()) });
  console.log(describeServerConfig('voice-stream', config, server.port));
  console.log(
    server.registry instanceof PostgresSessionRegistry
      ? `voice-stream: sessions in PostgreSQL, shared with every instance on this database (this is instance ${server.registry.instanceId})`
      : 'voice-stream: sessions in memory (single instance; set DATABASE_URL=postgres://... to run several)',
  );
  console.log(
    `voice-stream: at most ${config.maxSessions} concurrent sessions (--max-sessions); stops within ${config.shutdownTimeoutMs / 1000} s of SIGTERM`,
  );
  console.log(
    `voice-stream: session requests at ${server.url}/v3/voice/realtime (create a key: npm run -w voice-stream keys -- create <label>)`,
  );
  console.log(
    `voice-stream: audio-file jobs at ${server.url}/v1/jobs/voice/translate, ${config.jobs.concurrency} at once, files in ${server.jobs.directory} (at most ${config.jobs.maxFileBytes} bytes, ${config.jobs.maxDurationMs / 1000} s of audio each)`,
  );
  const limit =
    config.sessionRateLimitPerMinute === false
      ? 'session requests not rate limited (--session-rate-limit off)'
      : `at most ${config.sessionRateLimitPerMinute} session requests per minute per API key (${server.sharedRateLimits ? 'counted in PostgreSQL, shared by every instance' : 'counted in this process'})`;
  console.log(
    `voice-stream: ${limit}; trust proxy ${describeTrustProxy(config.trustProxy)}; health at /health, readiness at /ready; log level ${config.logLevel}`,
  );
}

main().catch((error: unknown) => {
  console.error(`voice-stream: ${(error as Error).message}`);
  process.exit(1);
});
