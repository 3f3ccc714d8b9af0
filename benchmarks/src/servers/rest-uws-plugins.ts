/**
 * rest.uws with every production plugin registered and none used by the benchmark's routes (issue 20: a plugin
 * costs nothing on a route that does not use it): the same app as rest-uws.ts, plus health and readiness, the
 * OpenAPI document and Swagger UI, rate limiting (rules on no benchmark route), compression (the answers are below
 * its threshold), trust proxy, cookies with signing keys, problem details and server-sent events. Request ids are
 * left out: an app-wide hook that every answer carries is work by design (its cost is a row of `--costs`).
 */
import 'reflect-metadata';
import {
  compression,
  cookies,
  health,
  openApi,
  problemDetails,
  rateLimit,
  RestBuilder,
  swaggerUi,
  trustProxy,
} from 'rest.uws';
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
    .use(health({ checks: [{ name: 'memory', check: () => process.memoryUsage().rss < 8 * 1024 ** 3 }] }))
    .use(openApi({ title: 'benchmark', version: '1.0.0' }))
    .use(swaggerUi())
    .use(rateLimit())
    .use(compression())
    .use(trustProxy('10.0.0.0/8'))
    .use(cookies({ keys: ['benchmark-signing-key-0123456789abcdef'] }))
    .use(problemDetails())
    .build();
  const bootMs = now() - startedAt;
  listenAndAnnounce(app, 'rest-uws-plugins', bootMs);
}

main();
