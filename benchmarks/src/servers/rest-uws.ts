/** rest.uws through its public API: a RestBuilder with the benchmark's resource classes (see rest-uws/) and a static folder. */
import 'reflect-metadata';
import { RestBuilder, loadUws } from 'rest.uws';
import { STATIC_PREFIX } from '../contract/routes';
import { HOST, announceReady, exitOnSignals, now, requestedPort, staticDirectory } from './support/server-environment';
import { createBenchResource } from './rest-uws/bench.resource';
import { createManyRoutesResources } from './rest-uws/many-routes.resource';

function main(): void {
  const uws = loadUws();
  const startedAt = now();
  const stats = { profileViews: 0 };
  const app = new RestBuilder()
    .register(createBenchResource(stats), ...createManyRoutesResources())
    .staticFiles(STATIC_PREFIX, staticDirectory())
    .build();
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
