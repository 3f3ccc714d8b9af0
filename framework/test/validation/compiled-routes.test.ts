/**
 * The compiled validator and transformer through real routes: the 400 answers are the ones
 * class-validator gives (same bytes), bodies are still real instances with nested instances, and
 * classes with decorators the compiler does not mirror fall back to the packages.
 */
import test from 'ava';
import 'reflect-metadata';
import fc from 'fast-check';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
  ValidatePromise,
  ValidateBy,
  registerDecorator,
} from 'class-validator';
import { BodyParam, ClassValidator, Path, POST, RestBuilder, Valid, type ClassValidatorOptions } from '../../src/index';
import { listen, type RunningServer } from '../support/server';
import { PLAIN_OBJECTS } from './support/arbitraries';
import { Everything, Tag, Tree } from './support/equivalence-dtos';

class WithPromise {
  @IsString() name!: string;
  @ValidatePromise() @ValidateNested() @Type(() => Tag) later!: Promise<Tag>;
}

class Outer {
  @IsInt() n!: number;
  @ValidateNested() @Type(() => WithPromise) inner!: WithPromise;
  @ValidateNested({ each: true }) @Type(() => Tag) tags!: Tag[];
}

const slowCheck = () =>
  ValidateBy({
    name: 'notTaken',
    async: true,
    validator: { validate: async (value: unknown) => value !== 'taken', defaultMessage: () => '$property is taken' },
  });

class Signup {
  @IsString() @slowCheck() user!: string;
}

/** A constraint registered as asynchronous: validate() runs it, validateSync() ignores it. */
function IsFreeName(target: object, propertyName: string): void {
  registerDecorator({
    name: 'isFreeName',
    async: true,
    target: target.constructor,
    propertyName,
    validator: { validate: async (value: unknown) => value !== 'root', defaultMessage: () => '$property is reserved' },
  });
}

class Account {
  @IsString() @IsFreeName name!: string;
}

@Path('/')
class Resource {
  @POST
  @Path('everything')
  everything(@Valid body: Everything): string {
    const nested = body.address instanceof Object ? body.address.constructor.name : typeof body.address;
    const tags = Array.isArray(body.tags)
      ? body.tags.map((t) => (t instanceof Object ? t.constructor.name : typeof t)).join(',')
      : typeof body.tags;
    return `${body.constructor.name} ${nested} ${tags}`;
  }

  @POST
  @Path('trees')
  trees(@Valid @BodyParam({ type: [Tree] }) trees: Tree[]): number {
    return trees.length;
  }

  @POST
  @Path('outer')
  outer(@Valid body: Outer): string {
    return `${body.inner.constructor.name} ${body.tags.map((t) => t.constructor.name).join(',')}`;
  }

  @POST
  @Path('signup')
  signup(@Valid body: Signup): string {
    return body.user;
  }

  @POST
  @Path('accounts')
  account(@Valid body: Account): string {
    return body.name;
  }
}

async function serve(
  options: ClassValidatorOptions | undefined,
  t: { teardown(fn: () => void): void },
): Promise<RunningServer> {
  const builder = new RestBuilder().register(Resource);
  if (options !== undefined) builder.validateWith(options);
  const server = await listen(builder.build());
  t.teardown(() => server.close());
  return server;
}

/** Everything a client sees of an answer. */
async function answer(server: RunningServer, path: string, body: unknown): Promise<string> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return `${res.status} ${res.headers.get('x-status-reason')} ${res.headers.get('content-type')}\n${await res.text()}`;
}

for (const [label, options] of [
  ['rest.uws defaults (no validateWith)', undefined],
  [
    'whitelist + forbidNonWhitelisted, stopAtFirstError',
    { validator: { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true } },
  ],
] as [string, ClassValidatorOptions | undefined][]) {
  test(`a route answers exactly as with class-validator and class-transformer: ${label}`, async (t) => {
    const compiled = await serve(options, t);
    const reference = await serve({ ...options, compile: false }, t);
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          PLAIN_OBJECTS.Everything!.map((b) => ['/everything', b] as const),
          fc.array(PLAIN_OBJECTS.Tree!, { maxLength: 3 }).map((b) => ['/trees', b] as const),
        ),
        async ([path, body]) => {
          const [a, b] = await Promise.all([answer(compiled, path, body), answer(reference, path, body)]);
          t.is(a, b, `${path} ${JSON.stringify(body)}`);
          if (a.startsWith('400')) invalid++;
        },
      ),
      { numRuns: 120 },
    );
    t.true(invalid > 20, `only ${invalid} of the bodies were invalid`);
  });
}

test('a valid body arrives as a real instance with nested instances (compiled by default)', async (t) => {
  t.deepEqual(new ClassValidator().compilation(Everything), {
    validation: { compiled: true },
    transform: { compiled: true },
  });
  const server = await serve(undefined, t);
  const body = {
    s: 'x',
    i: 3,
    n: 1.5,
    loose: 2,
    money: 1.25,
    b: true,
    oneOf: 'a',
    notOneOf: 'y',
    color: 'red',
    level: 2,
    pos: 1,
    neg: -1,
    yes: 'yes',
    notZero: 2,
    email: 'a@b.co',
    uuid: '550e8400-e29b-41d4-a716-446655440000',
    uuid4: '550e8400-e29b-41d4-a716-446655440000',
    iso: '2024-01-31',
    date: '2024-01-31',
    url: 'https://example.com',
    list: [1],
    strings: ['ab'],
    ints: [0, 1],
    address: { city: 'Berlin', zip: '10115', country: 'DE' },
    tags: [{ name: 'ab' }, { name: 'cd', weight: 2 }],
  };
  const res = await fetch(`${server.url}/everything`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  t.is(await res.text(), 'Everything Address Tag,Tag');
  t.is(res.status, 200);
});

test('a class with a decorator the compiler does not mirror (@ValidatePromise) is validated by class-validator, nested in a compiled one', async (t) => {
  const modes = new ClassValidator().compilation(WithPromise);
  t.false(modes.validation.compiled);
  t.regex((modes.validation as { reason: string }).reason, /promiseValidation/);
  t.deepEqual(new ClassValidator().compilation(Outer).validation, { compiled: true });
  const compiled = await serve(undefined, t);
  const reference = await serve({ compile: false }, t);
  for (const body of [
    { n: 1, inner: { name: 'a' }, tags: [{ name: 'ok' }] },
    { n: 'x', inner: { name: 5, later: 3 }, tags: [{ name: 1 }, 7] },
    { n: 2, inner: 'nope', tags: 'none' },
    { inner: [{ name: 1 }], tags: [[{ name: 'x' }]] },
  ]) {
    t.is(await answer(compiled, '/outer', body), await answer(reference, '/outer', body), JSON.stringify(body));
  }
  t.is(
    (await answer(compiled, '/outer', { n: 1, inner: { name: 'a' }, tags: [{ name: 'ok' }] })).split('\n')[1],
    'WithPromise Tag',
  );
});

test('with async: true, an asynchronous constraint hands the object to class-validator validate()', async (t) => {
  // Registered as asynchronous: known when compiling.
  t.like(new ClassValidator({ async: true }).compilation(Account).validation, { compiled: false });
  t.deepEqual(new ClassValidator().compilation(Account).validation, { compiled: true }); // validateSync ignores it
  // A constraint that just returns a promise: found when validating.
  t.deepEqual(new ClassValidator({ async: true }).compilation(Signup).validation, { compiled: true });
  const server = await serve({ async: true }, t);
  const reference = await serve({ async: true, compile: false }, t);
  for (const [path, body] of [
    ['/signup', { user: 'ada' }],
    ['/signup', { user: 'taken' }],
    ['/signup', { user: 3 }],
    ['/accounts', { name: 'root' }],
    ['/accounts', { name: 'ada' }],
  ] as const) {
    t.is(await answer(server, path, body), await answer(reference, path, body));
  }
  t.is(await answer(server, '/signup', { user: 'ada' }), '200 null text/plain; charset=utf-8\nada');
  const taken = await answer(server, '/signup', { user: 'taken' });
  t.true(taken.startsWith('400 Validation failed'));
  t.true(
    taken.endsWith('"violations":[{"in":"body","path":"user","constraint":"notTaken","message":"user is taken"}]}'),
    taken,
  );
  t.true(
    (await answer(server, '/accounts', { name: 'root' })).includes(
      '"constraint":"isFreeName","message":"name is reserved"',
    ),
  );
});

test('non-default class-transformer options keep class-transformer for bodies', async (t) => {
  const validator = new ClassValidator({ transformer: { enableImplicitConversion: true } });
  t.like(validator.compilation(Everything).transform, { compiled: false });
  t.deepEqual(validator.compilation(Everything).validation, { compiled: true });
  t.like(new ClassValidator({ compile: false }).compilation(Everything), {
    validation: { compiled: false, reason: 'compile: false' },
  });
});

// The example of docs/reference/validation-and-injection.md ("Compiled validation"), with its documented answer.
class DocItem {
  @IsString() @Matches(/^[A-Z0-9-]{1,32}$/) sku!: string;
  @IsInt() @Min(1) @Max(1000) quantity!: number;
}

class DocOrder {
  @IsIn(['EUR', 'USD']) currency!: string;
  @ValidateNested({ each: true }) @Type(() => DocItem) items!: DocItem[];
}

@Path('/orders')
class DocOrders {
  @POST create(@Valid order: DocOrder) {
    return { items: order.items.length, first: order.items[0] instanceof DocItem };
  }
}

test('the documented example answers as documented', async (t) => {
  const validator = new ClassValidator();
  t.deepEqual(validator.compilation(DocOrder), { validation: { compiled: true }, transform: { compiled: true } });
  const server = await listen(new RestBuilder().validateWith(validator).register(DocOrders).build());
  t.teardown(() => server.close());
  const post = (body: string) =>
    fetch(`${server.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const bad = await post('{"currency":"GBP","items":[{"sku":"a b","quantity":0}, 7]}');
  t.is(bad.status, 400);
  t.is(
    await bad.text(),
    '{"status":400,"error":"Bad Request","message":"Validation failed","code":"RU_ERR_VALIDATION","violations":[' +
      '{"in":"body","path":"currency","constraint":"isIn","message":"currency must be one of the following values: EUR, USD"},' +
      '{"in":"body","path":"items[0].sku","constraint":"matches","message":"sku must match /^[A-Z0-9-]{1,32}$/ regular expression"},' +
      '{"in":"body","path":"items[0].quantity","constraint":"min","message":"quantity must not be less than 1"},' +
      '{"in":"body","path":"items[1]","constraint":"nestedValidation","message":"each value in nested property items must be either object or array"}]}',
  );
  const ok = await post('{"currency":"EUR","items":[{"sku":"A-1","quantity":2}]}');
  t.is(await ok.text(), '{"items":1,"first":true}');
});

@Path('/lines')
class Lines {
  @POST create(@Valid line: DocItem) {
    return { sku: line.sku, quantity: line.quantity };
  }
  @POST @Path('orders') order(@Valid order: DocOrder) {
    return { items: order.items.length };
  }
}

test('over HTTP, each constraint broken alone is refused, whether the keys come in declared order (the one pass) or not', async (t) => {
  const server = await listen(new RestBuilder().validateWith(new ClassValidator()).register(Lines).build());
  t.teardown(() => server.close());
  const post = async (path: string, body: string) => {
    const res = await fetch(`${server.url}/lines${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    return {
      status: res.status,
      broken: res.status === 400 ? JSON.parse(text).violations.map((v: any) => `${v.path} ${v.constraint}`) : text,
    };
  };
  const cases: Array<[string, string, string[]]> = [
    ['', '{"sku":"A","quantity":0}', ['quantity min']],
    ['', '{"sku":"A","quantity":1001}', ['quantity max']],
    ['', '{"sku":"A","quantity":1.5}', ['quantity isInt']],
    ['', '{"sku":"a b","quantity":1}', ['sku matches']],
    ['', '{"sku":7,"quantity":1}', ['sku matches', 'sku isString']],
    ['/orders', '{"currency":"GBP","items":[{"sku":"A","quantity":1}]}', ['currency isIn']],
    ['/orders', '{"currency":"EUR","items":[{"sku":"A","quantity":0}]}', ['items[0].quantity min']],
    [
      '/orders',
      '{"currency":"EUR","items":[{"sku":"A","quantity":1},{"sku":"B","quantity":1001}]}',
      ['items[1].quantity max'],
    ],
  ];
  for (const [path, body, broken] of cases) {
    t.deepEqual(await post(path, body), { status: 400, broken }, body);
    // The same body with its keys reordered takes the exact passes.
    const reordered = JSON.stringify(JSON.parse(body), (_key, value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    );
    t.deepEqual(await post(path, reordered), { status: 400, broken }, reordered);
  }
  t.deepEqual(await post('', '{"sku":"A","quantity":1}'), { status: 200, broken: '{"sku":"A","quantity":1}' });
});

/** A constraint whose promise rejects (a lookup that failed). */
function IsCheckedRemotely(target: object, propertyName: string): void {
  registerDecorator({
    name: 'isCheckedRemotely',
    target: target.constructor,
    propertyName,
    options: { each: true },
    validator: { validate: () => Promise.reject(new Error('lookup failed')) },
  });
}

class Remote {
  @IsCheckedRemotely code!: string | string[];
}

test('a constraint whose promise rejects leaves no unhandled rejection behind (sync and async validation)', async (t) => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.teardown(() => process.off('unhandledRejection', onUnhandled));
  const sync = new ClassValidator();
  const async = new ClassValidator({ async: true });
  for (const code of ['a', ['a', 'b']]) {
    t.deepEqual(sync.validate(Object.assign(new Remote(), { code })), []); // validateSync ignores promises
    await t.throwsAsync(async () => async.validate(Object.assign(new Remote(), { code })), {
      message: 'lookup failed',
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.deepEqual(unhandled, []);
});
