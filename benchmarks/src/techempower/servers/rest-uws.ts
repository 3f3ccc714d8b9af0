/**
 * rest.uws as an adopter runs it: the resource in rest-uws/, the `Server` header every answer carries set once
 * with `defaultHeaders`, and `startServer` (graceful shutdown, requests in flight counted).
 */
import 'reflect-metadata';
import { RestBuilder, startServer } from 'rest.uws';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../../servers/support/server-environment';
import { storeFromEnvironment } from '../support/world-store';
import { BenchmarkResource, WorldService } from './rest-uws/benchmark.resource';

async function main(): Promise<void> {
  const startedAt = now();
  const store = storeFromEnvironment();
  const app = new RestBuilder()
    .defaultHeaders({ Server: 'rest.uws' })
    .register(new BenchmarkResource(new WorldService(store)))
    .build();
  const bootMs = now() - startedAt;
  const server = await startServer(app, { port: requestedPort(), host: HOST });
  announceReady({ port: server.port, bootMs });
  exitOnSignals(async () => {
    await server.shutdown(1000);
    await store.close();
  });
}

main().catch((error: unknown) => {
  console.error('techempower rest-uws:', error);
  process.exit(1);
});
