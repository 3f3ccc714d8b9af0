/**
 * Issue 18: deliberate differences from rest.vertx that no other test shows on its own (the migration guide's
 * table "rest.vertx behaviour -> rest.uws behaviour" names these tests).
 */
import test from 'ava';
import { isMainThread, threadId } from 'node:worker_threads';
import {
  Context,
  ExceptionHandler,
  GET,
  Handles,
  HttpServerRequest,
  HttpServerResponse,
  Path,
  Produces,
  RestBuilder,
  inject,
} from '../../src/index';

@Path('/d')
class Differences {
  @GET @Path('/text') text() {
    return 'plain words';
  }
  @GET @Path('/object') object() {
    return { an: 'object' };
  }
  @GET @Path('/bytes') bytes() {
    return Buffer.from([1, 2, 3]);
  }
  @GET @Path('/thread') thread(@Context() request: HttpServerRequest) {
    return { isMainThread, threadId, path: request.path() };
  }
}

const app = () => new RestBuilder().register(Differences);

const ran: string[] = [];
@Path('/n')
class Negotiated {
  @GET @Path('/throws') @Produces('application/json') throws() {
    ran.push('throws');
    throw new Error('kaput');
  }
}
/** An app's catch-all handler: it answers every error, keeping the status set before it runs. */
@Handles(Error)
class EveryError implements ExceptionHandler<Error> {
  write(error: Error, _request: HttpServerRequest, response: HttpServerResponse) {
    response.end(`handled ${response.getStatusCode()}: ${error.constructor.name}`);
  }
}

test("an Accept no @Produces type satisfies is 406 before the method runs, answered through the app's exception handlers", async (t) => {
  ran.length = 0;
  const refused = await inject(new RestBuilder().register(Negotiated), {
    url: '/n/throws',
    headers: { accept: 'text/html' },
  });
  t.is(refused.statusCode, 406);
  t.regex(refused.body, /None of the acceptable media types is produced by GET \/n\/throws/);
  t.deepEqual(ran, [], 'the method did not run: it cannot throw');
  const handled = await inject(new RestBuilder().register(Negotiated).errorHandler(EveryError), {
    url: '/n/throws',
    headers: { accept: 'text/html' },
  });
  t.is(handled.statusCode, 406);
  t.is(handled.body, 'handled 406: NotAcceptableException');
  // An Accept the route produces: the method runs, and its unmatched error is the built-in 500.
  const thrown = await inject(new RestBuilder().register(Negotiated), {
    url: '/n/throws',
    headers: { accept: 'application/json' },
  });
  t.is(thrown.statusCode, 500);
  t.deepEqual(thrown.json(), { status: 500, error: 'Internal Server Error', message: 'Internal Server Error' });
  t.deepEqual(ran, ['throws']);
});

test('without any @Produces the Content-Type follows the value (the reference sends */*): text, JSON, bytes', async (t) => {
  const text = await inject(app(), '/d/text');
  t.is(text.headers['content-type'], 'text/plain; charset=utf-8');
  t.is(text.body, 'plain words');
  const object = await inject(app(), '/d/object');
  t.is(object.headers['content-type'], 'application/json');
  t.deepEqual(object.json(), { an: 'object' });
  const bytes = await inject(app(), '/d/bytes');
  t.is(bytes.headers['content-type'], 'application/octet-stream');
  t.deepEqual([...bytes.rawBody], [1, 2, 3]);
});

test("methods run on the event loop of the thread that serves the app, not on a worker pool (the reference's default)", async (t) => {
  const r = await inject(app(), '/d/thread');
  t.deepEqual(r.json(), { isMainThread, threadId, path: '/d/thread' });
  t.true(r.json().isMainThread);
});
