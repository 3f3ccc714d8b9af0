/**
 * Issue 18, items 1 to 5: empty values and defaults, which reader reads what, what a failing reader answers,
 * beans without a body, and @Context defaults.
 */
import test from 'ava';
import {
  ArgumentException,
  BeanParam,
  BodyParam,
  Consumes,
  Context,
  CookieParam,
  DefaultValue,
  GET,
  Handles,
  HeaderParam,
  MatrixParam,
  NotFoundException,
  Path,
  PathParam,
  POST,
  PUT,
  QueryParam,
  Raw,
  RegistrationError,
  RequestReader,
  RestBuilder,
  ValueReader,
  inject,
} from '../../src/index';

enum Size {
  S = 's',
  L = 'l',
}

class JsonBodyReader implements ValueReader<unknown> {
  read(value: string) {
    return { parsed: JSON.parse(value) };
  }
}
const SECRET = 'db password hunter2 at /srv/app/reader.ts:12';
class FailingReader implements ValueReader<unknown> {
  read(): unknown {
    throw new Error(SECRET);
  }
}
class RejectingReader implements ValueReader<unknown> {
  async read(): Promise<unknown> {
    throw new TypeError(SECRET);
  }
}
class RefusingReader implements ValueReader<unknown> {
  read(value: string): unknown {
    if (value === 'gone') throw new NotFoundException('no such thing: gone');
    throw new ArgumentException(`not a code: ${value}`);
  }
}
class Code {
  constructor(readonly text: string) {}
}
class Payload {
  a!: number;
}
class FailingBean {
  @QueryParam('q') @RequestReader(FailingReader) q!: string;
}

class Everything {
  @HeaderParam('x-h') h!: string;
  @PathParam('id') id!: string;
  @QueryParam('q') @Raw q!: string;
  @CookieParam('c') c!: string;
  @MatrixParam('m') m!: string;
  @BodyParam({ optional: true }) body?: Payload;
}
class WithBodyDefault {
  @HeaderParam('x-h') h!: string;
  @BodyParam() @DefaultValue('{"a":7}') body!: Payload;
}
class WithRequiredBody {
  @HeaderParam('x-h') h!: string;
  @BodyParam() body!: Payload;
}

class TenantSettings {
  region = 'eu';
  tier?: string;
}
class TenantId {
  constructor(readonly id: string) {}
}

@Path('/a')
class Arguments {
  @GET @Path('/flag') flag(
    @QueryParam('flag') @DefaultValue(true) flag: boolean,
    @QueryParam('n') @DefaultValue(5) n: number,
    @QueryParam('size', { type: Size }) @DefaultValue('l') size: Size,
  ) {
    return { flag, n, size };
  }
  @GET @Path('/empty') empty(
    @QueryParam('text') @DefaultValue('dflt') text: string,
    @QueryParam('n', { optional: true }) n?: number,
    @QueryParam('ids', { type: [Number], optional: true }) ids?: number[],
  ) {
    return { text, n: n ?? null, ids };
  }
  @GET @Path('/required') required(@QueryParam('n') n: number) {
    return { n };
  }
  @POST @Path('/method-reader') @RequestReader(JsonBodyReader) methodReader(
    @HeaderParam('x-name') name: string,
    @QueryParam('limit') limit: number,
    body: unknown,
  ) {
    return { name, limit, body };
  }
  @GET @Path('/param-reader') paramReader(@QueryParam('x') @RequestReader(FailingReader) x: string) {
    return x;
  }
  @GET @Path('/async-reader') asyncReader(@QueryParam('x') @RequestReader(RejectingReader) x: string) {
    return x;
  }
  @GET @Path('/type-reader') typeReader(@QueryParam('code') code: Code) {
    return code;
  }
  @POST @Path('/type-reader-body') typeReaderBody(body: Code) {
    return body;
  }
  @POST @Path('/method-reader-fails') @RequestReader(FailingReader) methodReaderFails(body: string) {
    return body;
  }
  @POST @Path('/media-reader') @Consumes('application/x-boom') mediaReader(body: Payload) {
    return body;
  }
  @GET @Path('/bean-reader') beanReader(@BeanParam bean: FailingBean) {
    return bean;
  }
  @GET @Path('/refusing') refusing(@QueryParam('x') @RequestReader(RefusingReader) x: string) {
    return x;
  }
  @POST @Path('/everything/{id}') everything(@BeanParam bean: Everything) {
    return { ...bean, isPayload: bean.body === undefined ? null : bean.body instanceof Payload };
  }
  @POST @Path('/bean-default') beanDefault(@BeanParam bean: WithBodyDefault) {
    return { h: bean.h, body: bean.body, isPayload: bean.body instanceof Payload };
  }
  @POST @Path('/bean-required') beanRequired(@BeanParam bean: WithRequiredBody) {
    return bean;
  }
  @PUT @Path('/body-default') bodyDefault(@BodyParam() @DefaultValue('{"a":1}') body: Payload) {
    body.a += 1; // a request changing its default must not change the next request's
    return body;
  }
  @GET @Path('/context-default') contextDefault(
    @Context() @DefaultValue('{"region":"us","tier":"free"}') settings: TenantSettings,
  ) {
    settings.tier = `${settings.tier}!`;
    return { settings, isSettings: settings instanceof TenantSettings };
  }
  @GET @Path('/context-constructor') contextConstructor(@Context() @DefaultValue('t-1') tenant: TenantId) {
    return tenant;
  }
}

const quiet = { error() {}, warn() {}, info() {}, debug() {} };
const app = () =>
  new RestBuilder()
    .register(Arguments)
    .logger(quiet)
    .reader(Code, FailingReader)
    .reader('application/x-boom', FailingReader);

test('item 1: a boolean (number, enum) with @DefaultValue present without a value gets the default, as when absent', async (t) => {
  for (const query of ['?flag&n&size', '?flag=&n=&size=', '']) {
    const r = await inject(app(), `/a/flag${query}`);
    t.is(r.statusCode, 200, query);
    t.deepEqual(r.json(), { flag: true, n: 5, size: 'l' }, query);
  }
  t.deepEqual((await inject(app(), '/a/flag?flag=false&n=0&size=s')).json(), { flag: false, n: 0, size: 's' });
});

test('item 1: an empty string is a string; an empty number is absent (optional: undefined; required: missing)', async (t) => {
  t.deepEqual((await inject(app(), '/a/empty?text=&n=&ids=&ids=3')).json(), { text: '', n: null, ids: [3] });
  const r = await inject(app(), '/a/required?n=');
  t.is(r.statusCode, 400);
  t.is(r.json().message, 'Missing @QueryParam("n") for: GET /a/required');
  t.is((await inject(app(), '/a/required?n=x')).json().code, 'RU_ERR_CONVERSION');
});

test('item 2: a method @RequestReader reads the body only, not the @HeaderParam or @QueryParam beside it', async (t) => {
  const r = await inject(app(), {
    method: 'POST',
    url: '/a/method-reader?limit=3',
    headers: { 'x-name': 'joe' },
    body: { a: 1 },
  });
  t.is(r.statusCode, 200);
  t.deepEqual(r.json(), { name: 'joe', limit: 3, body: { parsed: { a: 1 } } });
});

test('item 3: a reader failing with a non-argument error is 500 without internals, on every path, and logged once', async (t) => {
  const requests = [
    { url: '/a/param-reader?x=1' },
    { url: '/a/async-reader?x=1' },
    { url: '/a/type-reader?code=1' },
    { url: '/a/bean-reader?q=1' },
    { method: 'POST', url: '/a/type-reader-body', headers: { 'content-type': 'text/plain' }, body: 'x' },
    { method: 'POST', url: '/a/method-reader-fails', headers: { 'content-type': 'text/plain' }, body: 'x' },
    { method: 'POST', url: '/a/media-reader', headers: { 'content-type': 'application/x-boom' }, body: 'x' },
  ];
  for (const request of requests) {
    const logged: unknown[] = [];
    const logger = { ...quiet, error: (o: unknown) => logged.push(o) };
    const builder = new RestBuilder()
      .register(Arguments)
      .logger(logger)
      .reader(Code, FailingReader)
      .reader('application/x-boom', FailingReader);
    const r = await inject(builder, { ...request, headers: { ...request.headers, accept: 'application/json' } });
    t.is(r.statusCode, 500, request.url);
    t.deepEqual(
      r.json(),
      { status: 500, error: 'Internal Server Error', message: 'Internal Server Error' },
      request.url,
    );
    t.false(r.body.includes('hunter2'), request.url);
    const text = await inject(builder, { ...request, headers: { ...request.headers, accept: 'text/plain' } });
    t.is(text.body, 'Internal Server Error', request.url);
    t.is(logged.length, 2, request.url);
    t.regex(String((logged[0] as { err: Error }).err.message), /hunter2/);
  }
});

test('item 3: a reader may refuse a value with an argument or HTTP error: its status and message are kept', async (t) => {
  const bad = await inject(app(), '/a/refusing?x=abc');
  t.is(bad.statusCode, 400);
  t.is(bad.json().message, 'not a code: abc');
  const gone = await inject(app(), '/a/refusing?x=gone');
  t.is(gone.statusCode, 404);
  t.is(gone.json().message, 'no such thing: gone');
});

test('item 4: @BeanParam built from header, path, raw query, cookie and matrix values without a body', async (t) => {
  const request = { method: 'POST', url: '/a/everything/7;m=mv?q=a%20b', headers: { 'x-h': 'h', cookie: 'c=cv' } };
  const r = await inject(app(), request);
  t.is(r.statusCode, 200);
  t.deepEqual(r.json(), { h: 'h', id: '7', q: 'a%20b', c: 'cv', m: 'mv', isPayload: null });
  const withBody = await inject(app(), { ...request, body: { a: 1 } });
  t.deepEqual(withBody.json(), { h: 'h', id: '7', q: 'a%20b', c: 'cv', m: 'mv', body: { a: 1 }, isPayload: true });
});

test("item 4: a bean's @BodyParam with @DefaultValue takes the default when no body is sent", async (t) => {
  const r = await inject(app(), { method: 'POST', url: '/a/bean-default', headers: { 'x-h': 'h' } });
  t.is(r.statusCode, 200);
  t.deepEqual(r.json(), { h: 'h', body: { a: 7 }, isPayload: true });
  const sent = await inject(app(), { method: 'POST', url: '/a/bean-default', headers: { 'x-h': 'h' }, body: { a: 2 } });
  t.deepEqual(sent.json(), { h: 'h', body: { a: 2 }, isPayload: true });
});

test("item 4 (deliberate): a bean's required @BodyParam without a body is 400, like any required argument", async (t) => {
  const r = await inject(app(), { method: 'POST', url: '/a/bean-required', headers: { 'x-h': 'h' } });
  t.is(r.statusCode, 400);
  t.is(r.json().code, 'RU_ERR_MISSING_BODY');
});

test('item 4: a body @DefaultValue is read anew for each request', async (t) => {
  const builder = app();
  t.deepEqual((await inject(builder, { method: 'PUT', url: '/a/body-default' })).json(), { a: 2 });
  t.deepEqual((await inject(builder, { method: 'PUT', url: '/a/body-default' })).json(), { a: 2 });
  t.deepEqual((await inject(builder, { method: 'PUT', url: '/a/body-default', body: { a: 10 } })).json(), { a: 11 });
});

test('item 5: @Context with a JSON @DefaultValue and no provider gets the default, an instance of its type, fresh each time', async (t) => {
  const builder = app();
  for (let i = 0; i < 2; i++) {
    const r = await inject(builder, '/a/context-default');
    t.is(r.statusCode, 200);
    t.deepEqual(r.json(), { settings: { region: 'us', tier: 'free!' }, isSettings: true });
  }
  t.deepEqual((await inject(builder, '/a/context-constructor')).json(), { id: 't-1' });
  const provided = new RestBuilder()
    .register(Arguments)
    .addProvider(TenantSettings, () => Object.assign(new TenantSettings(), { tier: 'gold' }));
  t.deepEqual((await inject(provided, '/a/context-default')).json(), {
    settings: { region: 'eu', tier: 'gold!' },
    isSettings: true,
  });
});

test('item 4/5: a default that cannot be read fails registration', (t) => {
  @Path('/bad')
  class BadDefaults {
    @POST @Path('/') post(@BodyParam() @DefaultValue('{not json') body: Payload) {
      return body;
    }
  }
  const error = t.throws(() => new RestBuilder().register(BadDefaults).build(), { instanceOf: RegistrationError });
  t.is((error as RegistrationError).code, 'RU_ERR_DEFAULT_VALUE');
  void Handles;
});
