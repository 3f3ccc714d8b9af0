/**
 * The routes in Express's idiom, shared by Express 5 and ultimate-express (which implements the Express API
 * on uWebSockets.js): the JSON body middleware on the POST route, `express.static`, an authentication middleware, `res.on('finish')`
 * for the event, and the hand-written order check (Express has no validation of its own).
 */
import { findOrderProblem } from '../../contract/order';
import {
  HELLO_BODY,
  HELLO_PATH,
  MANY_ROUTES_COUNT,
  MAX_BODY_BYTES,
  ME_PATH,
  ORDERS_PATH,
  PROFILE_VIEWED_EVENT,
  STATIC_PREFIX,
  STATS_PATH,
  manyRouteResponse,
  userResponse,
} from '../../contract/routes';
import { userFromAuthorization, type BenchUser } from './bearer-tokens';
import { createProfileEvents } from './profile-events';
import { staticDirectory } from './server-environment';

/** The parts of an Express-compatible request, response and module these routes use. */
export interface ExpressStyleRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}
export interface ExpressStyleResponse {
  status(code: number): ExpressStyleResponse;
  json(body: unknown): unknown;
  set(name: string, value: string): ExpressStyleResponse;
  once(event: 'finish', listener: () => void): unknown;
  locals: Record<string, unknown>;
  headersSent: boolean;
}
export type ExpressStyleNext = (error?: unknown) => void;
type Handler = (req: ExpressStyleRequest, res: ExpressStyleResponse, next: ExpressStyleNext) => unknown;
type ErrorHandler = (
  error: unknown,
  req: ExpressStyleRequest,
  res: ExpressStyleResponse,
  next: ExpressStyleNext,
) => unknown;

export interface ExpressStyleApp {
  use(...handlers: (Handler | ErrorHandler | string)[]): unknown;
  get(path: string, ...handlers: Handler[]): unknown;
  post(path: string, ...handlers: Handler[]): unknown;
}
export interface ExpressStyleModule {
  json(options: { limit: number }): Handler;
  static(root: string): Handler;
}

function authenticate(req: ExpressStyleRequest, res: ExpressStyleResponse, next: ExpressStyleNext): void {
  const authorization = req.headers.authorization;
  const user = userFromAuthorization(typeof authorization === 'string' ? authorization : undefined);
  if (!user) {
    res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: 'missing or invalid Bearer token' });
    return;
  }
  res.locals.user = user;
  next();
}

export function buildExpressStyleApp(app: ExpressStyleApp, expressModule: ExpressStyleModule): void {
  const { events, stats } = createProfileEvents();
  // The body parser on the one route with a body, as ultimate-express's own benchmark registers it: a global one
  // runs on every GET too (and keeps ultimate-express from answering a route without its middleware chain).
  const json = expressModule.json({ limit: MAX_BODY_BYTES });

  app.get(HELLO_PATH, (_req, res) => res.json(HELLO_BODY));

  app.get('/users/:id', (req, res) => {
    const rawId = req.params.id;
    const id = Number(rawId);
    if (!/^-?\d+$/.test(rawId) || !Number.isSafeInteger(id))
      return res.status(400).json({ error: `id must be an integer, got "${rawId}"` });
    const fields = typeof req.query.fields === 'string' ? req.query.fields.split(',') : [];
    return res.json(userResponse(id, fields));
  });

  app.post(ORDERS_PATH, json, (req, res) => {
    const problem = findOrderProblem(req.body);
    if (problem) return res.status(400).json({ error: problem });
    return res.status(201).json(req.body);
  });

  app.use(STATIC_PREFIX, expressModule.static(staticDirectory()));

  app.get(ME_PATH, authenticate, (_req, res) => {
    const user = res.locals.user as BenchUser;
    res.once('finish', () => events.emit(PROFILE_VIEWED_EVENT, user));
    return res.json(user);
  });

  app.get(STATS_PATH, (_req, res) => res.json(stats));

  for (let index = 0; index < MANY_ROUTES_COUNT; index++) {
    app.get(`/r${index}/items/:id`, (req, res) => res.json(manyRouteResponse(index, req.params.id)));
  }

  app.use((_req: ExpressStyleRequest, res: ExpressStyleResponse) => {
    res.status(404).json({ error: 'no such route' });
  });
  // Body-parser errors (bad JSON, too large) answered as JSON instead of an HTML page.
  app.use((error: unknown, _req: ExpressStyleRequest, res: ExpressStyleResponse, next: ExpressStyleNext) => {
    if (res.headersSent) return next(error);
    const status = bodyErrorStatus(error);
    res.status(status).json({ error: status === 500 ? 'internal error' : String((error as Error).message) });
  });
}

/**
 * Express's body-parser puts the status on its errors; ultimate-express's JSON parser passes the bare
 * SyntaxError, or an Error('Request entity too large'), so those are recognised here.
 */
function bodyErrorStatus(error: unknown): number {
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number') return status;
  if (error instanceof SyntaxError) return 400;
  if (error instanceof Error && error.message === 'Request entity too large') return 413;
  return 500;
}
