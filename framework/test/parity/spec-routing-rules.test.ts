/**
 * Issue 18, "Also": the spec's routing and exception rules (Area B) that had no test of their own, one test
 * each, through the public API. The rule is quoted in each test's title.
 */
import test from 'ava';
import {
  ArgumentException,
  Consumes,
  ExceptionHandler,
  ForbiddenException,
  GET,
  Handles,
  Header,
  HttpServerRequest,
  HttpServerResponse,
  Path,
  POST,
  Post,
  Produces,
  PUT,
  QueryParam,
  RegistrationError,
  RestBuilder,
  UnauthorizedException,
  inject,
} from '../../src/index';

@Path('/r')
@Produces('application/json')
class Rules {
  @Path('/implicit-get') implicitGet() {
    return { method: 'GET' };
  }
  notARoute() {
    return 'never served';
  }
  @GET @Path('/merged') @Produces('text/html') merged() {
    return '<p>html first</p>';
  }
  @POST
  @Path('/accept-header')
  @Consumes('application/json')
  @Header('Accept: text/plain, application/x-www-form-urlencoded')
  acceptHeader(body: string) {
    return { body };
  }
  @Post('/shorthand', 'application/json') shorthand(body: { a: number }) {
    return body;
  }
  @GET @Path('/consumes-no-body') @Consumes('application/json') consumesNoBody() {
    return { read: 'nothing' };
  }
  @PUT @Path('/unauthorized') unauthorized(): string {
    throw new UnauthorizedException();
  }
  @PUT @Path('/forbidden') forbidden(): string {
    throw new ForbiddenException();
  }
  @GET @Path('/argument-error') argumentError(): string {
    throw new ArgumentException('quantity must be positive');
  }
  @GET @Path('/conversion') conversion(@QueryParam('n') n: number) {
    return { n };
  }
}

/** Writes the error without setting a status. */
@Handles(Error)
class StatusKeepingHandler implements ExceptionHandler<Error> {
  write(error: Error, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(`kept: ${error.message}`);
  }
}

const app = () => new RestBuilder().register(Rules);

test('routing 1: "a public method is registered only if it has @Path" (with @Path alone it is a GET; undecorated methods are not routes)', async (t) => {
  t.deepEqual((await inject(app(), '/r/implicit-get')).json(), { method: 'GET' });
  t.is((await inject(app(), { method: 'POST', url: '/r/implicit-get' })).statusCode, 405);
  t.is((await inject(app(), '/r/notARoute')).statusCode, 404);
  t.is((await inject(app(), '/r/not-a-route')).statusCode, 404);
});

test('routing: "a method with two HTTP-method annotations fails" registration: Method already set to', (t) => {
  @Path('/twice')
  class Twice {
    @GET @POST @Path('/') both() {
      return 'x';
    }
  }
  const error = t.throws(() => new RestBuilder().register(Twice).build(), { instanceOf: RegistrationError });
  t.regex(error!.message, /^Twice\.both\(\) - Method already set to: /);
  t.is((error as RegistrationError).code, 'RU_ERR_METHOD_TWICE');
});

test('routing: "class-level and method-level @Produces are merged (method first)" (the reference\'s TestRest.echo)', async (t) => {
  const first = await inject(app(), '/r/merged');
  t.is(first.headers['content-type'], 'text/html');
  t.is(first.body, '<p>html first</p>');
  const json = await inject(app(), { url: '/r/merged', headers: { accept: 'application/json' } });
  t.is(json.headers['content-type'], 'application/json');
  t.is(json.body, '"<p>html first</p>"');
});

test('routing 5: "Accept entries of @Header go to readers, replacing @Consumes"', async (t) => {
  const text = await inject(app(), {
    method: 'POST',
    url: '/r/accept-header',
    headers: { 'content-type': 'text/plain' },
    body: 'plain',
  });
  t.is(text.statusCode, 200);
  t.deepEqual(text.json(), { body: 'plain' });
  const json = await inject(app(), { method: 'POST', url: '/r/accept-header', body: { a: 1 } });
  t.is(json.statusCode, 415);
});

test('routing 4: "the shorthand @Post(path, consumes) equals @POST + @Path + @Consumes"', async (t) => {
  t.deepEqual((await inject(app(), { method: 'POST', url: '/r/shorthand', body: { a: 1 } })).json(), { a: 1 });
  const refused = await inject(app(), {
    method: 'POST',
    url: '/r/shorthand',
    headers: { 'content-type': 'text/plain' },
    body: 'a=1',
  });
  t.is(refused.statusCode, 415);
  t.is(refused.json().code, 'RU_ERR_UNSUPPORTED_MEDIA_TYPE');
});

test('routing: "@Consumes is bound to the route only when the request has a body"', async (t) => {
  const r = await inject(app(), { url: '/r/consumes-no-body', headers: { 'content-type': 'text/plain' } });
  t.is(r.statusCode, 200);
  t.deepEqual(r.json(), { read: 'nothing' });
});

test("errors: \"UnauthorizedException = 401 'HTTP 401 Unauthorized'; ForbiddenException = 403 'HTTP 403 Forbidden'\"", async (t) => {
  const unauthorized = await inject(app(), { method: 'PUT', url: '/r/unauthorized' });
  t.is(unauthorized.statusCode, 401);
  t.deepEqual(unauthorized.json(), {
    status: 401,
    error: 'Unauthorized',
    message: 'HTTP 401 Unauthorized',
    code: 'RU_ERR_UNAUTHORIZED',
  });
  const forbidden = await inject(app(), { method: 'PUT', url: '/r/forbidden' });
  t.is(forbidden.statusCode, 403);
  t.deepEqual(forbidden.json(), {
    status: 403,
    error: 'Forbidden',
    message: 'HTTP 403 Forbidden',
    code: 'RU_ERR_FORBIDDEN',
  });
});

test('errors: "an IllegalArgumentException (ArgumentException here) is 400" when a method throws it too', async (t) => {
  const r = await inject(app(), '/r/argument-error');
  t.is(r.statusCode, 400);
  t.is(r.json().message, 'quantity must be positive');
});

test('errors: "the status is set before the handler runs: a handler that sets none keeps 400 (or 500)"', async (t) => {
  const builder = new RestBuilder().register(Rules).errorHandler(StatusKeepingHandler);
  const conversion = await inject(builder, '/r/conversion?n=abc');
  t.is(conversion.statusCode, 400);
  t.regex(conversion.body, /^kept: Failed to convert value: 'abc' of @QueryParam\("n"\) to type: number/);
  const missing = await inject(builder, '/r/conversion');
  t.is(missing.statusCode, 400);
  t.is(missing.body, 'kept: Missing @QueryParam("n") for: GET /r/conversion');
});
