// First: with OTEL_EXPORTER_OTLP_ENDPOINT set, the pg instrumentation must see `pg` before anything loads it.
import { stopTelemetry } from './telemetry';
import { describeServerConfig, describeTrustProxy } from 'app-support';
import { createLogger } from 'rest.uws';
import { readContentConfig } from './config';
import { startContentServer } from './server';

/**
 * `npm start -w content-graphql`: reads the configuration (config.ts), builds the app and listens until SIGINT or
 * SIGTERM, which stop it gracefully (`/ready` answers 503, requests in flight finish). Logs are JSON lines on stdout
 * (an access line per request at info). With OTEL_EXPORTER_OTLP_ENDPOINT set, traces go there (telemetry.ts).
 */
async function main(): Promise<void> {
  const { server: config, options, run } = readContentConfig(process.argv.slice(2), process.env);
  const logger = createLogger({ level: run.logLevel, name: 'content-graphql', base: null });
  const server = await startContentServer({ ...options, logger });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server
      .close()
      .then(() => stopTelemetry())
      .then(
        () => {
          logger.flush();
          process.exit(0);
        },
        (error: unknown) => {
          console.error(`content-graphql: error while stopping: ${(error as Error).message}`);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Printed once the signals are handled: whoever waits for this line may stop the server at once.
  console.log(describeServerConfig('content-graphql', config, server.port));
  const limit =
    options.rateLimit === false || options.rateLimit === undefined
      ? 'GraphQL requests not rate limited (--rate-limit off)'
      : `at most ${options.rateLimit.limit} GraphQL requests per minute per token (${server.sharedRateLimits ? 'counted in PostgreSQL, shared by every instance' : 'counted in this process'})`;
  console.log(
    `content-graphql: ${limit}; trust proxy ${describeTrustProxy(options.trustProxy ?? false)}; health at /health, readiness at /ready; log level ${run.logLevel}`,
  );
}

main().catch((error: unknown) => {
  console.error(`content-graphql: ${(error as Error).message}`);
  process.exit(1);
});
