import test from 'ava';
import {
  BadRequestException,
  Context,
  GET,
  Header,
  HttpResponseWriter,
  HttpServerRequest,
  HttpServerResponse,
  Path,
  QueryParam,
  RegistrationError,
  Response,
  ResponseWriter,
  RestBuilder,
} from '../../src/index';
import { listen, type RunningServer } from '../support/server';
import { rawRequest } from '../support/raw-http';

/**
 * Response splitting: an app that puts a value from the request into a response header must never let a CR,
 * LF or NUL in it end the header and start another (`\r\nSet-Cookie: evil=1`). Attacked over raw sockets
 * through every way a header is set; what reaches the wire is what is checked.
 */

/** A writer that copies the `note` query parameter into a header. */
class NoteWriter implements HttpResponseWriter<unknown> {
  write(data: unknown, request: HttpServerRequest, response: HttpServerResponse) {
    response.putHeader('X-Note', request.getQueryParam('note') ?? '');
    response.end(JSON.stringify(data));
  }
}

@Path('/')
class Echo {
  @GET @Path('/entity') entity(@QueryParam('note') note: string) {
    return Response.ok({ ok: true }).header('X-Note', note).build();
  }
  @GET @Path('/put') put(@QueryParam('note') note: string, @Context() response: HttpServerResponse) {
    response.putHeader('X-Note', note);
    return { ok: true };
  }
  @GET @Path('/append') append(@QueryParam('note') note: string, @Context() response: HttpServerResponse) {
    response.appendHeader('X-Note', note);
    return { ok: true };
  }
  @GET @Path('/name') name(@QueryParam('note') note: string, @Context() response: HttpServerResponse) {
    response.putHeader(`X-${note}`, 'value');
    return { ok: true };
  }
  @GET @Path('/type') type(@QueryParam('note') note: string) {
    return Response.ok({ ok: true }).type(`application/json; note=${note}`).build();
  }
  @GET @Path('/writer') @ResponseWriter(NoteWriter) writer() {
    return { ok: true };
  }
  @GET @Path('/error') error(@QueryParam('note') note: string) {
    throw new BadRequestException('refused', { headers: { 'X-Note': note } });
  }
}

/** What the app logged: the refused header is the app's bug, and the operator sees it. */
const logged: string[] = [];
const record = (_fields: unknown, message?: string) => void logged.push(message ?? '');
let server: RunningServer;
test.before(async () => {
  server = await listen(
    new RestBuilder()
      .register(Echo)
      .logger({ error: record, warn: record, info() {}, debug() {} })
      .build(),
  );
});
test.after.always(() => server.close());

const injections: Array<[string, string]> = [
  ['CR LF', '%0D%0ASet-Cookie:%20evil=1'],
  ['LF alone', '%0ASet-Cookie:%20evil=1'],
  ['CR alone', '%0DSet-Cookie:%20evil=1'],
  ['NUL', '%00Set-Cookie:%20evil=1'],
];

for (const path of ['/entity', '/put', '/append', '/name', '/type', '/writer', '/error']) {
  for (const [what, encoded] of injections) {
    test(`response splitting: ${what} in a header ${path === '/name' ? 'name' : 'value'} set through ${path.slice(1)} never reaches the wire`, async (t) => {
      const { text } = await rawRequest(
        server.port,
        `GET ${path}?note=a${encoded} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        10_000,
      );
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      t.regex(text, /^HTTP\/1\.1 500 /, text.slice(0, 200));
      t.false(/(^|[\r\n\0])Set-Cookie/i.test(head), head);
      t.false(text.includes('evil'), text);
      t.true(logged.length > 0);
    });
  }
}

test('response splitting: a clean value from the request is sent as it is', async (t) => {
  for (const path of ['/entity', '/put', '/append', '/writer']) {
    const res = await fetch(`${server.url}${path}?note=plain%20text`);
    t.is(res.status, 200, path);
    t.is(res.headers.get('x-note'), 'plain text', path);
  }
  const typed = await fetch(`${server.url}/type?note=plain`);
  t.is(typed.status, 200);
  t.is(typed.headers.get('content-type'), 'application/json; note=plain');
});

test('response splitting: @Header with a CR or LF is refused when the route is registered', (t) => {
  @Path('/')
  class Static {
    @GET @Path('/static') @Header('X-Note: a\r\nSet-Cookie: evil=1') static() {
      return {};
    }
  }
  const error = t.throws(() => new RestBuilder().register(Static).build());
  t.true(error instanceof RegistrationError, String(error));
  t.is((error as RegistrationError).code, 'RU_ERR_HEADER');
});

test('response splitting: default headers with a CR or LF are refused when configured', (t) => {
  t.throws(() => new RestBuilder().defaultHeaders({ 'X-Note': 'a\r\nSet-Cookie: evil=1' }), { instanceOf: TypeError });
  t.throws(() => new RestBuilder().defaultHeaders({ 'X-Note\r\nSet-Cookie': 'evil=1' }), { instanceOf: TypeError });
});
