import test from 'ava';
import {
  Authenticate,
  Context,
  GET,
  HttpServerRequest,
  NoCache,
  Path,
  Produces,
  QueryParam,
  RegistrationError,
  RequestReader,
  ResponseWriter,
  RestBuilder,
  RestRouter,
  RoutingContext,
  User,
  type HttpResponseWriter,
  type HttpServerResponse,
  type RestAuthenticationProvider,
} from '../../src/index';
import { listen } from '../support/server';

const created = { writer: 0, cachedAuth: 0, noCacheAuth: 0, contextAuth: 0, resource: 0 };

@Produces('text/plain')
class CountingWriter implements HttpResponseWriter<string> {
  readonly serial = ++created.writer;
  write(data: string, _req: HttpServerRequest, res: HttpServerResponse): void {
    res.end(`${data} (writer #${this.serial})`);
  }
}

/** Cached: one instance serves every request. */
class CachedAuthentication implements RestAuthenticationProvider<string> {
  readonly serial = ++created.cachedAuth;
  provideCredentials(ctx: RoutingContext): string | null {
    return ctx.request.getHeader('x-user') ?? null;
  }
  authenticate(name: string): User {
    return new User(name, [], { provider: this.serial });
  }
}

/** @NoCache: a new instance for every request. */
@NoCache
class FreshAuthentication extends CachedAuthentication {
  readonly fresh = ++created.noCacheAuth;
  override authenticate(name: string): User {
    return new User(name, [], { provider: this.fresh });
  }
}

/** @Context fields: one instance per request, its fields filled from that request. */
class RequestAwareAuthentication implements RestAuthenticationProvider<string> {
  @Context() request!: HttpServerRequest;
  @Context() ctx!: RoutingContext;
  readonly serial = ++created.contextAuth;
  provideCredentials(): string | null {
    // Reads the request from its field, not from an argument.
    return this.request.getHeader('x-user') ?? null;
  }
  authenticate(name: string): User {
    return new User(name, [], { provider: this.serial, path: this.ctx.request.path() });
  }
}

@Path('/c')
class CachingResource {
  readonly serial = ++created.resource;

  @GET
  @Path('/written')
  @ResponseWriter(CountingWriter)
  written(): string {
    return `resource #${this.serial}`;
  }

  @GET
  @Path('/cached')
  @Authenticate(CachedAuthentication)
  cached(@Context() user: User): string {
    return String(user.attributes.provider);
  }

  @GET
  @Path('/fresh')
  @Authenticate(FreshAuthentication)
  fresh(@Context() user: User): string {
    return String(user.attributes.provider);
  }

  @GET
  @Path('/aware/:x')
  @Authenticate(RequestAwareAuthentication)
  aware(@Context() user: User): string {
    return `${String(user.attributes.provider)} ${String(user.attributes.path)}`;
  }
}

test.serial(
  'providers are cached singletons; @NoCache and @Context-field providers are made per request',
  async (t) => {
    const server = await listen(new RestBuilder().register(CachingResource).build());
    t.teardown(() => server.close());
    const get = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { 'x-user': 'u' } })).text();
    const cached = [await get('/c/cached'), await get('/c/cached'), await get('/c/cached')];
    t.is(new Set(cached).size, 1);
    const fresh = [await get('/c/fresh'), await get('/c/fresh'), await get('/c/fresh')];
    t.is(new Set(fresh).size, 3);
    const a = await get('/c/aware/1');
    const b = await get('/c/aware/2');
    t.regex(a, /^\d+ \/c\/aware\/1$/);
    t.regex(b, /^\d+ \/c\/aware\/2$/);
    t.not(a.split(' ')[0], b.split(' ')[0]);
  },
);

test.serial(
  'RestRouter.clearCache() empties the caches: the next request gets new instances; the REST class stays',
  async (t) => {
    const server = await listen(new RestBuilder().register(CachingResource).build());
    t.teardown(() => server.close());
    const first = await (await fetch(`${server.url}/c/written`)).text();
    const again = await (await fetch(`${server.url}/c/written`)).text();
    t.is(first, again);
    RestRouter.clearCache();
    const after = await (await fetch(`${server.url}/c/written`)).text();
    t.not(after, first);
    t.is(after.split(' (')[0], first.split(' (')[0], 'the REST class instance is the same');
  },
);

test('a REST class with @Context fields fails registration, saying what to do instead', (t) => {
  @Path('/bad')
  class FieldResource {
    @Context() request!: HttpServerRequest;
    @GET
    @Path('/')
    get(): string {
      return this.request.path();
    }
  }
  const error = t.throws(() => new RestBuilder().register(FieldResource).build(), { instanceOf: RegistrationError });
  t.regex(error!.message, /FieldResource\.request: REST classes are singletons and cannot have @Context fields/);
});

test('@NoCache only goes on classes', (t) => {
  t.throws(() => (NoCache as unknown as (x: unknown) => void)('x'), { message: /takes no arguments|goes on a class/ });
});

/** Each request's writer knows its own request through a field. */
@Produces('text/plain')
class RequestEchoWriter implements HttpResponseWriter<string> {
  @Context() request!: HttpServerRequest;
  write(data: string, _req: HttpServerRequest, res: HttpServerResponse): void {
    res.end(`${data} for ${this.request.getHeader('x-caller') ?? '?'}`);
  }
}

/** @NoCache reader: counts its own uses (always 1). */
@NoCache
class OnceReader {
  private uses = 0;
  read(value: string): string {
    this.uses++;
    return `${value}#${this.uses}`;
  }
}

class Teapot extends Error {}

/** An exception handler reading the routing context from a field. */
class ContextualHandler {
  @Context() ctx!: RoutingContext;
  write(error: Error, _req: HttpServerRequest, res: HttpServerResponse): void {
    res.setStatusCode(418).end(`${error.message} at ${this.ctx.request.path()}`);
  }
}

class Tenant {
  constructor(readonly name: string) {}
}

/** A context provider with a field: made per request. */
class TenantProvider {
  @Context() ctx!: RoutingContext;
  provide(): Tenant {
    return new Tenant(`${this.ctx.request.getHeader('x-tenant')}@${this.ctx.request.path()}`);
  }
}

/** A not-found writer with a field. */
class PathNotFound {
  @Context() request!: HttpServerRequest;
  write(_req: HttpServerRequest, res: HttpServerResponse): void {
    res.end(`nothing at ${this.request.path()}`);
  }
}

@Path('/p')
class PerRequestResource {
  @GET
  @Path('/echo')
  @ResponseWriter(RequestEchoWriter)
  echo(): string {
    return 'echo';
  }

  @GET
  @Path('/read')
  read(@QueryParam('v') @RequestReader(OnceReader) v: string): string {
    return v;
  }

  @GET
  @Path('/fail')
  fail(): string {
    throw new Teapot('short and stout');
  }

  @GET
  @Path('/tenant')
  tenant(@Context() tenant: Tenant): string {
    return tenant.name;
  }
}

test('writers, readers, exception handlers, context providers and not-found writers with @Context fields or @NoCache are made per request', async (t) => {
  const server = await listen(
    new RestBuilder()
      .register(PerRequestResource)
      .errorHandlerFor(Teapot, ContextualHandler)
      .addProvider(Tenant, TenantProvider)
      .notFound(PathNotFound)
      .build(),
  );
  t.teardown(() => server.close());
  const [a, b] = await Promise.all([
    fetch(`${server.url}/p/echo`, { headers: { 'x-caller': 'alice' } }).then((r) => r.text()),
    fetch(`${server.url}/p/echo`, { headers: { 'x-caller': 'bob' } }).then((r) => r.text()),
  ]);
  t.is(a, 'echo for alice');
  t.is(b, 'echo for bob');
  t.is(await (await fetch(`${server.url}/p/read?v=x`)).text(), 'x#1');
  t.is(await (await fetch(`${server.url}/p/read?v=y`)).text(), 'y#1');
  const failed = await fetch(`${server.url}/p/fail`);
  t.is(failed.status, 418);
  t.is(await failed.text(), 'short and stout at /p/fail');
  t.is(await (await fetch(`${server.url}/p/tenant`, { headers: { 'x-tenant': 'acme' } })).text(), 'acme@/p/tenant');
  const missing = await fetch(`${server.url}/nope`);
  t.is(missing.status, 404);
  t.is(await missing.text(), 'nothing at /nope');
});
