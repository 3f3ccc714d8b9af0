import test from 'ava';
import {
  CatchWith,
  ExceptionHandler,
  GET,
  Handles,
  HttpServerRequest,
  HttpServerResponse,
  NotFoundException,
  Path,
  RestBuilder,
  WebApplicationException,
  inject,
} from '../../src/index';

class OutOfStock extends Error {}
class SpecialOutOfStock extends OutOfStock {}

@Handles(OutOfStock)
class OutOfStockHandler implements ExceptionHandler<OutOfStock> {
  write(_e: OutOfStock, _req: HttpServerRequest, res: HttpServerResponse) {
    res.setStatusCode(409).end('out of stock (method handler)');
  }
}
@Handles(SpecialOutOfStock)
class SpecialHandler implements ExceptionHandler<SpecialOutOfStock> {
  write(_e: SpecialOutOfStock, _req: HttpServerRequest, res: HttpServerResponse) {
    res.setStatusCode(410).end('special (class handler)');
  }
}
@Handles(Error)
class AnyErrorHandler implements ExceptionHandler<Error> {
  write(e: Error, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(`global: ${e.message}`);
  }
}
@Handles(NotFoundException)
class JsonNotFound implements ExceptionHandler<NotFoundException> {
  write(e: NotFoundException, _req: HttpServerRequest, res: HttpServerResponse) {
    res.putHeader('content-type', 'application/problem+json').end(JSON.stringify({ title: 'nope', detail: e.message }));
  }
}
class KeepsStatusHandler implements ExceptionHandler<Error> {
  write(e: Error, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(`status kept: ${e.message}`);
  }
}

@Path('/err')
@CatchWith(SpecialHandler)
class Failing {
  @GET @Path('/method') @CatchWith(SpecialHandler, OutOfStockHandler) method() {
    throw new OutOfStock('none left');
  }
  // Both handlers match a SpecialOutOfStock: only the order of the list decides.
  @GET @Path('/special-first') @CatchWith(SpecialHandler, OutOfStockHandler) specialFirst() {
    throw new SpecialOutOfStock('special');
  }
  @GET @Path('/general-first') @CatchWith(OutOfStockHandler, SpecialHandler) generalFirst() {
    throw new SpecialOutOfStock('special');
  }
  @GET @Path('/class') cls() {
    throw new SpecialOutOfStock('special');
  }
  @GET @Path('/global') global() {
    throw new TypeError('boom');
  }
  @GET @Path('/wae') wae() {
    throw new WebApplicationException('teapot here', 418);
  }
  @GET @Path('/async') async asyncFail() {
    await Promise.resolve();
    throw new OutOfStock('later');
  }
}

@Path('/plain')
class Plain {
  @GET @Path('/crash') crash() {
    const secret = { password: 'hunter2' };
    throw new Error(`database password ${secret.password} rejected`);
  }
  @GET @Path('/wae') wae() {
    throw new WebApplicationException('I am a teapot', 418);
  }
  @GET @Path('/kept') kept() {
    throw new WebApplicationException('gone', 410);
  }
  @GET @Path('/stock') stock() {
    throw new OutOfStock('none left');
  }
}

test('method @CatchWith handlers are tried in order: the first whose type matches wins', async (t) => {
  const r = await inject(new RestBuilder().register(Failing), '/err/method');
  t.is(r.statusCode, 409);
  t.is(r.body, 'out of stock (method handler)');
  // An error both handlers match goes to the first listed, not to the more specific one.
  const special = await inject(new RestBuilder().register(Failing), '/err/special-first');
  t.is(special.statusCode, 410);
  t.is(special.body, 'special (class handler)');
  const general = await inject(new RestBuilder().register(Failing), '/err/general-first');
  t.is(general.statusCode, 409);
  t.is(general.body, 'out of stock (method handler)');
});

test('class @CatchWith applies when the method has no matching handler; async errors too', async (t) => {
  const r = await inject(new RestBuilder().register(Failing), '/err/class');
  t.is(r.statusCode, 410);
  t.is(r.body, 'special (class handler)');
  const a = await inject(new RestBuilder().register(Failing).errorHandler(OutOfStockHandler), '/err/async');
  t.is(a.statusCode, 409);
});

test('global handlers come last, in registration order; the status is preset before the handler runs', async (t) => {
  const r = await inject(new RestBuilder().register(Failing).errorHandler(AnyErrorHandler), '/err/global');
  t.is(r.statusCode, 500);
  t.is(r.body, 'global: boom');
  // Two global handlers that both match: the one registered first answers.
  const specificFirst = new RestBuilder().register(Plain).errorHandler(OutOfStockHandler, AnyErrorHandler);
  const stock = await inject(specificFirst, '/plain/stock');
  t.is(stock.statusCode, 409);
  t.is(stock.body, 'out of stock (method handler)');
  const anyFirst = new RestBuilder().register(Plain).errorHandler(AnyErrorHandler, OutOfStockHandler);
  const caughtByAny = await inject(anyFirst, '/plain/stock');
  t.is(caughtByAny.statusCode, 500);
  t.is(caughtByAny.body, 'global: none left');
  // A route's own @CatchWith comes before every global handler.
  const routeFirst = await inject(new RestBuilder().register(Failing).errorHandler(AnyErrorHandler), '/err/method');
  t.is(routeFirst.body, 'out of stock (method handler)');
  const kept = await inject(new RestBuilder().register(Plain).errorHandler(KeepsStatusHandler), '/plain/kept');
  t.is(kept.statusCode, 410);
  t.is(kept.body, 'status kept: gone');
});

test('an unmatched error is a generic 500 that leaks neither message nor stack', async (t) => {
  const r = await inject(
    new RestBuilder().register(Plain).logger({ error() {}, warn() {}, info() {}, debug() {} }),
    '/plain/crash',
  );
  t.is(r.statusCode, 500);
  t.deepEqual(r.json(), { status: 500, error: 'Internal Server Error', message: 'Internal Server Error' });
  t.notRegex(r.body, /hunter2|at |\.ts|\.js/);
});

test('WebApplicationException keeps its status and message', async (t) => {
  const r = await inject(new RestBuilder().register(Plain), { url: '/plain/wae', headers: { accept: 'text/plain' } });
  t.is(r.statusCode, 418);
  t.is(r.body, 'I am a teapot');
});

test('errors outside routes (404) go through the global handlers too', async (t) => {
  const r = await inject(new RestBuilder().register(Plain).errorHandler(JsonNotFound), '/missing');
  t.is(r.statusCode, 404);
  t.is(r.headers['content-type'], 'application/problem+json');
  t.deepEqual(r.json(), { title: 'nope', detail: 'No route for GET /missing' });
});

test('registering two global handlers for one error type fails', (t) => {
  const err = t.throws(() => new RestBuilder().errorHandler(OutOfStockHandler, OutOfStockHandler));
  t.is(err!.message, 'Exception handler for: OutOfStock already registered with: OutOfStockHandler');
});

test('an error thrown by the logger-less default path is logged once with the stack', async (t) => {
  const logged: unknown[] = [];
  const logger = { error: (o: unknown) => logged.push(o), warn() {}, info() {}, debug() {} };
  await inject(new RestBuilder().register(Plain).logger(logger), '/plain/crash');
  t.is(logged.length, 1);
  t.regex(String((logged[0] as any).err.stack), /rejected/);
});
