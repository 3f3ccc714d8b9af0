/**
 * rest.uws as an adopter writes it from docs/getting-started.md: the resource in rest-uws-idiomatic/ (with
 * `@Produces('application/json')` on every route), a global exception handler registered with `errorHandler`,
 * and `startServer` (graceful shutdown, requests in flight counted) instead of the bare `listen`.
 */
import 'reflect-metadata';
import {
  RestBuilder,
  startServer,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
  Handles,
} from 'rest.uws';
import { STATIC_PREFIX } from '../contract/routes';
import { HOST, announceReady, exitOnSignals, now, requestedPort, staticDirectory } from './support/server-environment';
import { GreetingService, createIdiomaticResource } from './rest-uws-idiomatic/idiomatic.resource';
import { createManyRoutesResources } from './rest-uws/many-routes.resource';

/** A domain error of the app's own, answered 404 by its handler (the getting-started guide's TodoNotFoundHandler). */
export class NotFoundError extends Error {}

@Handles(NotFoundError)
export class NotFoundHandler implements ExceptionHandler<NotFoundError> {
  write(error: NotFoundError, _request: HttpServerRequest, response: HttpServerResponse): void {
    response.setStatusCode(404).putHeader('content-type', 'application/json');
    response.end(JSON.stringify({ status: 404, message: error.message }));
  }
}

async function main(): Promise<void> {
  const startedAt = now();
  const stats = { profileViews: 0 };
  const app = new RestBuilder()
    .register(createIdiomaticResource(new GreetingService(), stats), ...createManyRoutesResources())
    .errorHandler(NotFoundHandler)
    .staticFiles(STATIC_PREFIX, staticDirectory())
    .build();
  const bootMs = now() - startedAt;
  const server = await startServer(app, { port: requestedPort(), host: HOST });
  announceReady({ port: server.port, bootMs });
  exitOnSignals(() => server.shutdown(1000).then(() => undefined));
}

main().catch((error: unknown) => {
  console.error('rest-uws-idiomatic:', error);
  process.exit(1);
});
