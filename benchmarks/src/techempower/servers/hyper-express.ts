/** hyper-express (on the root's uWebSockets.js build) with its defaults, the shared data layer. */
import uWS from 'uWebSockets.js';
import { HELLO_MESSAGE, PATHS, clampQueries, randomWorldNumber } from '../contract';
import { HTML_CONTENT_TYPE, JSON_CONTENT_TYPE, TEXT_CONTENT_TYPE } from '../support/fortunes-html';
import { storeFromEnvironment } from '../support/world-store';
import { fortunesPage, readWorlds, updateWorlds } from '../support/worlds';
import { requirePeer } from '../../servers/support/peer-require';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../../servers/support/server-environment';

/** The parts of hyper-express's API used here (its typings live in .peers, out of the compiler's reach). */
interface HyperRequest {
  query_parameters: Record<string, string | undefined>;
}
interface HyperResponse {
  header(name: string, value: string): HyperResponse;
  status(code: number): HyperResponse;
  send(body: string): unknown;
}
type Handler = (request: HyperRequest, response: HyperResponse) => unknown;
interface HyperServer {
  get(path: string, handler: Handler): unknown;
  listen(port: number, host: string): Promise<uWS.us_listen_socket>;
  close(): boolean;
}

async function main(): Promise<void> {
  const HyperExpress = requirePeer<{ Server: new () => HyperServer }>('hyper-express');
  const startedAt = now();
  const store = storeFromEnvironment();
  const app = new HyperExpress.Server();
  const answer = (response: HyperResponse, contentType: string, body: string) =>
    response.header('Server', 'hyper-express').header('Content-Type', contentType).send(body);
  const failed = (response: HyperResponse) => (error: unknown) => {
    console.error(error);
    response.status(500).send('');
  };

  app.get(PATHS.plaintext, (_request, response) => answer(response, TEXT_CONTENT_TYPE, HELLO_MESSAGE));
  app.get(PATHS.json, (_request, response) =>
    answer(response, JSON_CONTENT_TYPE, JSON.stringify({ message: HELLO_MESSAGE })),
  );
  app.get(PATHS.db, (_request, response) =>
    store
      .find(randomWorldNumber())
      .then((world) => answer(response, JSON_CONTENT_TYPE, JSON.stringify(world)), failed(response)),
  );
  app.get(PATHS.queries, (request, response) =>
    readWorlds(store, clampQueries(request.query_parameters.queries)).then(
      (worlds) => answer(response, JSON_CONTENT_TYPE, JSON.stringify(worlds)),
      failed(response),
    ),
  );
  app.get(PATHS.fortunes, (_request, response) =>
    fortunesPage(store).then((page) => answer(response, HTML_CONTENT_TYPE, page), failed(response)),
  );
  app.get(PATHS.updates, (request, response) =>
    updateWorlds(store, clampQueries(request.query_parameters.queries)).then(
      (worlds) => answer(response, JSON_CONTENT_TYPE, JSON.stringify(worlds)),
      failed(response),
    ),
  );

  const bootMs = now() - startedAt;
  const listenSocket = await app.listen(requestedPort(), HOST);
  announceReady({ port: uWS.us_socket_local_port(listenSocket), bootMs });
  exitOnSignals(() => {
    app.close();
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
