/**
 * hyper-express 6 (on the root's uWebSockets.js build) in its own idiom: route middleware for the token,
 * `response.stream` for files, `response.once('finish')` for the event, the hand-written order check.
 */
import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import uWS from 'uWebSockets.js';
import { findOrderProblem } from '../contract/order';
import {
  HELLO_BODY,
  HELLO_PATH,
  MANY_ROUTES_COUNT,
  MAX_BODY_BYTES,
  ME_PATH,
  ORDERS_PATH,
  PROFILE_VIEWED_EVENT,
  STATIC_FILE_NAME,
  STATIC_PREFIX,
  STATS_PATH,
  manyRouteResponse,
  userResponse,
} from '../contract/routes';
import { userFromAuthorization, type BenchUser } from './support/bearer-tokens';
import { requirePeer } from './support/peer-require';
import { createProfileEvents } from './support/profile-events';
import { HOST, announceReady, exitOnSignals, now, requestedPort, staticFilePath } from './support/server-environment';

/** The parts of hyper-express's API used here (its typings live in .peers, out of the compiler's reach). */
interface HyperRequest {
  path_parameters: Record<string, string>;
  query_parameters: Record<string, string>;
  headers: Record<string, string>;
  locals: Record<string, unknown>;
  json<T>(defaultValue: T): Promise<unknown>;
}
interface HyperResponse {
  status(code: number): HyperResponse;
  header(name: string, value: string): HyperResponse;
  json(body: unknown): unknown;
  stream(readable: Readable, totalSize?: number): Promise<unknown>;
  once(event: 'finish', listener: () => void): unknown;
}
type HyperHandler = (request: HyperRequest, response: HyperResponse, next?: () => void) => unknown;
interface HyperServer {
  get(path: string, ...handlers: HyperHandler[]): unknown;
  post(path: string, ...handlers: HyperHandler[]): unknown;
  set_not_found_handler(handler: HyperHandler): unknown;
  listen(port: number, host: string): Promise<uWS.us_listen_socket>;
  close(): boolean;
}
interface HyperExpressModule {
  Server: new (options: { max_body_length: number }) => HyperServer;
}

const NOT_JSON = Object.freeze({});

function authenticate(request: HyperRequest, response: HyperResponse, next?: () => void): void {
  const user = userFromAuthorization(request.headers.authorization);
  if (!user) {
    response.status(401).header('WWW-Authenticate', 'Bearer').json({ error: 'missing or invalid Bearer token' });
    return;
  }
  request.locals.user = user;
  next?.();
}

async function main(): Promise<void> {
  const HyperExpress = requirePeer<HyperExpressModule>('hyper-express');
  const startedAt = now();
  const { events, stats } = createProfileEvents();
  const filePath = staticFilePath();
  const app = new HyperExpress.Server({ max_body_length: MAX_BODY_BYTES });

  app.get(HELLO_PATH, (_request, response) => response.json(HELLO_BODY));

  app.get('/users/:id', (request, response) => {
    const rawId = request.path_parameters.id;
    const id = Number(rawId);
    if (!/^-?\d+$/.test(rawId) || !Number.isSafeInteger(id))
      return response.status(400).json({ error: `id must be an integer, got "${rawId}"` });
    const fields = request.query_parameters.fields;
    return response.json(userResponse(id, fields ? fields.split(',') : []));
  });

  app.post(ORDERS_PATH, async (request, response) => {
    // hyper-express answers a body that does not parse with the default value given: a sentinel here.
    const order = await request.json(NOT_JSON);
    if (order === NOT_JSON) return response.status(400).json({ error: 'body is not valid JSON' });
    const problem = findOrderProblem(order);
    if (problem) return response.status(400).json({ error: problem });
    return response.status(201).json(order);
  });

  app.get(`${STATIC_PREFIX}/${STATIC_FILE_NAME}`, async (_request, response) => {
    const { size } = await fs.promises.stat(filePath);
    response.header('Content-Type', 'application/octet-stream');
    return response.stream(fs.createReadStream(filePath), size);
  });

  app.get(ME_PATH, authenticate, (request, response) => {
    const user = request.locals.user as BenchUser;
    response.once('finish', () => events.emit(PROFILE_VIEWED_EVENT, user));
    return response.json(user);
  });

  app.get(STATS_PATH, (_request, response) => response.json(stats));

  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    app.get(`/r${index}/items/:id`, (request, response) =>
      response.json(manyRouteResponse(index, request.path_parameters.id)),
    );
  }

  app.set_not_found_handler((_request, response) => response.status(404).json({ error: 'no such route' }));

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
