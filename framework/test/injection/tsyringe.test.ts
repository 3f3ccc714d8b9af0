import test from 'ava';
import 'reflect-metadata';
import { container as rootContainer, inject, injectable } from 'tsyringe';
import {
  Authenticate,
  Authorize,
  Context,
  Event,
  GET,
  Handles,
  Inject,
  Path,
  PathParam,
  Produces,
  QueryParam,
  RegistrationError,
  RequestReader,
  ResponseWriter,
  RestBuilder,
  RoutingContext,
  TsyringeInjectionProvider,
  User,
  type AuthorizationProvider,
  type ExceptionHandler,
  type HttpResponseWriter,
  type HttpServerRequest,
  type HttpServerResponse,
  type RestAuthenticationProvider,
  type RestEvent,
  type ValueReader,
} from '../../src/index';
import { listen } from '../support/server';

const GREETING = Symbol('greeting');

/** A service the container provides (no rest.uws decorator at all: tsyringe's own). */
@injectable()
class Clock {
  now(): string {
    return '2026-01-01T00:00:00Z';
  }
}

class Audit {
  readonly lines: string[] = [];
}

@Inject
class Directory {
  constructor(private readonly clock: Clock) {}
  find(name: string): User | null {
    return name === 'ada' ? new User('ada', ['admin'], { since: this.clock.now() }) : null;
  }
}

@Inject
class DirectoryAuthentication implements RestAuthenticationProvider<string> {
  constructor(private readonly directory: Directory) {}
  provideCredentials(ctx: RoutingContext): string | null {
    return ctx.request.getHeader('x-user') ?? null;
  }
  authenticate(name: string): User | null {
    return this.directory.find(name);
  }
}

class NotFoundError extends Error {}

@Handles(NotFoundError)
class NotFoundHandler implements ExceptionHandler<NotFoundError> {
  constructor(@inject(GREETING) private readonly greeting: string) {}
  write(error: NotFoundError, _req: HttpServerRequest, res: HttpServerResponse): void {
    res.setStatusCode(404).end(`${this.greeting}: ${error.message}`);
  }
}

@Produces('text/plain')
class StampWriter implements HttpResponseWriter<string> {
  constructor(private readonly clock: Clock) {}
  write(data: string, _req: HttpServerRequest, res: HttpServerResponse): void {
    res.end(`${data} @ ${this.clock.now()}`);
  }
}

@Inject
class AuditEvent implements RestEvent<string> {
  constructor(private readonly audit: Audit) {}
  execute(entity: string): void {
    this.audit.lines.push(entity);
  }
}

/** A reader whose conversion depends on an injected token. */
@Handles(String)
class PrefixReader implements ValueReader<string> {
  constructor(@inject(GREETING) private readonly greeting: string) {}
  read(value: string): string {
    return `${this.greeting}-${value}`;
  }
}

/** An authorization provider with an injected dependency. */
@Inject
class AdminsByDirectory implements AuthorizationProvider {
  constructor(private readonly clock: Clock) {}
  getId(): string {
    return `admins@${this.clock.now()}`;
  }
  getAuthorizations(user: User): boolean {
    return user.hasRole('admin');
  }
}

@Path('/items')
class ItemResource {
  readonly instance = Math.random();
  constructor(
    private readonly clock: Clock,
    @inject(GREETING) private readonly greeting: string,
  ) {}

  @GET
  @Path('/hello')
  hello(): string {
    return `${this.greeting} at ${this.clock.now()}`;
  }

  @GET
  @Path('/instance')
  id(): string {
    return String(this.instance);
  }

  @GET
  @Path('/stamped')
  @ResponseWriter(StampWriter)
  stamped(): string {
    return 'stamped';
  }

  @GET
  @Path('/missing/:id')
  missing(@PathParam('id') id: string): string {
    throw new NotFoundError(`no item ${id}`);
  }

  @GET
  @Path('/read')
  read(@QueryParam('v') @RequestReader(PrefixReader) v: string): string {
    return v;
  }

  @GET
  @Path('/admin')
  @Authenticate(DirectoryAuthentication)
  @Authorize(AdminsByDirectory)
  admin(@Context() user: User): string {
    return `admin ${user.name}`;
  }

  @GET
  @Path('/me')
  @Authenticate(DirectoryAuthentication)
  @Event(AuditEvent)
  me(@Context() user: User): string {
    return `${user.name} since ${String(user.attributes.since)}`;
  }
}

function app(audit: Audit) {
  const container = rootContainer.createChildContainer();
  container.register(GREETING, { useValue: 'hello' });
  container.registerInstance(Audit, audit);
  return new RestBuilder()
    .injectWith(new TsyringeInjectionProvider(container))
    .register(ItemResource)
    .errorHandler(NotFoundHandler)
    .build();
}

test('REST classes get their constructor dependencies, class types and tokens alike', async (t) => {
  const server = await listen(app(new Audit()));
  t.teardown(() => server.close());
  t.is(await (await fetch(`${server.url}/items/hello`)).text(), 'hello at 2026-01-01T00:00:00Z');
});

test('a REST class is one instance for every request', async (t) => {
  const server = await listen(app(new Audit()));
  t.teardown(() => server.close());
  const a = await (await fetch(`${server.url}/items/instance`)).text();
  const b = await (await fetch(`${server.url}/items/instance`)).text();
  t.is(a, b);
});

test('readers, writers, exception handlers, authentication and authorization providers and events are resolved through the container', async (t) => {
  const audit = new Audit();
  const server = await listen(app(audit));
  t.teardown(() => server.close());
  t.is(await (await fetch(`${server.url}/items/stamped`)).text(), 'stamped @ 2026-01-01T00:00:00Z');
  const missing = await fetch(`${server.url}/items/missing/7`);
  t.is(missing.status, 404);
  t.is(await missing.text(), 'hello: no item 7');
  t.is((await fetch(`${server.url}/items/me`, { headers: { 'x-user': 'bob' } })).status, 401);
  t.is(
    await (await fetch(`${server.url}/items/me`, { headers: { 'x-user': 'ada' } })).text(),
    'ada since 2026-01-01T00:00:00Z',
  );
  t.is(await (await fetch(`${server.url}/items/read?v=x`)).text(), 'hello-x');
  t.is(await (await fetch(`${server.url}/items/admin`, { headers: { 'x-user': 'ada' } })).text(), 'admin ada');
  for (let i = 0; i < 50 && audit.lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  t.deepEqual(audit.lines, ['ada since 2026-01-01T00:00:00Z']);
});

test('a class whose constructor types TypeScript did not record fails registration with what to do', (t) => {
  class Service {}
  class Undecorated {
    constructor(readonly service: Service) {}
  }
  const provider = new TsyringeInjectionProvider(rootContainer.createChildContainer());
  const error = t.throws(() => provider.getInstance(Undecorated), { instanceOf: RegistrationError });
  t.regex(error!.message, /Undecorated takes constructor parameters.*@Inject/);
});
