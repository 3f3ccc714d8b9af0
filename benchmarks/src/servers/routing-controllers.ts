/**
 * routing-controllers 0.11 on Express 5, in its own idiom: decorated controllers, class-validator,
 * an authorizationChecker/currentUserChecker pair for the Bearer token; files through express.static;
 * an error handler after the default one so a refused request keeps its connection.
 */
import 'reflect-metadata';
import express from 'express';
import { type Action, useExpressServer } from 'routing-controllers';
import { STATIC_PREFIX } from '../contract/routes';
import { userFromAuthorization } from './support/bearer-tokens';
import { createProfileEvents } from './support/profile-events';
import { HOST, announceReady, exitOnSignals, now, requestedPort, staticDirectory } from './support/server-environment';
import { AnsweredErrorHandler } from './routing-controllers/answered-error.middleware';
import { createBenchController } from './routing-controllers/bench.controller';
import { createManyRoutesController } from './routing-controllers/many-routes.controller';

function userOf(action: Action) {
  const authorization = (action.request as express.Request).headers.authorization;
  return userFromAuthorization(authorization);
}

function main(): void {
  const startedAt = now();
  const { events, stats } = createProfileEvents();
  const app = express();
  app.use(STATIC_PREFIX, express.static(staticDirectory()));
  useExpressServer(app, {
    controllers: [createBenchController(events, stats), createManyRoutesController()],
    middlewares: [AnsweredErrorHandler],
    validation: true,
    classTransformer: true,
    defaultErrorHandler: true,
    development: false,
    authorizationChecker: (action) => userOf(action) !== undefined,
    currentUserChecker: (action) => userOf(action),
  });
  const bootMs = now() - startedAt;
  const server = app.listen(requestedPort(), HOST, () => {
    const address = server.address();
    announceReady({ port: typeof address === 'object' && address ? address.port : 0, bootMs });
  });
  exitOnSignals(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

main();
