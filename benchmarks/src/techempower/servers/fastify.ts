/**
 * Fastify 5 as its documentation recommends for production (no logger; response schemas, so fast-json-stringify
 * writes the JSON), the `Server` header from one onRequest hook; the shared data layer.
 */
import Fastify from 'fastify';
import { HELLO_MESSAGE, PATHS, clampQueries, randomWorldNumber } from '../contract';
import { HTML_CONTENT_TYPE, TEXT_CONTENT_TYPE } from '../support/fortunes-html';
import { storeFromEnvironment } from '../support/world-store';
import { fortunesPage, readWorlds, updateWorlds } from '../support/worlds';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../../servers/support/server-environment';

const world = {
  type: 'object',
  properties: { id: { type: 'integer' }, randomNumber: { type: 'integer' } },
} as const;
const worlds = { type: 'array', items: world } as const;
const queriesSchema = { type: 'object', properties: { queries: { type: 'string' } } } as const;

async function main(): Promise<void> {
  const startedAt = now();
  const store = storeFromEnvironment();
  const app = Fastify({ logger: false });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('Server', 'Fastify');
    done();
  });

  app.get(PATHS.plaintext, async (_request, reply) => reply.type(TEXT_CONTENT_TYPE).send(HELLO_MESSAGE));
  app.get(
    PATHS.json,
    { schema: { response: { 200: { type: 'object', properties: { message: { type: 'string' } } } } } },
    async () => ({ message: HELLO_MESSAGE }),
  );
  app.get(PATHS.db, { schema: { response: { 200: world } } }, () => store.find(randomWorldNumber()));
  app.get<{ Querystring: { queries?: string } }>(
    PATHS.queries,
    { schema: { querystring: queriesSchema, response: { 200: worlds } } },
    (request) => readWorlds(store, clampQueries(request.query.queries)),
  );
  app.get(PATHS.fortunes, async (_request, reply) => reply.type(HTML_CONTENT_TYPE).send(await fortunesPage(store)));
  app.get<{ Querystring: { queries?: string } }>(
    PATHS.updates,
    { schema: { querystring: queriesSchema, response: { 200: worlds } } },
    (request) => updateWorlds(store, clampQueries(request.query.queries)),
  );

  await app.ready();
  const bootMs = now() - startedAt;
  await app.listen({ host: HOST, port: requestedPort() });
  const address = app.server.address();
  announceReady({ port: typeof address === 'object' && address ? address.port : 0, bootMs });
  exitOnSignals(async () => {
    await app.close();
    await store.close();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
