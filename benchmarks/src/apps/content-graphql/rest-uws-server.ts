/**
 * The content GraphQL API as it ships: the reference app on rest.uws (`startContentServer`), one process,
 * with or without its result cache. Prints the harness's READY line.
 */
import { createLogger } from 'rest.uws';
import { startContentServer } from 'content-graphql';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../../servers/support/server-environment';
import { BENCH_PUBLIC_URL, readBenchServerSettings } from './server-settings';

async function main(): Promise<void> {
  const settings = readBenchServerSettings();
  const started = now();
  const server = await startContentServer({
    host: HOST,
    port: requestedPort(),
    databaseUrl: settings.databaseUrl,
    assetsRoot: settings.assetsRoot,
    publicUrl: BENCH_PUBLIC_URL,
    settings: { enableGraphQlCaching: settings.caching, changePollMs: 0 },
    // The load is one client at thousands of queries a second, far past the app's rate limit (600 a minute per token
    // or address), and graphql-http's server limits nothing: the limit is off, and so is the access log.
    rateLimit: false,
    logger: createLogger({ level: 'warn', base: null }),
  });
  exitOnSignals(() => server.close());
  announceReady({ port: server.port, bootMs: now() - started });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
