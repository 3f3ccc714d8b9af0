/** rest.uws through its public API: a RestBuilder with the benchmark's resource classes (see rest-uws/). */
import 'reflect-metadata';
import { RestBuilder, loadUws } from 'rest.uws';
import { createProfileEvents } from './support/profile-events';
import { HOST, announceReady, exitOnSignals, now, requestedPort, staticFilePath } from './support/server-environment';
import { BenchResource } from './rest-uws/bench.resource';
import { createManyRoutesResource } from './rest-uws/many-routes.resource';

function main(): void {
  const uws = loadUws();
  const startedAt = now();
  const { events, stats } = createProfileEvents();
  const app = new RestBuilder().register(new BenchResource(events, stats, staticFilePath()), createManyRoutesResource()).build();
  const bootMs = now() - startedAt;
  app.listen(HOST, requestedPort(), (listenSocket) => {
    if (!listenSocket) {
      console.error('rest-uws: could not listen');
      process.exit(1);
    }
    announceReady({ port: uws.us_socket_local_port(listenSocket), bootMs });
    exitOnSignals(() => uws.us_listen_socket_close(listenSocket));
  });
}

main();
