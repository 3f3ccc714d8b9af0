import test from 'ava';
import {
  BeanParam,
  BodyParam,
  Context,
  CookieParam,
  DefaultValue,
  FormParam,
  GET,
  HeaderParam,
  MatrixParam,
  Optional,
  Path,
  PathParam,
  POST,
  QueryParam,
  Raw,
  RestBuilder,
  inject,
} from '../../src/index';

enum Color {
  Red = 'red',
  Green = 'green',
}
enum Level {
  Low,
  High,
}

class Money {
  constructor(readonly text: string) {
    if (!/^\d+(\.\d\d)?$/.test(text)) throw new Error('expected an amount like 12.50');
  }
}
class Code {
  value = '';
  static fromString(s: string) {
    return Object.assign(new Code(), { value: s.toUpperCase() });
  }
}
class Flag {
  on = false;
  static valueOf(s: string) {
    return Object.assign(new Flag(), { on: s === 'y' });
  }
}

class Filter {
  @QueryParam('q') q!: string;
  @QueryParam('page', { optional: true }) @DefaultValue(1) page!: number;
  @HeaderParam('x-tenant') tenant!: string;
  constructor(@PathParam('id') readonly id: number) {}
}

@Path('/args')
class Args {
  @GET @Path('/query') query(
    @QueryParam('s') s: string,
    @QueryParam('s') @Raw raw: string,
    @QueryParam('n') n: number,
    @QueryParam('b') b: boolean,
  ) {
    return { s, raw, n, b };
  }
  @GET @Path('/types') types(
    @QueryParam('big') big: bigint,
    @QueryParam('date') date: Date,
    @QueryParam('color', { type: Color }) color: Color,
    @QueryParam('level', { type: Level }) level: Level,
    @QueryParam('ids', { type: [Number] }) ids: number[],
    @QueryParam('money') money: Money,
    @QueryParam('code') code: Code,
    @QueryParam('flag') flag: Flag,
  ) {
    return {
      big: String(big),
      date: date.toISOString(),
      color,
      level,
      ids,
      money: money.text,
      code: code.value,
      flag: flag.on,
    };
  }
  @GET @Path('/defaults/{id}') defaults(
    @PathParam('id') id: string,
    @QueryParam('limit') @DefaultValue(20) limit: number,
    @HeaderParam('x-mode') @DefaultValue('fast') mode: string,
    @CookieParam('session') @DefaultValue('none') session: string,
    @QueryParam('opt') @Optional opt: string,
    @QueryParam('opt2', { optional: true }) opt2: number,
  ) {
    return { id, limit, mode, session, opt: opt ?? null, opt2: opt2 ?? null };
  }
  @GET @Path('/cars/{make}') matrix(
    @PathParam('make') make: string,
    @MatrixParam('color') color: string,
    @MatrixParam('year') year: number,
  ) {
    return { make, color, year };
  }
  @GET @Path('/bean/{id}') bean(@BeanParam filter: Filter) {
    return { isFilter: filter instanceof Filter, ...filter };
  }
  @POST @Path('/form') form(
    @FormParam('name') name: string,
    @FormParam('age') age: number,
    @FormParam('tags', { type: [String] }) tags: string[],
  ) {
    return { name, age, tags };
  }
  @GET @Path('/cookie') cookie(@CookieParam('session') session: string, @HeaderParam('X-Trace') trace: string) {
    return { session, trace };
  }
}

const app = () => new RestBuilder().register(Args);

test('query values are URL-decoded; @Raw gives them as sent; numbers and booleans convert', async (t) => {
  const r = await inject(app(), '/args/query?s=a%20b%2Bc&n=-12.5&b=true');
  t.deepEqual(r.json(), { s: 'a b+c', raw: 'a%20b%2Bc', n: -12.5, b: true });
});

test('bigint, Date, enums (names and values), arrays, single-string constructor, fromString, valueOf', async (t) => {
  const r = await inject(
    app(),
    '/args/types?big=9007199254740993&date=2024-02-03T04:05:06Z&color=green&level=High&ids=1&ids=2&money=12.50&code=ab&flag=y',
  );
  t.is(r.statusCode, 200, r.body);
  t.deepEqual(r.json(), {
    big: '9007199254740993',
    date: '2024-02-03T04:05:06.000Z',
    color: 'green',
    level: 1,
    ids: [1, 2],
    money: '12.50',
    code: 'AB',
    flag: true,
  });
});

test('values that cannot be converted give 400 naming the argument and why', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['n=abc&s=x&b=true', /'abc' of @QueryParam\("n"\) to type: number/],
    ['n=0x1f&s=x&b=true', /'0x1f' of @QueryParam\("n"\) to type: number/],
    ['n=1&s=x&b=maybe', /@QueryParam\("b"\) to type: boolean \(expected true or false\)/],
  ];
  for (const [query, message] of cases) {
    const r = await inject(app(), `/args/query?${query}`);
    t.is(r.statusCode, 400, query);
    t.regex(r.json().message, message);
    t.is(r.json().code, 'RU_ERR_CONVERSION');
  }
  const base = 'big=1&date=2024-01-01&color=red&level=Low&ids=1&money=1&code=a&flag=y';
  const bad: Array<[string, RegExp]> = [
    [base.replace('color=red', 'color=blue'), /to type: enum \(allowed: red, green\)/],
    [base.replace('money=1', 'money=x'), /to type: Money \(expected an amount like 12.50\)/],
    [base.replace('date=2024-01-01', 'date=yesterday'), /to type: Date/],
    [base.replace('ids=1', 'ids=1&ids=x'), /'x' of @QueryParam\("ids"\) to type: number/],
  ];
  for (const [query, message] of bad) {
    const r = await inject(app(), `/args/types?${query}`);
    t.is(r.statusCode, 400, query);
    t.regex(r.json().message, message);
  }
});

test('a missing required argument gives 400 naming it and the route', async (t) => {
  const r = await inject(app(), '/args/query?s=x&b=true');
  t.is(r.statusCode, 400);
  t.is(r.json().message, 'Missing @QueryParam("n") for: GET /args/query');
  t.is(r.json().code, 'RU_ERR_MISSING_ARGUMENT');
});

test('@DefaultValue for query, header and cookie; optional arguments are undefined when absent', async (t) => {
  const r = await inject(app(), '/args/defaults/7');
  t.deepEqual(r.json(), { id: '7', limit: 20, mode: 'fast', session: 'none', opt: null, opt2: null });
  const given = await inject(app(), {
    url: '/args/defaults/7?limit=5&opt=x&opt2=3',
    headers: { 'x-mode': 'slow', cookie: 'a=1; session=abc' },
  });
  t.deepEqual(given.json(), { id: '7', limit: 5, mode: 'slow', session: 'abc', opt: 'x', opt2: 3 });
});

test('matrix parameters come from ;name=value of a path segment', async (t) => {
  const r = await inject(app(), '/args/cars;color=red%20metallic;year=2020/mercedes');
  t.deepEqual(r.json(), { make: 'mercedes', color: 'red metallic', year: 2020 });
  const m = await inject(app(), '/args/cars/mercedes;color=red%20metallic;year=2020');
  t.deepEqual(m.json(), { make: 'mercedes', color: 'red metallic', year: 2020 });
});

test('@BeanParam builds its class from decorated constructor parameters and fields', async (t) => {
  const r = await inject(app(), { url: '/args/bean/5?q=term', headers: { 'x-tenant': 't1' } });
  t.deepEqual(r.json(), { isFilter: true, id: 5, q: 'term', page: 1, tenant: 't1' });
  const missing = await inject(app(), '/args/bean/5?q=term');
  t.is(missing.statusCode, 400);
  t.regex(missing.json().message, /Missing @HeaderParam\("x-tenant"\)/);
});

test('@FormParam reads urlencoded fields', async (t) => {
  const r = await inject(app(), {
    method: 'POST',
    url: '/args/form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=J%C3%BCrgen+K&age=41&tags=a&tags=b',
  });
  t.deepEqual(r.json(), { name: 'Jürgen K', age: 41, tags: ['a', 'b'] });
});

test('cookies and headers by name (headers case-insensitively)', async (t) => {
  const r = await inject(app(), { url: '/args/cookie', headers: { cookie: 'x=1; session="s%201"', 'x-trace': 'abc' } });
  t.deepEqual(r.json(), { session: 's 1', trace: 'abc' });
});

test('@Context with an unknown type and a body param without decorator are recognised at registration', async (t) => {
  class Unknown {}
  @Path('/ctx')
  class Bad {
    @GET @Path('/') get(@Context() u: Unknown) {
      return u;
    }
  }
  const r = await inject(new RestBuilder().register(Bad), '/ctx');
  t.is(r.statusCode, 400);
  t.is(r.json().message, "Can't provide @Context of type: Unknown");

  @Path('/two')
  class TwoBodies {
    @POST @Path('/') post(a: string, b: string) {
      return a + b;
    }
  }
  t.throws(() => new RestBuilder().register(TwoBodies).build(), {
    message: /parameters 0, 1 have no decorator; only one parameter may be the body/,
  });
  void BodyParam;
});

class NewNote {
  text!: string;
}

@Path('/notes')
class Notes {
  @POST @Path('/') create(body: NewNote) {
    return body;
  }

  @GET @Path('/{id:\\d+}') get(@PathParam('id') id: number) {
    return { id };
  }

  @GET @Path('/big/{id:\\d+}') big(@PathParam('id') id: bigint) {
    return { id: String(id) };
  }
}

test('a missing body names the route as the client wrote it: POST /notes, not POST /notes/', async (t) => {
  const r = await inject(new RestBuilder().register(Notes), { method: 'POST', url: '/notes' });
  t.is(r.statusCode, 400);
  t.like(r.json(), { code: 'RU_ERR_MISSING_BODY', message: 'Missing request body for: POST /notes' });
});

test('an integer path value past the safe range is a 400, not another number', async (t) => {
  const app = new RestBuilder().register(Notes);
  t.deepEqual((await inject(app, `/notes/${Number.MAX_SAFE_INTEGER}`)).json(), { id: Number.MAX_SAFE_INTEGER });
  const r = await inject(app, '/notes/99999999999999999999999');
  t.is(r.statusCode, 400);
  t.like(r.json(), { code: 'RU_ERR_CONVERSION' });
  t.regex(
    r.json().message,
    /^Failed to convert value: '99999999999999999999999' of @PathParam\("id"\) to type: number \(beyond the safe integer range \(±9007199254740991\); a bigint parameter takes larger integers\)$/,
  );
  t.is((await inject(app, `/notes/${Number.MAX_SAFE_INTEGER + 1}`)).statusCode, 400);
  t.deepEqual((await inject(app, '/notes/big/99999999999999999999999')).json(), { id: '99999999999999999999999' });
});
