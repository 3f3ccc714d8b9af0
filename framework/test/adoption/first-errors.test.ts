/**
 * The errors adopters meet first, in-process (packaging.test.ts sees the same ones from a packed
 * install): each must say what to do.
 */
import test from 'ava';
import {
  Context,
  GET,
  Handles,
  Event,
  NoCache,
  POST,
  Path,
  PathParam,
  RegistrationError,
  RequestReader,
  RestBuilder,
  type RestAuthenticationProvider,
  type RestEvent,
  type RoutingContext,
  User,
  inject,
  type ValueReader,
} from '../../src/index';

test('without decorator metadata, an argument with no explicit type is refused, naming it and the option', (t) => {
  // What tsc emits without emitDecoratorMetadata (and esbuild, tsx, Bun always): the decorators, no design:paramtypes.
  class Plain {
    get(id: number): number {
      return id;
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(Plain.prototype, 'get')!;
  (GET as unknown as MethodDecorator)(Plain.prototype, 'get', descriptor);
  Path('/plain/{id}')(Plain.prototype, 'get', descriptor);
  PathParam('id')(Plain.prototype, 'get', 0);

  const error = t.throws(() => new RestBuilder().register(Plain).build(), { instanceOf: RegistrationError });
  t.is((error as RegistrationError).code, 'RU_ERR_NO_DECORATOR_METADATA');
  t.regex(
    error!.message,
    /^Plain\.get\(\) parameter 0 \(@PathParam\("id"\)\): its type is unknown, as this build emitted no decorator metadata/,
  );
  t.regex(error!.message, /name the type in the decorator: @PathParam\("id", \{ type: Number \}\)/);
  t.regex(error!.message, /"experimentalDecorators": true and "emitDecoratorMetadata": true/);
  t.regex(error!.message, /esbuild, tsx and Bun never emit it/);
});

test('without decorator metadata, an explicit type is enough: the argument is converted', async (t) => {
  class Plain {
    get(id: number): { id: number; double: number } {
      return { id, double: id * 2 };
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(Plain.prototype, 'get')!;
  (GET as unknown as MethodDecorator)(Plain.prototype, 'get', descriptor);
  Path('/plain/{id}')(Plain.prototype, 'get', descriptor);
  PathParam('id', { type: Number })(Plain.prototype, 'get', 0);

  const response = await inject(new RestBuilder().register(Plain), '/plain/21');
  t.is(response.statusCode, 200);
  t.deepEqual(response.json(), { id: 21, double: 42 });
  t.is((await inject(new RestBuilder().register(Plain), '/plain/x')).statusCode, 400);
});

test('the same class with the metadata tsc would emit registers and converts the argument', async (t) => {
  class Plain {
    get(id: number): { id: number } {
      return { id };
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(Plain.prototype, 'get')!;
  (GET as unknown as MethodDecorator)(Plain.prototype, 'get', descriptor);
  Path('/plain/{id}')(Plain.prototype, 'get', descriptor);
  Reflect.defineMetadata('design:paramtypes', [Number], Plain.prototype, 'get');
  PathParam('id')(Plain.prototype, 'get', 0);

  const response = await inject(new RestBuilder().register(Plain), '/plain/7');
  t.is(response.statusCode, 200);
  t.deepEqual(response.json(), { id: 7 });
});

test('decorators called the standard ECMAScript way (experimentalDecorators off) say which flags to set', (t) => {
  // What a standard decorator receives: the method and a context object.
  const context = { kind: 'method', name: 'list', static: false, private: false, addInitializer: () => undefined };
  const bare = t.throws(() => (GET as unknown as (value: unknown, ctx: unknown) => void)(function list() {}, context), {
    instanceOf: TypeError,
  });
  t.is((bare as TypeError & { code?: string }).code, 'RU_ERR_STANDARD_DECORATORS');
  t.regex(bare!.message, /compiled as standard ECMAScript decorators/);
  t.regex(bare!.message, /Set "experimentalDecorators": true and "emitDecoratorMetadata": true/);

  const withArgument = t.throws(
    () => (Path('/x') as unknown as (value: unknown, ctx: unknown) => void)(function list() {}, context),
    { instanceOf: TypeError },
  );
  t.is((withArgument as TypeError & { code?: string }).code, 'RU_ERR_STANDARD_DECORATORS');
});

test('two routes matching the same paths with different names: RU_ERR_ROUTE_CONFLICT says to use one name', (t) => {
  @Path('/orders')
  class Orders {
    @GET @Path('/{id}') get(@PathParam('id') id: string) {
      return id;
    }
  }
  @Path('/orders')
  class LegacyOrders {
    @GET @Path('/{orderId}') get(@PathParam('orderId') orderId: string) {
      return orderId;
    }
  }
  const error = t.throws(() => new RestBuilder().register(Orders, LegacyOrders).build(), {
    instanceOf: RegistrationError,
  });
  t.is((error as RegistrationError).code, 'RU_ERR_ROUTE_CONFLICT');
  t.regex(error!.message, /\(LegacyOrders\.get\)/);
  t.regex(error!.message, /\(Orders\.get\)/);
  t.regex(error!.message, /use one name$/);
});

class Order {
  id = '';
}

@Handles(Date)
class DateReader implements ValueReader<Date> {
  read(value: string): Date {
    return new Date(value);
  }
}

test('@RequestReader alone on a parameter reads the body, and its type is checked: RU_ERR_READER_TYPE says what to fix', async (t) => {
  @Path('/orders')
  class Orders {
    @POST @Path('/') create(@RequestReader(DateReader) order: Order) {
      return order.id;
    }
  }
  const error = t.throws(() => new RestBuilder().register(Orders).build(), { instanceOf: RegistrationError });
  t.is((error as RegistrationError).code, 'RU_ERR_READER_TYPE');
  t.regex(
    error!.message,
    /Orders\.create\(\) parameter 0: reader DateReader produces Date, which cannot be assigned to the parameter type Order \(fix the reader, or add @SuppressCheck/,
  );

  @Path('/dates')
  class Dates {
    @POST @Path('/') create(@RequestReader(DateReader) when: Date) {
      return { year: when.getUTCFullYear() };
    }
  }
  const response = await inject(new RestBuilder().register(Dates), {
    method: 'POST',
    url: '/dates',
    headers: { 'content-type': 'text/plain' },
    body: '2024-02-29T12:00:00Z',
  });
  t.is(response.statusCode, 200, response.body);
  t.deepEqual(response.json(), { year: 2024 });
});

class NoteStore {
  readonly notes = ['first'];
}

test('a class whose constructor takes arguments, registered without an injector: RU_ERR_CONSTRUCTOR_ARGUMENTS, not a 500 later', async (t) => {
  @Path('/notes')
  class Notes {
    constructor(private readonly store: NoteStore) {}
    @GET @Path('/') list() {
      return this.store.notes;
    }
  }
  const error = t.throws(() => new RestBuilder().register(Notes).build(), { instanceOf: RegistrationError });
  t.is((error as RegistrationError).code, 'RU_ERR_CONSTRUCTOR_ARGUMENTS');
  t.regex(error!.message, /^Notes: its constructor takes an argument, and no injector is configured/);
  t.regex(error!.message, /Register an instance \(`register\(new Notes\(\.\.\.\)\)`/);
  t.regex(error!.message, /RestBuilder\.injectWith/);

  // A subclass without a constructor of its own is made with its parent's.
  class MoreNotes extends Notes {}
  const inherited = t.throws(() => new RestBuilder().register(MoreNotes).build(), { instanceOf: RegistrationError });
  t.is((inherited as RegistrationError).code, 'RU_ERR_CONSTRUCTOR_ARGUMENTS');

  // A provider made per request is refused at registration too.
  class Tenant {
    constructor(readonly id: string) {}
  }
  class TenantProvider {
    constructor(private readonly fallback: string) {}
    provide() {
      return new Tenant(this.fallback);
    }
  }
  NoCache(TenantProvider);
  @Path('/tenant')
  class Tenants {
    @GET @Path('/') get(@Context() tenant: Tenant) {
      return tenant.id;
    }
  }
  const provider = t.throws(() => new RestBuilder().register(Tenants).addProvider(Tenant, TenantProvider).build(), {
    instanceOf: RegistrationError,
  });
  t.is((provider as RegistrationError).code, 'RU_ERR_CONSTRUCTOR_ARGUMENTS');
  t.regex(provider!.message, /^TenantProvider: its constructor takes an argument/);

  // The instance, as the message says: it answers.
  const response = await inject(new RestBuilder().register(new Notes(new NoteStore())), '/notes');
  t.is(response.statusCode, 200);
  t.deepEqual(response.json(), ['first']);
  // A constructor whose parameters have defaults is made with them.
  class Defaults {
    constructor(private readonly store = new NoteStore()) {}
    @GET @Path('/') list() {
      return this.store.notes;
    }
  }
  Path('/defaults')(Defaults);
  t.deepEqual((await inject(new RestBuilder().register(Defaults), '/defaults')).json(), ['first']);
});

test('per-request authentication providers and events whose constructor takes arguments are refused at registration', async (t) => {
  // Made for each request (@NoCache): without the check they failed on the first request that reached them.
  @NoCache
  class TokenAuthentication implements RestAuthenticationProvider<string> {
    constructor(private readonly secret: string) {}
    provideCredentials(ctx: RoutingContext): string | null {
      return ctx.request.getHeader('authorization') ?? null;
    }
    authenticate(token: string): User | null {
      return token === this.secret ? new User('ada', []) : null;
    }
  }
  @Path('/private')
  class Private {
    @GET @Path('/') get() {
      return 'secret';
    }
  }
  const provider = t.throws(() => new RestBuilder().register(Private).authenticateWith(TokenAuthentication).build(), {
    instanceOf: RegistrationError,
  });
  t.is((provider as RegistrationError).code, 'RU_ERR_CONSTRUCTOR_ARGUMENTS');
  t.regex(provider!.message, /^TokenAuthentication: its constructor takes an argument/);

  @NoCache
  class Announce implements RestEvent {
    constructor(private readonly channel: { send(text: string): void }) {}
    execute(): void {
      this.channel.send('created');
    }
  }
  @Path('/items')
  class Items {
    @POST @Path('/') @Event(Announce) create() {
      return 'created';
    }
  }
  const event = t.throws(() => new RestBuilder().register(Items).build(), { instanceOf: RegistrationError });
  t.is((event as RegistrationError).code, 'RU_ERR_CONSTRUCTOR_ARGUMENTS');
  t.regex(event!.message, /^Announce: its constructor takes an argument/);

  // Registered as instances, as the message says: both work.
  const app = new RestBuilder().register(Private).authenticateWith(new TokenAuthentication('s3'));
  t.is((await inject(app, { url: '/private', headers: { authorization: 's3' } })).statusCode, 200);
  t.is((await inject(app, { url: '/private', headers: { authorization: 'wrong' } })).statusCode, 401);
});
