/**
 * Fastify 5 in its own idiom: JSON schemas for validation and response serialization,
 * @fastify/static for files, an onRequest hook for the Bearer token and an onResponse hook for the event.
 */
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import { orderSchema } from '../contract/order-schema';
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
import { userFromAuthorization, type BenchUser } from './support/bearer-tokens';
import { createProfileEvents } from './support/profile-events';
import { HOST, announceReady, exitOnSignals, now, requestedPort, staticDirectory } from './support/server-environment';

declare module 'fastify' {
  interface FastifyRequest {
    user?: BenchUser;
  }
}

const userSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, name: { type: 'string' }, roles: { type: 'array', items: { type: 'string' } } },
} as const;

const errorSchema = { type: 'object', properties: { error: { type: 'string' } } } as const;

async function main(): Promise<void> {
  const startedAt = now();
  const { events, stats } = createProfileEvents();
  const app = Fastify({ logger: false });

  app.get(
    HELLO_PATH,
    { schema: { response: { 200: { type: 'object', properties: { message: { type: 'string' } } } } } },
    async () => HELLO_BODY,
  );

  app.get<{ Params: { id: number }; Querystring: { fields?: string } }>(
    '/users/:id',
    {
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
        querystring: { type: 'object', properties: { fields: { type: 'string' } } },
        response: {
          200: {
            type: 'object',
            properties: { id: { type: 'integer' }, fields: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    },
    async (request) => userResponse(request.params.id, request.query.fields ? request.query.fields.split(',') : []),
  );

  app.post(ORDERS_PATH, { schema: { body: orderSchema, response: { 201: orderSchema } } }, async (request, reply) => {
    reply.code(201);
    return request.body;
  });

  await app.register(fastifyStatic, { root: staticDirectory(), prefix: `${STATIC_PREFIX}/` });

  app.get(
    ME_PATH,
    {
      schema: { response: { 200: userSchema, 401: errorSchema } },
      onRequest: async (request, reply) => {
        const user = userFromAuthorization(request.headers.authorization);
        if (!user) {
          reply.code(401).header('WWW-Authenticate', 'Bearer');
          return reply.send({ error: 'missing or invalid Bearer token' });
        }
        request.user = user;
      },
      onResponse: async (request) => {
        if (request.user) events.emit(PROFILE_VIEWED_EVENT, request.user);
      },
    },
    async (request) => request.user,
  );

  app.get(STATS_PATH, async () => stats);

  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    app.get<{ Params: { id: string } }>(`/r${index}/items/:id`, async (request) =>
      manyRouteResponse(index, request.params.id),
    );
  }

  await app.ready();
  const bootMs = now() - startedAt;
  await app.listen({ host: HOST, port: requestedPort() });
  const address = app.server.address();
  announceReady({ port: typeof address === 'object' && address ? address.port : 0, bootMs });
  exitOnSignals(() => app.close());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
