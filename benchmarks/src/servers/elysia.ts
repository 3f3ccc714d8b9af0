/**
 * Elysia 1.4 on Node through `@elysiajs/node` (https://elysiajs.com/integrations/node), in its own idiom: TypeBox
 * schemas (`t`) for params, body and responses, which Elysia compiles into its validators and (with `normalize`,
 * its default) response cleaners; `@elysiajs/bearer` for the token and `@elysiajs/static` for the file. Elysia answers
 * a failed validation with 422; the contract wants 400, so `onError` maps it. Elysia logs nothing by default.
 */
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { node } from '@elysiajs/node';
import { bearer } from '@elysiajs/bearer';
import { staticPlugin } from '@elysiajs/static';
import { Elysia, t } from 'elysia';
import { orderTypeBox } from '../contract/order-typebox';
import {
  HELLO_BODY,
  HELLO_PATH,
  MANY_ROUTES_COUNT,
  ME_PATH,
  ORDERS_PATH,
  PROFILE_VIEWED_EVENT,
  STATIC_PREFIX,
  STATS_PATH,
  manyRouteResponse,
  userResponse,
} from '../contract/routes';
import { userFromAuthorization } from './support/bearer-tokens';
import { createProfileEvents } from './support/profile-events';
import { HOST, announceReady, exitOnSignals, now, requestedPort, staticDirectory } from './support/server-environment';

const helloSchema = t.Object({ message: t.String() });
const userSchema = t.Object({ id: t.Integer(), fields: t.Array(t.String()) });
const meSchema = t.Object({ id: t.String(), name: t.String(), roles: t.Array(t.String()) });

async function main(): Promise<void> {
  const startedAt = now();
  const { events, stats } = createProfileEvents();
  let app = new Elysia({ adapter: node() })
    .onError(({ code, error, set }) => {
      if (code === 'VALIDATION' || code === 'PARSE') {
        set.status = 400;
        return { error: code === 'VALIDATION' ? error.message.slice(0, 200) : 'the body is not JSON' };
      }
      if (code === 'NOT_FOUND') {
        set.status = 404;
        return { error: 'no such route' };
      }
    })
    .use(await staticPlugin({ assets: staticDirectory(), prefix: STATIC_PREFIX }))
    .use(bearer())
    .get(HELLO_PATH, () => HELLO_BODY, { response: helloSchema })
    .get('/users/:id', ({ params, query }) => userResponse(params.id, query.fields ? query.fields.split(',') : []), {
      params: t.Object({ id: t.Integer() }),
      query: t.Object({ fields: t.Optional(t.String()) }),
      response: userSchema,
    })
    .post(
      ORDERS_PATH,
      ({ body, set }) => {
        set.status = 201;
        return body;
      },
      { body: orderTypeBox, response: { 201: orderTypeBox } },
    )
    .get(
      ME_PATH,
      ({ bearer: token, set }) => {
        const user = token === undefined ? undefined : userFromAuthorization(`Bearer ${token}`);
        if (!user) {
          set.status = 401;
          set.headers['www-authenticate'] = 'Bearer';
          return { error: 'missing or invalid Bearer token' };
        }
        return { id: user.id, name: user.name, roles: [...user.roles] };
      },
      {
        response: { 200: meSchema, 401: t.Object({ error: t.String() }) },
        // After the response is written, as the other servers emit it.
        afterResponse: ({ set }) => {
          if (set.status === 200 || set.status === undefined) events.emit(PROFILE_VIEWED_EVENT);
        },
      },
    )
    .get(STATS_PATH, () => stats);
  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    app = app.get(`/r${index}/items/:id`, ({ params }) => manyRouteResponse(index, params.id)) as typeof app;
  }
  const bootMs = now() - startedAt;
  app.listen({ port: requestedPort(), hostname: HOST }, (server) => {
    // With port 0 the adapter reports 0: the chosen port is read from the Node server it wraps.
    const wrapped = (server as unknown as { node?: { server?: http.Server } & Partial<http.Server> }).node;
    const nodeServer = (wrapped?.server ?? wrapped) as http.Server;
    const ready = () => announceReady({ port: (nodeServer.address() as AddressInfo).port, bootMs });
    if (nodeServer.listening) ready();
    else nodeServer.once('listening', ready);
  });
  exitOnSignals(async () => {
    await app.stop();
  });
}

main().catch((error: unknown) => {
  console.error('elysia:', error);
  process.exit(1);
});
