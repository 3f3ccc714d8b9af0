/**
 * The ceiling: uWebSockets.js with nothing between it and the shared data layer, as TechEmpower's own
 * uWebSockets.js entry is written (handlers on app.get, onAborted before the first await, the answer corked).
 */
import uWS, { type HttpRequest, type HttpResponse } from 'uWebSockets.js';
import { HELLO_MESSAGE, PATHS, clampQueries, randomWorldNumber } from '../contract';
import { HTML_CONTENT_TYPE, JSON_CONTENT_TYPE, TEXT_CONTENT_TYPE } from '../support/fortunes-html';
import { fortunesPage, readWorlds, updateWorlds } from '../support/worlds';
import { storeFromEnvironment } from '../support/world-store';
import { listenAndAnnounce, now } from '../../servers/support/server-environment';

const SERVER = 'uWebSockets.js';

function main(): void {
  const startedAt = now();
  const store = storeFromEnvironment();
  const app = uWS.App();

  /** An async route: the answer is written (corked) unless the client went away meanwhile. */
  const async =
    (contentType: string, produce: (request: HttpRequest) => Promise<string>) =>
    (response: HttpResponse, request: HttpRequest) => {
      let aborted = false;
      response.onAborted(() => {
        aborted = true;
      });
      produce(request).then(
        (body) => {
          if (!aborted)
            response.cork(() => {
              response.writeHeader('Server', SERVER).writeHeader('Content-Type', contentType).end(body);
            });
        },
        (error: unknown) => {
          console.error(error);
          if (!aborted) response.cork(() => response.writeStatus('500 Internal Server Error').end());
        },
      );
    };

  app.get(PATHS.plaintext, (response) => {
    response.writeHeader('Server', SERVER).writeHeader('Content-Type', TEXT_CONTENT_TYPE).end(HELLO_MESSAGE);
  });
  app.get(PATHS.json, (response) => {
    response
      .writeHeader('Server', SERVER)
      .writeHeader('Content-Type', JSON_CONTENT_TYPE)
      .end(JSON.stringify({ message: HELLO_MESSAGE }));
  });
  app.get(
    PATHS.db,
    async(JSON_CONTENT_TYPE, async () => JSON.stringify(await store.find(randomWorldNumber()))),
  );
  app.get(
    PATHS.queries,
    async(JSON_CONTENT_TYPE, async (request) =>
      JSON.stringify(await readWorlds(store, clampQueries(request.getQuery('queries')))),
    ),
  );
  app.get(
    PATHS.fortunes,
    async(HTML_CONTENT_TYPE, () => fortunesPage(store)),
  );
  // The query is read before the first await: uWebSockets.js's request lives only until the handler returns.
  app.get(
    PATHS.updates,
    async(JSON_CONTENT_TYPE, async (request) =>
      JSON.stringify(await updateWorlds(store, clampQueries(request.getQuery('queries')))),
    ),
  );
  app.any('/*', (response) => {
    response.writeStatus('404 Not Found').writeHeader('Server', SERVER).end();
  });

  listenAndAnnounce(app, 'techempower raw-uws', now() - startedAt);
}

main();
