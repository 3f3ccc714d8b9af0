import test from 'ava';
import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsEmail,
  IsInt,
  IsString,
  Length,
  Min as IsMin,
  ValidateNested,
  registerDecorator,
  IsOptional,
} from 'class-validator';
import {
  BeanParam,
  BodyParam,
  CatchWith,
  Constraint,
  ConstraintException,
  Email,
  GET,
  Handles,
  Max,
  Min,
  NotBlank,
  Path,
  PathParam,
  Pattern,
  POST,
  QueryParam,
  RegistrationError,
  RequestReader,
  RestBuilder,
  Size,
  Valid,
  type ConstraintViolation,
  type ValueReader,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
  type Validator,
} from '../../src/index';
import { IsIn } from 'class-validator';
import { listen } from '../support/server';

class Address {
  @IsString() @Length(1, 40) city!: string;
  @Pattern(/\d{5}/) zip!: string;
  describe(): string {
    return `${this.zip} ${this.city}`;
  }
}

class NewUser {
  @IsEmail() email!: string;
  @NotBlank() @Size(2, 20) name!: string;
  @IsInt() @IsMin(0) age!: number;
  @ValidateNested() @Type(() => Address) address!: Address;
  greet(): string {
    return `hello ${this.name} from ${this.address.describe()}`;
  }
}

class LineItem {
  @IsString() sku!: string;
  @IsInt() @IsMin(1) qty!: number;
}

class Paging {
  @QueryParam('offset', { optional: true }) @Min(0) offset?: number;
  @QueryParam('limit', { optional: true }) @Max(50) limit?: number;
}

@Path('/users')
class UserResource {
  @POST
  @Path('/')
  create(@Valid user: NewUser): string {
    return user.greet();
  }

  @POST
  @Path('/plain')
  plain(user: NewUser): string {
    // Without @Valid or a configured validator, the body keeps the core's shallow instance.
    return `${user instanceof NewUser} ${user.address instanceof Address}`;
  }

  @POST
  @Path('/items')
  items(@Valid @BodyParam({ type: [LineItem] }) items: LineItem[]): number {
    return items.reduce((n, i) => n + i.qty, 0);
  }

  @GET
  @Path('/search/:code')
  search(
    @PathParam('code') @Pattern(/[A-Z]{3}/) code: string,
    @QueryParam('limit', { optional: true, type: Number }) @Min(1) @Max(100) limit: number | undefined,
    @QueryParam('sort', { optional: true }) @Constraint(IsIn(['asc', 'desc'])) sort: string | undefined,
    @QueryParam('q') @NotBlank() q: string,
  ): string {
    return `${code} ${limit ?? '-'} ${sort ?? '-'} ${q}`;
  }

  @GET
  @Path('/page')
  page(@Valid @BeanParam paging: Paging): string {
    return `${paging.offset ?? 0}/${paging.limit ?? 10}`;
  }

  @POST
  @Path('/contact')
  contact(@QueryParam('to') @Email() to: string): string {
    return to;
  }
}

interface ErrorBody {
  status: number;
  code: string;
  message: string;
  violations: ConstraintViolation[];
}

async function serve(builder: RestBuilder, t: { teardown(fn: () => void): void }) {
  const server = await listen(builder.build());
  t.teardown(() => server.close());
  return server;
}

const validUser = { email: 'ada@example.com', name: 'Ada', age: 36, address: { city: 'London', zip: '12345' } };

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

test('@Valid body: a valid one arrives as a real instance with nested instances', async (t) => {
  const server = await serve(new RestBuilder().register(UserResource), t);
  const res = await post(`${server.url}/users`, validUser);
  t.is(res.status, 200);
  t.is(await res.text(), 'hello Ada from 12345 London');
});

test('@Valid body: every violation is listed (nested paths included) with 400 and X-Status-Reason', async (t) => {
  const server = await serve(new RestBuilder().register(UserResource), t);
  const res = await post(`${server.url}/users`, {
    email: 'not-an-email',
    name: '  ',
    age: -1.5,
    address: { city: '', zip: '1234' },
  });
  t.is(res.status, 400);
  t.is(res.headers.get('x-status-reason'), 'Validation failed');
  t.is(res.headers.get('content-type'), 'application/json');
  const body = (await res.json()) as ErrorBody;
  t.is(body.code, 'RU_ERR_VALIDATION');
  t.is(body.message, 'Validation failed');
  const seen = body.violations.map((v) => `${v.in}:${v.path}:${v.constraint}`).sort();
  t.deepEqual(seen, [
    'body:address.city:isLength',
    'body:address.zip:pattern',
    'body:age:isInt',
    'body:age:min',
    'body:email:isEmail',
    'body:name:notBlank',
  ]);
  t.true(body.violations.every((v) => typeof v.message === 'string' && v.message.length > 0));
  t.is(body.violations.find((v) => v.constraint === 'notBlank')!.message, 'name must not be blank');
  // The rejected values are not echoed.
  t.false(JSON.stringify(body).includes('not-an-email'));
});

test('@Valid body: a missing nested object or wrong JSON types are violations, not crashes', async (t) => {
  const server = await serve(new RestBuilder().register(UserResource), t);
  const res = await post(`${server.url}/users`, { email: 'a@b.co', name: 'Al', age: '3', address: 'nowhere' });
  t.is(res.status, 400);
  const paths = ((await res.json()) as ErrorBody).violations.map((v) => `${v.path}:${v.constraint}`);
  t.true(paths.includes('age:isInt'));
  t.true(
    paths.some((p) => p.startsWith('address:')),
    paths.join(' '),
  );
  const malformed = await fetch(`${server.url}/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"email":',
  });
  t.is(malformed.status, 400);
});

test('@Valid on an array body validates each element, paths carry the index', async (t) => {
  const server = await serve(new RestBuilder().register(UserResource), t);
  const ok = await post(`${server.url}/users/items`, [
    { sku: 'a', qty: 2 },
    { sku: 'b', qty: 3 },
  ]);
  t.is(await ok.text(), '5');
  const bad = await post(`${server.url}/users/items`, [
    { sku: 'a', qty: 2 },
    { sku: 7, qty: 0 },
  ]);
  t.is(bad.status, 400);
  t.deepEqual(((await bad.json()) as ErrorBody).violations.map((v) => `${v.path}:${v.constraint}`).sort(), [
    '[1].qty:min',
    '[1].sku:isString',
  ]);
});

test('constraints on method arguments: path, query values and class-validator decorators through @Constraint', async (t) => {
  const server = await serve(new RestBuilder().register(UserResource), t);
  const ok = await fetch(`${server.url}/users/search/ABC?limit=10&sort=asc&q=x`);
  t.is(await ok.text(), 'ABC 10 asc x');
  // Absent optional values pass the constraints (only NotNull/NotEmpty/NotBlank require a value).
  t.is(await (await fetch(`${server.url}/users/search/ABC?q=x`)).text(), 'ABC - - x');
  const bad = await fetch(`${server.url}/users/search/ABCD?limit=101&sort=up&q=%20`);
  t.is(bad.status, 400);
  const body = (await bad.json()) as ErrorBody;
  t.deepEqual(
    body.violations.map((v) => `${v.in}:${v.path}:${v.constraint}`),
    ['path:code:pattern', 'query:limit:max', 'query:sort:isIn', 'query:q:notBlank'],
  );
  t.is(body.violations[1]!.message, 'limit must not be greater than 100');
  // A conversion failure stays the argument error it was (400 naming the value).
  t.is((await fetch(`${server.url}/users/search/ABC?limit=ten&q=x`)).status, 400);
});

test('@Valid on a @BeanParam validates the bean built from the request', async (t) => {
  const server = await serve(new RestBuilder().register(UserResource), t);
  t.is(await (await fetch(`${server.url}/users/page?offset=5&limit=20`)).text(), '5/20');
  const bad = await fetch(`${server.url}/users/page?offset=-1&limit=51`);
  t.is(bad.status, 400);
  t.deepEqual(
    ((await bad.json()) as ErrorBody).violations.map((v) => `${v.in}:${v.path}:${v.constraint}`),
    ['bean:offset:min', 'bean:limit:max'],
  );
});

test('validateWith(): class-typed bodies become real instances even without @Valid', async (t) => {
  const without = await serve(new RestBuilder().register(UserResource), t);
  t.is(await (await post(`${without.url}/users/plain`, validUser)).text(), 'true false');
  const withValidator = await serve(new RestBuilder().register(UserResource).validateWith(), t);
  t.is(await (await post(`${withValidator.url}/users/plain`, validUser)).text(), 'true true');
});

test('validateWith(options): class-validator options such as forbidNonWhitelisted apply', async (t) => {
  const server = await serve(
    new RestBuilder()
      .register(UserResource)
      .validateWith({ validator: { whitelist: true, forbidNonWhitelisted: true } }),
    t,
  );
  const res = await post(`${server.url}/users`, { ...validUser, isAdmin: true });
  t.is(res.status, 400);
  t.deepEqual(
    ((await res.json()) as ErrorBody).violations.map((v) => `${v.path}:${v.constraint}`),
    ['isAdmin:whitelistValidation'],
  );
});

test('a prototype-polluting body does not pollute and does not pass as a property', async (t) => {
  const server = await serve(new RestBuilder().register(UserResource), t);
  const res = await fetch(`${server.url}/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"email":"a@b.co","name":"Al","age":1,"address":{"city":"X","zip":"12345","__proto__":{"polluted":true}},"__proto__":{"polluted":true}}',
  });
  t.is(res.status, 200);
  t.is(({} as Record<string, unknown>).polluted, undefined);
});

test('a custom Validator can be plugged in; its violations reach the client', async (t) => {
  const calls: string[] = [];
  const validator: Validator = {
    toInstance: (type, plain) => plainToInstance(type as new () => object, plain),
    validate(value: object) {
      calls.push(value.constructor.name);
      return (value as NewUser).name === 'Bob' ? [{ path: 'name', constraint: 'notBob', message: 'no Bobs' }] : [];
    },
  };
  const server = await serve(new RestBuilder().register(UserResource).validateWith(validator), t);
  t.is((await post(`${server.url}/users`, validUser)).status, 200);
  const res = await post(`${server.url}/users`, { ...validUser, name: 'Bob' });
  t.deepEqual(((await res.json()) as ErrorBody).violations, [
    { in: 'body', path: 'name', constraint: 'notBob', message: 'no Bobs' },
  ]);
  t.deepEqual(calls, ['NewUser', 'NewUser']);
});

test('asynchronous constraints run with { async: true }', async (t) => {
  const taken = new Set(['taken@example.com']);
  function IsFreeEmail() {
    return (object: object, propertyName: string) =>
      registerDecorator({
        name: 'isFreeEmail',
        target: object.constructor,
        propertyName,
        async: true,
        validator: {
          validate: async (v: unknown) => {
            await new Promise((r) => setTimeout(r, 5));
            return !taken.has(String(v));
          },
          defaultMessage: () => '$property is taken',
        },
      });
  }
  class Signup {
    @IsEmail() @IsFreeEmail() email!: string;
    @IsOptional() @IsString() note?: string;
  }
  @Path('/signup')
  class SignupResource {
    @POST
    @Path('/')
    signup(@Valid s: Signup): string {
      return s.email;
    }
  }
  const server = await serve(new RestBuilder().register(SignupResource).validateWith({ async: true }), t);
  t.is(await (await post(`${server.url}/signup`, { email: 'new@example.com' })).text(), 'new@example.com');
  const res = await post(`${server.url}/signup`, { email: 'taken@example.com' });
  t.is(res.status, 400);
  t.deepEqual(
    ((await res.json()) as ErrorBody).violations.map((v) => v.message),
    ['email is taken'],
  );
});

test('a route or app handler for ConstraintException replaces the built-in one', async (t) => {
  @Handles(ConstraintException)
  class PlainViolations implements ExceptionHandler<ConstraintException> {
    write(error: ConstraintException, _req: HttpServerRequest, res: HttpServerResponse): void {
      res.setStatusCode(422).end(error.violations.map((v) => v.path).join(','));
    }
  }
  @Path('/custom')
  class CustomResource {
    @POST
    @Path('/')
    @CatchWith(PlainViolations)
    create(@Valid user: NewUser): string {
      return user.name;
    }
  }
  const server = await serve(new RestBuilder().register(CustomResource), t);
  const res = await post(`${server.url}/custom`, { ...validUser, email: 'x' });
  t.is(res.status, 422);
  t.is(await res.text(), 'email');
});

test('@Valid on a plain query value is refused at registration with a clear message', (t) => {
  @Path('/wrong')
  class WrongResource {
    @GET
    @Path('/')
    get(@QueryParam('x') @Valid x: string): string {
      return x;
    }
  }
  const error = t.throws(() => new RestBuilder().register(WrongResource).build(), { instanceOf: RegistrationError });
  t.regex(error!.message, /@Valid goes on a body or @BeanParam argument/);
});

test('constraint messages can be replaced; $property, $value and $constraint1 are filled in', async (t) => {
  @Path('/msg')
  class MessageResource {
    @GET
    @Path('/')
    get(
      @QueryParam('n') @Min(10, { message: '$property must be at least $constraint1, got $value' }) n: number,
      @QueryParam('code') @Size(2, 3) code: string,
    ): string {
      return `${n} ${code}`;
    }
  }
  const server = await serve(new RestBuilder().register(MessageResource), t);
  t.is(await (await fetch(`${server.url}/msg?n=12&code=ab`)).text(), '12 ab');
  const res = await fetch(`${server.url}/msg?n=3&code=abcd`);
  t.deepEqual(((await res.json()) as ErrorBody).violations, [
    { in: 'query', path: 'n', constraint: 'min', message: 'n must be at least 10, got 3' },
    { in: 'query', path: 'code', constraint: 'size', message: 'code must have between 2 and 3 elements or characters' },
  ]);
});

test("a constraint's context (an error code of the API) comes with its violation: body fields, arguments, @Constraint", async (t) => {
  class Order {
    @IsIn(['json', 'msgpack'], { context: { code: 'invalid_format' } }) format!: string;
    @Max(5, { context: { code: 'too_many' } }) count!: number;
    @IsString() note!: string;
  }
  @Path('/orders')
  class OrderResource {
    @POST
    @Path('/')
    create(
      @Valid order: Order,
      @QueryParam('n', { type: Number }) @Min(1, { context: { code: 'too_small' } }) n: number,
      @QueryParam('sort', { optional: true }) @Constraint(IsIn(['asc'], { context: { code: 'bad_sort' } })) sort:
        | string
        | undefined,
    ): string {
      return `${order.format} ${n} ${sort ?? '-'}`;
    }
  }
  const server = await serve(new RestBuilder().register(OrderResource), t);
  t.is(await (await post(`${server.url}/orders?n=2`, { format: 'json', count: 5, note: '' })).text(), 'json 2 -');
  const res = await post(`${server.url}/orders?n=0&sort=desc`, { format: 'xml', count: 6, note: 1 });
  t.is(res.status, 400);
  t.deepEqual(((await res.json()) as ErrorBody).violations, [
    {
      in: 'body',
      path: 'format',
      constraint: 'isIn',
      message: 'format must be one of the following values: json, msgpack',
      context: { code: 'invalid_format' },
    },
    {
      in: 'body',
      path: 'count',
      constraint: 'max',
      message: 'count must not be greater than 5',
      context: { code: 'too_many' },
    },
    { in: 'body', path: 'note', constraint: 'isString', message: 'note must be a string' },
    { in: 'query', path: 'n', constraint: 'min', message: 'n must not be less than 1', context: { code: 'too_small' } },
    {
      in: 'query',
      path: 'sort',
      constraint: 'isIn',
      message: 'sort must be one of the following values: asc',
      context: { code: 'bad_sort' },
    },
  ]);
});

test('@Valid on a method validates all its body and bean arguments', async (t) => {
  @Path('/whole')
  class WholeMethodResource {
    @POST
    @Path('/')
    @Valid
    create(user: NewUser, @QueryParam('tag') tag: string): string {
      return `${user.name} ${tag}`;
    }
  }
  const server = await serve(new RestBuilder().register(WholeMethodResource), t);
  t.is(await (await post(`${server.url}/whole?tag=x`, validUser)).text(), 'Ada x');
  const res = await post(`${server.url}/whole?tag=x`, { ...validUser, email: 'no' });
  t.deepEqual(
    ((await res.json()) as ErrorBody).violations.map((v) => `${v.in}:${v.path}:${v.constraint}`),
    ['body:email:isEmail'],
  );
});

/** Builds NewUser bodies its own way and remembers each one it made. */
const madeByUserReader = new WeakSet<object>();
@Handles(NewUser)
class UserReader implements ValueReader<NewUser> {
  read(value: string): NewUser {
    const user = plainToInstance(NewUser, JSON.parse(value) as object);
    madeByUserReader.add(user);
    return user;
  }
}

test("a body read by the route's own reader is validated as that reader made it, not rebuilt from the JSON", async (t) => {
  @Path('/own')
  class OwnReaderResource {
    @POST
    @Path('/')
    @RequestReader(UserReader)
    create(@Valid user: NewUser): string {
      return `${madeByUserReader.has(user)} ${user.greet()}`;
    }
  }
  for (const builder of [new RestBuilder(), new RestBuilder().validateWith()]) {
    const server = await serve(builder.register(OwnReaderResource), t);
    t.is(await (await post(`${server.url}/own`, validUser)).text(), 'true hello Ada from 12345 London');
    const res = await post(`${server.url}/own`, { ...validUser, age: -1 });
    t.is(res.status, 400);
    t.deepEqual(
      ((await res.json()) as ErrorBody).violations.map((v) => `${v.path}:${v.constraint}`),
      ['age:min'],
    );
  }
});

test('a @Valid JSON body keeps its own keys and drops prototype keys at every depth; its methods work', async (t) => {
  @Path('/keys')
  class KeysResource {
    @POST
    @Path('/')
    create(@Valid user: NewUser): unknown {
      return {
        keys: Object.keys(user),
        addressKeys: Object.keys(user.address),
        ownConstructor: Object.hasOwn(user, 'constructor'),
        greeting: user.greet(),
      };
    }
  }
  const server = await serve(new RestBuilder().register(KeysResource), t);
  const res = await fetch(`${server.url}/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"email":"a@b.co","constructor":{"name":"x"},"name":"Al","prototype":{"greet":1},"age":1,"address":{"city":"X","constructor":1,"zip":"12345"},"__proto__":{"greet":1}}',
  });
  t.is(res.status, 200);
  t.deepEqual(await res.json(), {
    keys: ['email', 'name', 'age', 'address'],
    addressKeys: ['city', 'zip'],
    ownConstructor: false,
    greeting: 'hello Al from 12345 X',
  });
});

test('a class-typed body without @Valid beside a @Valid one still gets its class prototype', async (t) => {
  @Path('/two')
  class TwoBodiesResource {
    @POST
    @Path('/')
    create(@Valid @BodyParam() user: NewUser, @BodyParam() same: LineItem): string {
      return `${user instanceof NewUser} ${user.address instanceof Address} ${same instanceof LineItem} ${(same as unknown as NewUser).address instanceof Address}`;
    }
  }
  const server = await serve(new RestBuilder().register(TwoBodiesResource), t);
  t.is(await (await post(`${server.url}/two`, validUser)).text(), 'true true true false');
});
