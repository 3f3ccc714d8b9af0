/** rest.uws through its public API: a RestBuilder with the benchmark's resource classes (see rest-uws/) and a static folder. */
import 'reflect-metadata';
import { RestBuilder } from 'rest.uws';
import { STATIC_PREFIX } from '../contract/routes';
import { listenAndAnnounce, now, staticDirectory } from './support/server-environment';
import { createBenchResource } from './rest-uws/bench.resource';
import { createManyRoutesResources } from './rest-uws/many-routes.resource';

function main(): void {
  const startedAt = now();
  const stats = { profileViews: 0 };
  const app = new RestBuilder()
    .register(createBenchResource(stats), ...createManyRoutesResources())
    .staticFiles(STATIC_PREFIX, staticDirectory())
    .build();
  const bootMs = now() - startedAt;
  listenAndAnnounce(app, 'rest-uws', bootMs);
}

main();
