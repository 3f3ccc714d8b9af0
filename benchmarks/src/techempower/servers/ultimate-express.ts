/**
 * ultimate-express (the Express API on the root's uWebSockets.js build) configured as its own TechEmpower entry:
 * ETags and `X-Powered-By` off, the headers set on the response, `res.end` with the body; the shared data layer.
 */
import { HELLO_MESSAGE, PATHS, clampQueries, randomWorldNumber } from '../contract';
import { HTML_CONTENT_TYPE, JSON_CONTENT_TYPE, TEXT_CONTENT_TYPE } from '../support/fortunes-html';
import { storeFromEnvironment } from '../support/world-store';
import { fortunesPage, readWorlds, updateWorlds } from '../support/worlds';
import { requirePeer } from '../../servers/support/peer-require';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../../servers/support/server-environment';

interface Request {
  query: Record<string, unknown>;
}
interface Response {
  setHeader(name: string, value: string): unknown;
  status(code: number): Response;
  end(body?: string): unknown;
}
type Handler = (request: Request, response: Response) => unknown;
interface App {
  set(name: string, value: unknown): unknown;
  get(path: string, handler: Handler): unknown;
  listen(port: number, host: string, callback: () => void): unknown;
  address(): { port: number };
  close?(): void;
}

function main(): void {
  const express = requirePeer<() => App>('ultimate-express');
  const startedAt = now();
  const store = storeFromEnvironment();
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  const answer = (response: Response, contentType: string, body: string) => {
    response.setHeader('Server', 'UltimateExpress');
    response.setHeader('Content-Type', contentType);
    response.end(body);
  };
  const queries = (request: Request) =>
    clampQueries(typeof request.query.queries === 'string' ? request.query.queries : undefined);
  const failed = (response: Response) => (error: unknown) => {
    console.error(error);
    response.status(500).end();
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
    readWorlds(store, queries(request)).then(
      (worlds) => answer(response, JSON_CONTENT_TYPE, JSON.stringify(worlds)),
      failed(response),
    ),
  );
  app.get(PATHS.fortunes, (_request, response) =>
    fortunesPage(store).then((page) => answer(response, HTML_CONTENT_TYPE, page), failed(response)),
  );
  app.get(PATHS.updates, (request, response) =>
    updateWorlds(store, queries(request)).then(
      (worlds) => answer(response, JSON_CONTENT_TYPE, JSON.stringify(worlds)),
      failed(response),
    ),
  );

  const bootMs = now() - startedAt;
  app.listen(requestedPort(), HOST, () => announceReady({ port: app.address().port, bootMs }));
  exitOnSignals(() => app.close?.());
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
