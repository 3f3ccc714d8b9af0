/**
 * Issue 18, "Also": the spec's argument, reader, writer and response rules (Area B) that had no test of their
 * own, one test each, through the public API. The rule is quoted in each test's title.
 */
import test from 'ava';
import {
  Consumes,
  DefaultValue,
  FormParam,
  GET,
  Handles,
  HttpResponseWriter,
  HttpServerRequest,
  HttpServerResponse,
  MatrixParam,
  Path,
  PathParam,
  POST,
  Produces,
  QueryParam,
  RegistrationError,
  RequestReader,
  ResponseWriter,
  RestBuilder,
  RestRouter,
  SuppressCheck,
  ValueReader,
  inject,
} from '../../src/index';

/** Any class decorator makes TypeScript record the constructor's parameter types. */
const ValueType = (): ClassDecorator => () => {};

@ValueType()
class Cents {
  constructor(readonly amount: number) {}
}
class Undecorated {
  constructor(readonly raw: unknown) {}
}
class Both {
  constructor(readonly via: string) {}
  static fromString(s: string) {
    return new Both(`fromString ${s}`);
  }
  static valueOf(s: string) {
    return new Both(`valueOf ${s}`);
  }
}
// A one-argument constructor comes first; without one, fromString wins over valueOf.
class FactoriesOnly {
  via = '';
  static fromString(s: string) {
    return Object.assign(new FactoriesOnly(), { via: `fromString ${s}` });
  }
  static valueOf(s: string) {
    return Object.assign(new FactoriesOnly(), { via: `valueOf ${s}` });
  }
}

class Person {
  constructor(readonly name: string) {}
}
@Consumes('application/x-person')
class MimePersonReader implements ValueReader<Person> {
  read(value: string) {
    return new Person(`mime ${value}`);
  }
}
@Handles(Person)
class TypePersonReader implements ValueReader<Person> {
  read(value: string) {
    return new Person(`type ${value}`);
  }
}

@Handles(Date)
class DateReader implements ValueReader<Date> {
  read(value: string) {
    return new Date(Number(value));
  }
}
class Greeter {
  greet(): string {
    return 'hello';
  }
}

@Produces('text/csv')
class CsvWriter implements HttpResponseWriter<unknown> {
  write(data: unknown, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(`csv:${Object.values(data as object).join(',')}`);
  }
}
@Produces('text/x-global')
class GlobalTextWriter implements HttpResponseWriter<unknown> {
  write(data: unknown, _req: HttpServerRequest, res: HttpServerResponse) {
    res.end(`global:${JSON.stringify(data)}`);
  }
}
/** Ends the response itself, later. */
class SlowWriter implements HttpResponseWriter<unknown> {
  async write(data: unknown, _req: HttpServerRequest, res: HttpServerResponse) {
    await new Promise((resolve) => setImmediate(resolve));
    res.write(`slow:${String(data)}`);
  }
}

@Path('/io')
class Io {
  @GET @Path('/cents') cents(@QueryParam('c') c: Cents, @QueryParam('u') u: Undecorated) {
    return { cents: c.amount, centsType: typeof c.amount, undecoratedType: typeof u.raw };
  }
  @GET @Path('/factories') factories(
    @QueryParam('both') both: Both,
    @QueryParam('factories') factories: FactoriesOnly,
  ) {
    return { both: both.via, factories: factories.via };
  }
  @POST @Path('/person') @Consumes('application/x-person') person(body: Person) {
    return { name: body.name };
  }
  @POST @Path('/form-default') formDefault(
    @FormParam('name') name: string,
    @FormParam('qty') @DefaultValue(1) qty: number,
  ) {
    return { name, qty };
  }
  @GET @Path('/cars/{make}') car(
    @PathParam('make') make: string,
    @MatrixParam('color') @DefaultValue('black') color: string,
  ) {
    return { make, color };
  }
  @GET @Path('/csv') @Produces('text/csv', 'application/json') csv() {
    return { a: 1, b: 2 };
  }
  @GET @Path('/global') @Produces('text/x-global') global() {
    return { g: true };
  }
  @GET @Path('/null-later') async nullLater(): Promise<null> {
    await Promise.resolve();
    return null;
  }
  @GET @Path('/slow') @ResponseWriter(SlowWriter) slow() {
    return 'done';
  }
}

const app = () => new RestBuilder().register(Io);

test('arguments 7: "a single primitive constructor" gets the converted value (when TypeScript recorded its type)', async (t) => {
  const r = await inject(app(), '/io/cents?c=1250&u=7');
  t.deepEqual(r.json(), { cents: 1250, centsType: 'number', undecoratedType: 'string' });
  const bad = await inject(app(), '/io/cents?c=12.50x&u=7');
  t.is(bad.statusCode, 400);
  t.is(bad.json().code, 'RU_ERR_CONVERSION');
});

test('arguments 7: "a single String constructor, ... static fromString(String) then valueOf(String), in that order"', async (t) => {
  t.deepEqual((await inject(app(), '/io/factories?both=x&factories=y')).json(), {
    both: 'x',
    factories: 'fromString y',
  });
});

test('arguments 6: "class-type reader before mime-type reader" for a body; the media type\'s charset is ignored', async (t) => {
  const mime = await inject(new RestBuilder().register(Io).reader(MimePersonReader), {
    method: 'POST',
    url: '/io/person',
    headers: { 'content-type': 'application/x-person; charset=utf-8' },
    body: 'ann',
  });
  t.deepEqual(mime.json(), { name: 'mime ann' });
  const typed = await inject(new RestBuilder().register(Io).reader(MimePersonReader).reader(TypePersonReader), {
    method: 'POST',
    url: '/io/person',
    headers: { 'content-type': 'application/x-person' },
    body: 'bo',
  });
  t.deepEqual(typed.json(), { name: 'type bo' });
});

test('arguments 4: "@DefaultValue applies to form and matrix values" too', async (t) => {
  const form = await inject(app(), {
    method: 'POST',
    url: '/io/form-default',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=ann',
  });
  t.deepEqual(form.json(), { name: 'ann', qty: 1 });
  t.deepEqual((await inject(app(), '/io/cars/bmw')).json(), { make: 'bmw', color: 'black' });
  t.deepEqual((await inject(app(), '/io/cars/bmw;color=red')).json(), { make: 'bmw', color: 'red' });
});

// Serial, and left registered: it adds a global writer (for a media type no other test here produces).
test.serial(
  'responses 2: "@Produces on a writer registers the writer for that type" when registered without a key, per app or globally',
  async (t) => {
    const r = await inject(new RestBuilder().register(Io).writer(CsvWriter), '/io/csv');
    t.is(r.headers['content-type'], 'text/csv');
    t.is(r.body, 'csv:1,2');
    RestRouter.getWriters().register(new GlobalTextWriter());
    const global = await inject(app(), '/io/global');
    t.is(global.headers['content-type'], 'text/x-global');
    t.is(global.body, 'global:{"g":true}');
  },
);

test('responses 5: "a null future" gives 204; a writer that finishes later gets its response ended for it', async (t) => {
  const none = await inject(app(), '/io/null-later');
  t.is(none.statusCode, 204);
  t.is(none.body, '');
  const slow = await inject(app(), '/io/slow');
  t.is(slow.statusCode, 200);
  t.is(slow.body, 'slow:done');
});

test('arguments 9: "@SuppressCheck disables the compatibility check of readers; it does not prevent runtime type errors"', async (t) => {
  @Path('/checked')
  class Checked {
    @POST @Path('/greet') greet(@RequestReader(DateReader) body: Greeter) {
      return body.greet();
    }
  }
  t.throws(() => new RestBuilder().register(Checked).build(), {
    instanceOf: RegistrationError,
    message: /reader DateReader produces Date/,
  });
  @Path('/suppressed')
  class Suppressed {
    @POST @Path('/greet') @SuppressCheck greet(@RequestReader(DateReader) body: Greeter) {
      return body.greet();
    }
  }
  const quiet = { error() {}, warn() {}, info() {}, debug() {} };
  const r = await inject(new RestBuilder().register(Suppressed).logger(quiet), {
    method: 'POST',
    url: '/suppressed/greet',
    headers: { 'content-type': 'text/plain' },
    body: '0',
  });
  t.is(r.statusCode, 500);
  t.is(r.json().message, 'Internal Server Error');
});
