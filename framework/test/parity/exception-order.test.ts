/**
 * Issue 18, items 8 and 9: which exception handler answers. Each fixture has an error that two levels could
 * answer, with different answers, so that swapping the method/class order, the route/app order, the app/global
 * order, registration order or the app/built-in order makes a test here fail.
 */
import test from 'ava';
import {
  CatchWith,
  ConstraintException,
  Event,
  ExceptionHandler,
  GET,
  Handles,
  HttpServerRequest,
  HttpServerResponse,
  Path,
  QueryParam,
  RestBuilder,
  RestEvent,
  RestRouter,
  RoutingContext,
  inject,
} from '../../src/index';

class StockError extends Error {}
class OutOfStock extends StockError {}

/** A handler answering with its own name and status, so the test can tell which one ran. */
function answering(name: string, status: number) {
  return class implements ExceptionHandler<Error> {
    write(error: Error, _req: HttpServerRequest, res: HttpServerResponse) {
      res.setStatusCode(status).end(`${name}: ${error.message}`);
    }
  };
}
@Handles(OutOfStock)
class MethodHandler extends answering('method', 409) {}
@Handles(OutOfStock)
class ClassHandler extends answering('class', 410) {}
@Handles(Error)
class ClassAnyHandler extends answering('class-any', 422) {}
@Handles(StockError)
class AppStockHandler extends answering('app-stock', 418) {}
@Handles(OutOfStock)
class AppOutOfStockHandler extends answering('app-out-of-stock', 423) {}
@Handles(OutOfStock)
class GlobalHandler extends answering('global', 424) {}
@Handles(ConstraintException)
class AppConstraintHandler extends answering('app-constraint', 400) {}

const SECRET = 'internal detail: /srv/db.sqlite locked by pid 4242';
@Handles(OutOfStock)
class FailingHandler implements ExceptionHandler<OutOfStock> {
  write(): void {
    throw new Error(SECRET);
  }
}
@Handles(OutOfStock)
class RejectingHandler implements ExceptionHandler<OutOfStock> {
  async write(_e: OutOfStock, _req: HttpServerRequest, res: HttpServerResponse): Promise<void> {
    res.putHeader('content-type', 'application/problem+json');
    await Promise.resolve();
    throw new Error(SECRET);
  }
}
class FailingEvent implements RestEvent<unknown> {
  static seen: unknown[] = [];
  execute(entity: unknown, _ctx: RoutingContext): void {
    FailingEvent.seen.push(entity);
    throw new Error(SECRET);
  }
}

@Path('/e')
@CatchWith(ClassHandler, ClassAnyHandler)
class Store {
  @GET @Path('/method-and-class') @CatchWith(MethodHandler) both(): string {
    throw new OutOfStock('both levels match');
  }
  @GET @Path('/class') cls(): string {
    throw new OutOfStock('class and app match');
  }
  @GET @Path('/class-any') clsAny(@QueryParam('n') n: number) {
    return { n };
  }
  @GET @Path('/cleared') @CatchWith() cleared(@QueryParam('n') n: number) {
    return { n };
  }
  @GET @Path('/cleared-crash') @CatchWith() clearedCrash(): string {
    throw new TypeError(SECRET);
  }
  @GET @Path('/cleared-app') @CatchWith() clearedApp(): string {
    throw new OutOfStock('only the app handler is left');
  }
}

@Path('/g')
class Unhandled {
  @GET @Path('/stock') stock(): string {
    throw new OutOfStock('no route handler');
  }
  @GET @Path('/constraint') constraint(): string {
    throw new ConstraintException([
      { in: 'query', path: 'n', constraint: 'min', message: 'n must not be less than 1' },
    ]);
  }
  @GET @Path('/crash') crash(): string {
    throw new Error(SECRET);
  }
  @GET @Path('/failing-handler') @CatchWith(FailingHandler) failingHandler(): string {
    throw new OutOfStock('handled by a handler that fails');
  }
  @GET @Path('/rejecting-handler') @CatchWith(RejectingHandler) rejectingHandler(): string {
    throw new OutOfStock('handled by a handler that rejects');
  }
  @GET @Path('/event-ok') @Event(FailingEvent) eventOk() {
    return { delivered: true };
  }
  @GET @Path('/event-on-error') @Event(FailingEvent, { exception: Error }) eventOnError(): string {
    throw new Error(SECRET);
  }
}

function logCollector() {
  const logged: Array<{ msg: string; err?: Error }> = [];
  return {
    logged,
    logger: {
      error: (o: { err?: Error }, msg: string) => logged.push({ ...o, msg }),
      warn() {},
      info() {},
      debug() {},
    },
  };
}
const GENERIC_500 = { status: 500, error: 'Internal Server Error', message: 'Internal Server Error' };

test('item 9: a method @CatchWith answers before a class @CatchWith that matches the same error', async (t) => {
  const r = await inject(new RestBuilder().register(Store), '/e/method-and-class');
  t.is(r.statusCode, 409);
  t.is(r.body, 'method: both levels match');
});

test('item 9: a class @CatchWith answers before an app handler that matches the same error', async (t) => {
  const r = await inject(new RestBuilder().register(Store).errorHandler(AppOutOfStockHandler), '/e/class');
  t.is(r.statusCode, 410);
  t.is(r.body, 'class: class and app match');
});

test('item 9: app handlers are tried in registration order, the first that matches answers (not the most specific)', async (t) => {
  const general = await inject(
    new RestBuilder().register(Unhandled).errorHandler(AppStockHandler, AppOutOfStockHandler),
    '/g/stock',
  );
  t.is(general.statusCode, 418);
  t.is(general.body, 'app-stock: no route handler');
  const specific = await inject(
    new RestBuilder().register(Unhandled).errorHandler(AppOutOfStockHandler, AppStockHandler),
    '/g/stock',
  );
  t.is(specific.statusCode, 423);
  t.is(specific.body, 'app-out-of-stock: no route handler');
});

test.serial(
  "item 9: an app's handler answers before a global one (RestRouter) for the same error (serial: it registers globally)",
  async (t) => {
    RestRouter.getExceptionHandlers().register(GlobalHandler);
    try {
      const app = await inject(new RestBuilder().register(Unhandled).errorHandler(AppOutOfStockHandler), '/g/stock');
      t.is(app.body, 'app-out-of-stock: no route handler');
      const global = await inject(new RestBuilder().register(Unhandled), '/g/stock');
      t.is(global.statusCode, 424);
      t.is(global.body, 'global: no route handler');
    } finally {
      RestRouter.getExceptionHandlers().clear();
    }
  },
);

test('item 9: an app handler answers before a built-in one (ConstraintException)', async (t) => {
  const builtIn = await inject(new RestBuilder().register(Unhandled), '/g/constraint');
  t.is(builtIn.statusCode, 400);
  t.is(builtIn.headers['x-status-reason'], 'Validation failed');
  t.is(builtIn.json().violations[0].message, 'n must not be less than 1');
  const app = await inject(new RestBuilder().register(Unhandled).errorHandler(AppConstraintHandler), '/g/constraint');
  t.is(app.body, 'app-constraint: Validation failed');
});

test('item 8: an empty method @CatchWith() keeps the class handlers away: the built-in handler answers 400', async (t) => {
  const withClass = await inject(new RestBuilder().register(Store), '/e/class-any?n=abc');
  t.is(withClass.statusCode, 422);
  t.regex(withClass.body, /^class-any: Failed to convert value: 'abc'/);
  const cleared = await inject(new RestBuilder().register(Store), {
    url: '/e/cleared?n=abc',
    headers: { accept: 'application/json' },
  });
  t.is(cleared.statusCode, 400);
  t.is(cleared.json().code, 'RU_ERR_CONVERSION');
  t.deepEqual((await inject(new RestBuilder().register(Store), '/e/cleared?n=2')).json(), { n: 2 });
});

test("item 8: after @CatchWith() the app's handlers still apply, then the built-in ones (500 without internals)", async (t) => {
  const app = await inject(new RestBuilder().register(Store).errorHandler(AppOutOfStockHandler), '/e/cleared-app');
  t.is(app.body, 'app-out-of-stock: only the app handler is left');
  const { logged, logger } = logCollector();
  const crash = await inject(new RestBuilder().register(Store).logger(logger), '/e/cleared-crash');
  t.is(crash.statusCode, 500);
  t.deepEqual(crash.json(), GENERIC_500);
  t.is(logged.length, 1);
});

test('item 9: an error no handler matches reaches the built-in handler: 500 without internals, logged once', async (t) => {
  const { logged, logger } = logCollector();
  const r = await inject(
    new RestBuilder().register(Unhandled).errorHandler(AppOutOfStockHandler).logger(logger),
    '/g/crash',
  );
  t.is(r.statusCode, 500);
  t.deepEqual(r.json(), GENERIC_500);
  t.false(r.body.includes('4242'));
  t.is(logged.length, 1);
  t.is(logged[0]!.err!.message, SECRET);
});

test('item 9: a handler that throws or rejects gives the built-in 500 without internals, logged', async (t) => {
  for (const url of ['/g/failing-handler', '/g/rejecting-handler']) {
    const { logged, logger } = logCollector();
    const r = await inject(new RestBuilder().register(Unhandled).logger(logger), {
      url,
      headers: { accept: 'application/json' },
    });
    t.is(r.statusCode, 500, url);
    t.is(r.headers['content-type'], 'application/json', url);
    t.deepEqual(r.json(), GENERIC_500, url);
    t.false(r.body.includes('4242'), url);
    t.deepEqual(
      logged.map((l) => l.msg),
      ['exception handler failed'],
      url,
    );
    t.is(logged[0]!.err!.message, SECRET, url);
  }
});

test('item 9 (deliberate): an event that throws is logged; the answer it follows is already sent and stays as it was', async (t) => {
  FailingEvent.seen = [];
  const { logged, logger } = logCollector();
  const ok = await inject(new RestBuilder().register(Unhandled).logger(logger), '/g/event-ok');
  t.is(ok.statusCode, 200);
  t.deepEqual(ok.json(), { delivered: true });
  const failed = await inject(new RestBuilder().register(Unhandled).logger(logger), '/g/event-on-error');
  t.is(failed.statusCode, 500);
  t.deepEqual(failed.json(), GENERIC_500);
  t.is(FailingEvent.seen.length, 2);
  t.deepEqual(
    logged.map((l) => l.msg),
    ['event failed', 'unhandled error in route', 'event failed'],
  );
});
