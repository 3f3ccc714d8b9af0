import test from 'ava';
import {
  BodyParam,
  Consumes,
  Context,
  PathParam,
  GET,
  Handles,
  Header,
  HttpResponseWriter,
  HttpServerRequest,
  HttpServerResponse,
  Path,
  POST,
  Produces,
  RequestReader,
  Response,
  ResponseWriter,
  RestBuilder,
  RestRouter,
  SuppressCheck,
  ValueReader,
  inject,
} from '../../src/index';

class Person {
  name!: string;
  greet() {
    return `hi ${this.name}`;
  }
}

@Handles(Person)
class PersonReader implements ValueReader<Person> {
  read(value: string): Person {
    const p = new Person();
    p.name = `param:${value}`;
    return p;
  }
}
class UpperReader implements ValueReader<string> {
  read(value: string): string {
    return value.toUpperCase();
  }
}
@Consumes('application/x-person')
class MimePersonReader implements ValueReader<Person> {
  read(value: string): Person {
    const p = new Person();
    p.name = `mime:${value}`;
    return p;
  }
}

@Produces('text/x-person')
@Header('X-Writer: person')
class PersonWriter implements HttpResponseWriter<Person> {
  write(data: Person, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(`<${data.name}>`);
  }
}
@Handles(Person)
class TypedPersonWriter implements HttpResponseWriter<Person> {
  write(data: Person, _req: HttpServerRequest, res: HttpServerResponse) {
    res.putHeader('content-type', 'text/x-typed');
    res.end(`typed ${data.name}`);
  }
}
@Handles(Number)
class NumberWriter implements HttpResponseWriter<number> {
  write(data: number, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(String(data));
  }
}

@Path('/rw')
class ReadWrite {
  @POST @Path('/json') json(body: Person) {
    return { isPerson: body instanceof Person, greeting: body.greet() };
  }
  @POST @Path('/param-reader') paramReader(@BodyParam() @RequestReader(UpperReader) body: string) {
    return { body };
  }
  @POST @Path('/method-reader') @RequestReader(UpperReader) methodReader(body: string) {
    return { body };
  }
  @POST @Path('/mime') @Consumes('application/x-person') mime(body: Person) {
    return { name: body.name };
  }
  @POST @Path('/consumes-json') @Consumes('application/json') consumesJson(body: { a: number }) {
    return body;
  }
  @GET @Path('/writer') @ResponseWriter(PersonWriter) writer(): Person {
    return Object.assign(new Person(), { name: 'ann' });
  }
  @GET @Path('/produces') @Produces('application/json', 'text/plain') produces() {
    return { a: 1 };
  }
  @GET @Path('/text') @Produces('text/plain') text() {
    return 42;
  }
  @GET @Path('/headers') @Header('Cache-Control: no-store', 'X-Api: 1') headers() {
    return 'ok';
  }
  @GET @Path('/header-content-type') @Header('Content-Type: text/html') html() {
    return '<b>x</b>';
  }
  @POST @Path('/created') created(body: { id: string }) {
    return Response.status(201).header('Location', `/rw/things/${body.id}`).entity({ id: body.id }).build();
  }
  @GET @Path('/no-content') noContent() {
    return Response.noContent().build();
  }
  @GET @Path('/async') async asyncResult() {
    await new Promise((r) => setTimeout(r, 5));
    return { async: true };
  }
  @GET @Path('/direct') direct(@Context() res: HttpServerResponse) {
    res.setStatusCode(202).putHeader('content-type', 'text/plain');
    res.write('part1,');
    res.end('part2');
  }
  @GET @Path('/typed') typed(): Person {
    return Object.assign(new Person(), { name: 'bo' });
  }
  @GET @Path('/null') nothing() {
    return null;
  }
}

const app = () => new RestBuilder().register(ReadWrite).writer(Person, TypedPersonWriter);

test('JSON bodies get the declared class (its methods work); malformed JSON is 400', async (t) => {
  const r = await inject(app(), {
    method: 'POST',
    url: '/rw/json',
    body: { name: 'zed', __proto__: { polluted: true } },
  });
  t.deepEqual(r.json(), { isPerson: true, greeting: 'hi zed' });
  const bad = await inject(app(), {
    method: 'POST',
    url: '/rw/json',
    body: '{"name": ',
    headers: { 'content-type': 'application/json' },
  });
  t.is(bad.statusCode, 400);
  t.regex(bad.json().message, /^Malformed JSON body/);
  t.is(({} as any).polluted, undefined);
});

test('reader order: parameter reader, method reader, then the mime-type reader of @Consumes', async (t) => {
  t.deepEqual(
    (
      await inject(app(), {
        method: 'POST',
        url: '/rw/param-reader',
        body: 'abc',
        headers: { 'content-type': 'text/plain' },
      })
    ).json(),
    { body: 'ABC' },
  );
  t.deepEqual(
    (
      await inject(app(), {
        method: 'POST',
        url: '/rw/method-reader',
        body: 'def',
        headers: { 'content-type': 'text/plain' },
      })
    ).json(),
    { body: 'DEF' },
  );
  const b = app().reader(MimePersonReader);
  t.deepEqual(
    (
      await inject(b, {
        method: 'POST',
        url: '/rw/mime',
        body: 'x',
        headers: { 'content-type': 'application/x-person' },
      })
    ).json(),
    { name: 'mime:x' },
  );
});

test('a class-type reader applies to parameters of that type: per app, and globally through RestRouter.getReaders()', async (t) => {
  @Path('/person')
  class PersonRoute {
    @GET @Path('/{p}') get(@PathParam('p') p: Person) {
      return { name: p.name };
    }
  }
  t.deepEqual(
    (await inject(new RestBuilder().register(PersonRoute).reader(Person, PersonReader), '/person/joe')).json(),
    { name: 'param:joe' },
  );

  class Celsius {
    constructor(readonly degrees: number) {}
  }
  @Handles(Celsius)
  class CelsiusReader implements ValueReader<Celsius> {
    read(value: string) {
      return new Celsius(Number(value.replace(/C$/, '')));
    }
  }
  @Path('/temp')
  class Temp {
    @GET @Path('/{t}') get(@PathParam('t') c: Celsius) {
      return { degrees: c.degrees };
    }
  }
  const built = new RestBuilder().register(Temp).build();
  // Registered after the app was built: routes rebuild themselves when a global registry changes.
  RestRouter.getReaders().register(CelsiusReader);
  t.deepEqual((await inject(built, '/temp/21C')).json(), { degrees: 21 });
});

test('an unsupported Content-Type is 415; a missing body is 400', async (t) => {
  const r = await inject(app(), {
    method: 'POST',
    url: '/rw/consumes-json',
    body: '<a/>',
    headers: { 'content-type': 'application/xml' },
  });
  t.is(r.statusCode, 415);
  t.regex(r.json().message, /Unsupported Content-Type application\/xml/);
  const none = await inject(app(), { method: 'POST', url: '/rw/json' });
  t.is(none.statusCode, 400);
  t.regex(none.json().message, /Missing request body/);
});

test('writer order: method @ResponseWriter with its @Produces and @Header, then class-type writer, then mime-type writer', async (t) => {
  const w = await inject(app(), '/rw/writer');
  t.is(w.body, '<ann>');
  t.is(w.headers['content-type'], 'text/x-person');
  t.is(w.headers['x-writer'], 'person');
  const typed = await inject(app(), '/rw/typed');
  t.is(typed.body, 'typed bo');
  t.is(typed.headers['content-type'], 'text/x-typed');
});

test('@Produces negotiates with Accept; nothing acceptable gives 406', async (t) => {
  t.is((await inject(app(), { url: '/rw/produces' })).headers['content-type'], 'application/json');
  // An empty Accept says what no Accept says: the first produced type.
  t.is(
    (await inject(app(), { url: '/rw/produces', headers: { accept: '' } })).headers['content-type'],
    'application/json',
  );
  const text = await inject(app(), { url: '/rw/produces', headers: { accept: 'text/plain' } });
  t.is(text.headers['content-type'], 'text/plain');
  t.is(text.body, '[object Object]');
  const q = await inject(app(), { url: '/rw/produces', headers: { accept: 'application/json;q=0.1, text/*;q=0.5' } });
  t.is(q.headers['content-type'], 'text/plain');
  const none = await inject(app(), { url: '/rw/produces', headers: { accept: 'image/png' } });
  t.is(none.statusCode, 406);
  t.is((await inject(app(), '/rw/text')).body, '42');
});

test('@Header adds static headers; a Content-Type entry replaces @Produces', async (t) => {
  const r = await inject(app(), '/rw/headers');
  t.is(r.headers['cache-control'], 'no-store');
  t.is(r.headers['x-api'], '1');
  t.is(r.headers['x-content-type-options'], 'nosniff');
  const html = await inject(app(), '/rw/header-content-type');
  t.is(html.headers['content-type'], 'text/html');
  t.is(html.body, '<b>x</b>');
});

test('a method may return a Response, a Promise, null, or write the response itself', async (t) => {
  const c = await inject(app(), { method: 'POST', url: '/rw/created', body: { id: 'a1' } });
  t.is(c.statusCode, 201);
  t.is(c.headers.location, '/rw/things/a1');
  t.deepEqual(c.json(), { id: 'a1' });
  t.is((await inject(app(), '/rw/no-content')).statusCode, 204);
  t.deepEqual((await inject(app(), '/rw/async')).json(), { async: true });
  const d = await inject(app(), '/rw/direct');
  t.is(d.statusCode, 202);
  t.is(d.body, 'part1,part2');
  const n = await inject(app(), '/rw/null');
  t.is(n.statusCode, 204);
});

test('registration fails when a reader or writer cannot serve the declared type, unless @SuppressCheck', (t) => {
  @Path('/bad-writer')
  class BadWriter {
    @GET @Path('/') @ResponseWriter(NumberWriter) get(): Person {
      return new Person();
    }
  }
  const err = t.throws(() => new RestBuilder().register(BadWriter).build());
  t.regex(err!.message, /BadWriter\.get\(\): writer NumberWriter writes Number, but the method returns Person/);
  t.is((err as any).code, 'RU_ERR_WRITER_TYPE');

  @Path('/bad-reader')
  class BadReader {
    @POST @Path('/') post(@BodyParam() @RequestReader(PersonReader) n: Date) {
      return n;
    }
  }
  const err2 = t.throws(() => new RestBuilder().register(BadReader).build());
  t.regex(
    err2!.message,
    /BadReader\.post\(\) parameter 0: reader PersonReader produces Person, which cannot be assigned to the parameter type Date/,
  );

  @Path('/suppressed')
  class Suppressed {
    @GET @Path('/') @SuppressCheck @ResponseWriter(NumberWriter) get(): Person {
      return new Person();
    }
  }
  t.notThrows(() => new RestBuilder().register(Suppressed).build());
});

test('a JSON key named like a getter-only accessor of the body class does not fail the request', async (t) => {
  class Cart {
    items: number[] = [];
    get total() {
      return this.items.length;
    }
  }
  @Path('/cart')
  class CartRoute {
    @POST @Path('/') post(body: Cart) {
      return { isCart: body instanceof Cart, total: body.total };
    }
  }
  const r = await inject(new RestBuilder().register(CartRoute), {
    method: 'POST',
    url: '/cart',
    body: { items: [1, 2], total: 3 },
  });
  t.is(r.statusCode, 200);
  t.deepEqual(r.json(), { isCart: true, total: 3 });
});

test('one route, Content-Types taking turns: each body is read by the reader of its own type, refusals stay refusals', async (t) => {
  @Path('/turns')
  class Turns {
    @POST @Path('/') @Consumes('application/json', 'application/x-www-form-urlencoded', 'text/plain') take(
      body: unknown,
    ) {
      return { body };
    }
  }
  const built = new RestBuilder().register(Turns).build();
  const send = (type: string, body: string) =>
    inject(built, { method: 'POST', url: '/turns', body, headers: { 'content-type': type } });
  for (let round = 0; round < 2; round++) {
    t.deepEqual((await send('application/json', '{"a":1}')).json(), { body: { a: 1 } });
    t.deepEqual((await send('application/json', '{"a":1}')).json(), { body: { a: 1 } });
    t.deepEqual((await send('application/x-www-form-urlencoded', 'a=1&b=2')).json(), { body: { a: '1', b: '2' } });
    t.deepEqual((await send('text/plain; charset=utf-8', '{"a":1}')).json(), { body: '{"a":1}' });
    t.is((await send('application/xml', '<a/>')).statusCode, 415);
    t.deepEqual((await send('Application/JSON', '[1]')).json(), { body: [1] });
  }
});
