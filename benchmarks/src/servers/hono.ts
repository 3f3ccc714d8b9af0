/**
 * Hono 4 on Node through `@hono/node-server`, as Hono's docs set it up for Node (https://hono.dev/docs/getting-started/nodejs):
 * `serve({ fetch: app.fetch })`, the default router (SmartRouter), `c.json`, the built-in `validator('json')`
 * middleware with the contract's hand-written check (https://hono.dev/docs/guides/validation; Hono has no schema
 * validator of its own), `bodyLimit`, `bearerAuth` with `verifyToken`, and `serveStatic` from `@hono/node-server`.
 * Hono logs nothing unless its `logger()` middleware is added, so nothing is logged here, as for the other servers.
 */
import { type HttpBindings, serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { bodyLimit } from 'hono/body-limit';
import { validator } from 'hono/validator';
import { findOrderProblem } from '../contract/order';
import {
  HELLO_BODY,
  HELLO_PATH,
  MANY_ROUTES_COUNT,
  MAX_BODY_BYTES,
  ME_PATH,
  ORDERS_PATH,
  PROFILE_VIEWED_EVENT,
  STATIC_PREFIX,
  STATS_PATH,
  manyRouteResponse,
  userResponse,
} from '../contract/routes';
import { type BenchUser, userFromAuthorization } from './support/bearer-tokens';
import { createProfileEvents } from './support/profile-events';
import { HOST, announceReady, exitOnSignals, now, requestedPort, staticDirectory } from './support/server-environment';

type BenchEnv = { Bindings: HttpBindings; Variables: { user: BenchUser } };

function main(): void {
  const startedAt = now();
  const { events, stats } = createProfileEvents();
  const app = new Hono<BenchEnv>();

  app.get(HELLO_PATH, (c) => c.json(HELLO_BODY));

  app.get('/users/:id', (c) => {
    const rawId = c.req.param('id');
    const id = Number(rawId);
    if (!/^-?\d+$/.test(rawId) || !Number.isSafeInteger(id))
      return c.json({ error: `id must be an integer, got "${rawId}"` }, 400);
    const fields = c.req.query('fields');
    return c.json(userResponse(id, fields ? fields.split(',') : []));
  });

  app.post(
    ORDERS_PATH,
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json({ error: 'body too large' }, 413) }),
    // A body that is not JSON is refused with 400 by the validator itself.
    validator('json', (value, c) => {
      const problem = findOrderProblem(value);
      if (problem) return c.json({ error: problem }, 400);
      return value as Record<string, unknown>;
    }),
    (c) => c.json(c.req.valid('json'), 201),
  );

  const staticRoot = staticDirectory();
  app.use(
    `${STATIC_PREFIX}/*`,
    serveStatic({ root: staticRoot, rewriteRequestPath: (path) => path.slice(STATIC_PREFIX.length) }),
  );

  app.get(
    ME_PATH,
    bearerAuth<BenchEnv>({
      verifyToken: (token, c) => {
        const user = userFromAuthorization(`Bearer ${token}`);
        if (user) c.set('user', user);
        return user !== undefined;
      },
    }),
    (c) => {
      const user = c.get('user');
      c.env.outgoing.once('finish', () => events.emit(PROFILE_VIEWED_EVENT, user));
      return c.json(user);
    },
  );

  app.get(STATS_PATH, (c) => c.json(stats));

  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    app.get(`/r${index}/items/:id`, (c) => c.json(manyRouteResponse(index, c.req.param('id'))));
  }

  app.notFound((c) => c.json({ error: 'no such route' }, 404));

  const bootMs = now() - startedAt;
  const server = serve({ fetch: app.fetch, port: requestedPort(), hostname: HOST }, (info) =>
    announceReady({ port: info.port, bootMs }),
  );
  exitOnSignals(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

main();
