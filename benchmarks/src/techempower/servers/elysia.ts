/**
 * Elysia 1.4 on Node through `@elysiajs/node`, as its Node integration page shows: the `Server` header set once for
 * every route with `.headers()`, handlers returning objects and strings, the shared data layer.
 */
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { node } from '@elysiajs/node';
import { Elysia } from 'elysia';
import { HELLO_MESSAGE, PATHS, clampQueries, randomWorldNumber } from '../contract';
import { HTML_CONTENT_TYPE, TEXT_CONTENT_TYPE } from '../support/fortunes-html';
import { storeFromEnvironment } from '../support/world-store';
import { fortunesPage, readWorlds, updateWorlds } from '../support/worlds';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../../servers/support/server-environment';

async function main(): Promise<void> {
  const startedAt = now();
  const store = storeFromEnvironment();
  const app = new Elysia({ adapter: node() })
    .headers({ server: 'Elysia' })
    .get(PATHS.plaintext, ({ set }) => {
      set.headers['content-type'] = TEXT_CONTENT_TYPE;
      return HELLO_MESSAGE;
    })
    .get(PATHS.json, () => ({ message: HELLO_MESSAGE }))
    .get(PATHS.db, () => store.find(randomWorldNumber()))
    .get(PATHS.queries, ({ query }) => readWorlds(store, clampQueries(query.queries)))
    // A string answer is text/plain whatever set.headers says here (the node adapter): the page goes as a Response.
    .get(
      PATHS.fortunes,
      async () => new Response(await fortunesPage(store), { headers: { 'content-type': HTML_CONTENT_TYPE } }),
    )
    .get(PATHS.updates, ({ query }) => updateWorlds(store, clampQueries(query.queries)));
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
    await store.close();
  });
}

main().catch((error: unknown) => {
  console.error('techempower elysia:', error);
  process.exit(1);
});
