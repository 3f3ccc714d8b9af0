/**
 * Issue 18: deliberate differences from rest.vertx that no other test shows on its own (the migration guide's
 * table "rest.vertx behaviour -> rest.uws behaviour" names these tests).
 */
import test from 'ava';
import { isMainThread, threadId } from 'node:worker_threads';
import { Context, GET, HttpServerRequest, Path, RestBuilder, inject } from '../../src/index';

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
