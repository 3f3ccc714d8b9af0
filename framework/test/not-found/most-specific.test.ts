import test from 'ava';
import {
  GET,
  Path,
  RestBuilder,
  type HttpServerRequest,
  type HttpServerResponse,
  type NotFoundResponseWriter,
} from '../../src/index';
import { listen } from '../support/server';

@Path('/api')
class ApiResource {
  @GET
  @Path('/users')
  users(): string[] {
    return ['ada'];
  }
}

class ApiNotFound implements NotFoundResponseWriter {
  write(request: HttpServerRequest, response: HttpServerResponse): void {
    response
      .putHeader('content-type', 'application/json')
      .end(JSON.stringify({ error: 'no such API resource', path: request.path() }));
  }
}

class V2NotFound implements NotFoundResponseWriter {
  write(_request: HttpServerRequest, response: HttpServerResponse): void {
    response.end('v2: not here');
  }
}

const everythingElse = (_req: HttpServerRequest, res: HttpServerResponse) => {
  res.putHeader('content-type', 'text/html').end('<h1>Page not found</h1>');
};

async function check(t: import('ava').ExecutionContext, builder: RestBuilder) {
  const server = await listen(builder.build());
  t.teardown(() => server.close());
  const v2 = await fetch(`${server.url}/api/v2/anything`);
  t.is(v2.status, 404);
  t.is(await v2.text(), 'v2: not here');
  const api = await fetch(`${server.url}/api/nothing`);
  t.is(api.status, 404);
  t.deepEqual(await api.json(), { error: 'no such API resource', path: '/api/nothing' });
  const page = await fetch(`${server.url}/about`);
  t.is(page.status, 404);
  t.is(page.headers.get('content-type'), 'text/html');
  t.is(await page.text(), '<h1>Page not found</h1>');
  // Matched routes are untouched.
  t.deepEqual(await (await fetch(`${server.url}/api/users`)).json(), ['ada']);
}

test('the most specific not-found handler wins: subtree patterns before the catch-all', async (t) => {
  await check(
    t,
    new RestBuilder()
      .register(ApiResource)
      .notFound(everythingElse)
      .notFound('^/api/.*', ApiNotFound)
      .notFound('^/api/v2/.*', V2NotFound),
  );
});

test('registration order does not matter (catch-all first or last, subtrees in any order)', async (t) => {
  await check(
    t,
    new RestBuilder()
      .notFound('^/api/v2/.*', V2NotFound)
      .notFound('^/api/.*', ApiNotFound)
      .notFound(everythingElse)
      .register(ApiResource),
  );
  await check(
    t,
    new RestBuilder()
      .notFound('^/api/.*', new ApiNotFound())
      .register(ApiResource)
      .notFound(/^\/api\/v2\/.*/, new V2NotFound())
      .notFound(everythingElse),
  );
});

test('without a catch-all, unmatched paths outside the subtrees get the built-in 404', async (t) => {
  const server = await listen(new RestBuilder().register(ApiResource).notFound('^/api/.*', ApiNotFound).build());
  t.teardown(() => server.close());
  const res = await fetch(`${server.url}/elsewhere`, { headers: { accept: 'application/json' } });
  t.is(res.status, 404);
  t.like(await res.json(), { status: 404, code: 'RU_ERR_NOT_FOUND' });
  t.is((await fetch(`${server.url}/api/x`)).status, 404);
});
