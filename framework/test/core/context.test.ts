import test from 'ava';
import {
  BodyParam,
  Context,
  ContextProvider,
  ContextReader,
  DefaultValue,
  GET,
  Handles,
  POST,
  HttpServerRequest,
  HttpServerResponse,
  NotFoundResponseWriter,
  Path,
  RestBuilder,
  RestRouter,
  RouteDefinition,
  RoutingContext,
  UwsApp,
  User,
  inject,
} from '../../src/index';
import { listen } from '../support/server';

class Tenant {
  constructor(readonly id: string) {}
}
class TenantProvider implements ContextProvider<Tenant> {
  provide(request: HttpServerRequest) {
    const id = request.getHeader('x-tenant');
    return id ? new Tenant(id) : null;
  }
}
class SlowTenantProvider implements ContextProvider<Tenant> {
  async provide() {
    await new Promise((r) => setTimeout(r, 5));
    return new Tenant('from-reader');
  }
}
class RequestId {
  constructor(readonly value: string) {}
}
class RequestIdProvider implements ContextProvider<RequestId> {
  provide(request: HttpServerRequest) {
    return new RequestId(request.getHeader('x-request-id') ?? 'generated');
  }
}

@Path('/ctx')
class Ctx {
  @GET @Path('/builtins/{id}') builtins(
    @Context() req: HttpServerRequest,
    @Context() res: HttpServerResponse,
    @Context() ctx: RoutingContext,
    @Context() route: RouteDefinition,
    @Context() app: UwsApp,
  ) {
    res.putHeader('x-seen', 'yes');
    ctx.put('k', 'v');
    return {
      method: req.method(),
      path: req.path(),
      uri: req.uri(),
      param: req.getParam('id'),
      query: req.getParam('q'),
      header: req.getHeader('X-Custom'),
      data: ctx.get('k'),
      route: `${route.method} ${route.path} ${route.label}`,
      app: typeof app.listen,
      remote: req.remoteAddress(),
    };
  }
  @GET @Path('/tenant') tenant(@Context() tenant: Tenant) {
    return { tenant: tenant.id };
  }
  @GET @Path('/tenant-reader') @ContextReader(SlowTenantProvider) tenantReader(@Context() tenant: Tenant) {
    return { tenant: tenant.id };
  }
  @GET @Path('/request-id') requestId(@Context() id: RequestId) {
    return { id: id.value };
  }
  @GET @Path('/user') user(@Context() user: User) {
    return { user: user.name };
  }
  @GET @Path('/default-tenant') defaultTenant(@Context() @DefaultValue('anonymous') tenant: Tenant) {
    return { tenant: String((tenant as any).id ?? tenant) };
  }
}

test('built-in @Context types: request, response, routing context, route definition, the app', async (t) => {
  const r = await inject(new RestBuilder().register(Ctx), {
    url: '/ctx/builtins/42?q=x',
    headers: { 'x-custom': 'c' },
    remoteAddress: '10.1.2.3',
  });
  t.is(r.headers['x-seen'], 'yes');
  t.deepEqual(r.json(), {
    method: 'GET',
    path: '/ctx/builtins/42',
    uri: '/ctx/builtins/42?q=x',
    param: '42',
    query: 'x',
    header: 'c',
    data: 'v',
    route: 'GET /ctx/builtins/{id} Ctx.builtins',
    app: 'function',
    remote: '10.1.2.3',
  });
});

test('custom types: a provider per app, a @ContextReader overriding it, 400 when nothing provides', async (t) => {
  const b = () => new RestBuilder().register(Ctx).addProvider(Tenant, TenantProvider);
  t.deepEqual((await inject(b(), { url: '/ctx/tenant', headers: { 'x-tenant': 'acme' } })).json(), { tenant: 'acme' });
  const missing = await inject(b(), '/ctx/tenant');
  t.is(missing.statusCode, 400);
  t.is(missing.json().message, "Can't provide @Context of type: Tenant");
  t.deepEqual((await inject(b(), '/ctx/tenant-reader')).json(), { tenant: 'from-reader' });
  t.deepEqual((await inject(b(), '/ctx/default-tenant')).json(), { tenant: 'anonymous' });
  const noUser = await inject(b(), '/ctx/user');
  t.is(noUser.statusCode, 400);
});

class Region {
  constructor(readonly name: string) {}
}
/** Declares nothing: the type of what it gives decides which arguments it serves. */
class HeaderTenantReader implements ContextProvider<Tenant> {
  provide(request: HttpServerRequest) {
    return new Tenant(`reader-${request.getHeader('x-tenant') ?? 'none'}`);
  }
}
@Handles(Tenant)
class DeclaredTenantReader implements ContextProvider<Tenant> {
  provide() {
    return new Tenant('declared');
  }
}
@Path('/method-reader')
class MethodReaders {
  @GET @Path('/undeclared') @ContextReader(HeaderTenantReader) undeclared(
    @Context() tenant: Tenant,
    @Context() region: Region,
    @Context() request: HttpServerRequest,
  ) {
    return { tenant: tenant.id, region: region?.name, path: request.path() };
  }
  @GET @Path('/declared') @ContextReader(DeclaredTenantReader) declared(
    @Context() region: Region,
    @Context() tenant: Tenant,
  ) {
    return { tenant: tenant.id, region: region?.name };
  }
}

test('a method @ContextReader serves the arguments of its type; the app still provides the others', async (t) => {
  const app = () =>
    new RestBuilder()
      .register(MethodReaders)
      .addProvider(Tenant, TenantProvider)
      .addProvider(Region, (req: HttpServerRequest) => new Region(req.getHeader('x-region') ?? 'eu'));
  const undeclared = await inject(app(), {
    url: '/method-reader/undeclared',
    headers: { 'x-tenant': 'acme', 'x-region': 'us' },
  });
  t.is(undeclared.statusCode, 200, undeclared.body);
  t.deepEqual(undeclared.json(), { tenant: 'reader-acme', region: 'us', path: '/method-reader/undeclared' });
  const declared = await inject(app(), { url: '/method-reader/declared', headers: { 'x-tenant': 'acme' } });
  t.is(declared.statusCode, 200, declared.body);
  t.deepEqual(declared.json(), { tenant: 'declared', region: 'eu' });
});

test('RestRouter.provide runs a provider on every request and pushes its value; functions work as providers', async (t) => {
  RestRouter.provide(RequestIdProvider);
  const r = await inject(new RestBuilder().register(Ctx), {
    url: '/ctx/request-id',
    headers: { 'x-request-id': 'abc' },
  });
  t.deepEqual(r.json(), { id: 'abc' });
  const fn = await inject(
    new RestBuilder()
      .register(Ctx)
      .addProvider(Tenant, (req: HttpServerRequest) => new Tenant(`fn-${req.getHeader('x-tenant')}`)),
    { url: '/ctx/tenant', headers: { 'x-tenant': 'z' } },
  );
  t.deepEqual(fn.json(), { tenant: 'fn-z' });
});

test('RestRouter.pushContext makes an object available to later @Context arguments', async (t) => {
  class Pusher implements ContextProvider<RequestId> {
    provide() {
      return null;
    }
  }
  void Pusher;
  @Path('/push')
  class Push {
    @GET @Path('/') get(@Context() ctx: RoutingContext) {
      RestRouter.pushContext(ctx, new Tenant('pushed'));
      return { tenant: ctx.get<Tenant>(Tenant)!.id };
    }
  }
  t.deepEqual((await inject(new RestBuilder().register(Push), '/push')).json(), { tenant: 'pushed' });
});

test('not-found writers: a subtree writer and a catch-all', async (t) => {
  class ApiNotFound implements NotFoundResponseWriter {
    write(req: HttpServerRequest, res: HttpServerResponse) {
      res.putHeader('content-type', 'application/json').end(JSON.stringify({ missing: req.path() }));
    }
  }
  const b = new RestBuilder()
    .register(Ctx)
    .notFound('/api/.*', ApiNotFound)
    .notFound((_req: HttpServerRequest, res: HttpServerResponse) => res.end('nothing here'));
  const api = await inject(b, '/api/x');
  t.is(api.statusCode, 404);
  t.deepEqual(api.json(), { missing: '/api/x' });
  const other = await inject(b, '/other');
  t.is(other.statusCode, 404);
  t.is(other.body, 'nothing here');
});

test('a failing async provider and a later failing argument: the first argument decides, nothing is left unhandled', async (t) => {
  const { UnauthorizedException, POST, BodyParam } = await import('../../src/index.js');
  class Partner {}
  @Path('/guarded')
  class Guarded {
    @POST @Path('/') post(@Context() _p: Partner, @BodyParam() body: { a: number }) {
      return body;
    }
  }
  const rejections: unknown[] = [];
  const onRejection = (r: unknown) => rejections.push(r);
  process.on('unhandledRejection', onRejection);
  try {
    const app = new RestBuilder().register(Guarded).addProvider(Partner, async () => {
      await new Promise((r) => setTimeout(r, 5));
      throw new UnauthorizedException('no key');
    });
    const r = await inject(app, {
      method: 'POST',
      url: '/guarded',
      headers: { 'content-type': 'application/json' },
      body: '{"broken',
    });
    t.is(r.statusCode, 401);
    await new Promise((r) => setTimeout(r, 20));
    t.deepEqual(rejections, []);
  } finally {
    process.off('unhandledRejection', onRejection);
  }
});

class Addresses {
  @GET @Path('/address') sync(@Context() req: HttpServerRequest) {
    return { remote: req.remoteAddress() };
  }
  @POST @Path('/address') async afterBody(@Context() req: HttpServerRequest, @BodyParam() body: string) {
    await new Promise((r) => setTimeout(r, 1));
    return { remote: req.remoteAddress(), body };
  }
}

test('the client address: from a real socket before and after awaiting a body, and as inject gives it for IPv6', async (t) => {
  const app = new RestBuilder().register(Addresses).build();
  const server = await listen(app);
  try {
    t.deepEqual(await (await fetch(`${server.url}/address`)).json(), { remote: '127.0.0.1' });
    const posted = await fetch(`${server.url}/address`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    t.deepEqual(await posted.json(), { remote: '127.0.0.1', body: 'hi' });
  } finally {
    server.close();
  }
  for (const [given, shown] of [
    ['::ffff:10.0.0.7', '10.0.0.7'],
    ['::1', '::1'],
    ['192.168.1.20', '192.168.1.20'],
  ]) {
    const r = await inject(app, { url: '/address', remoteAddress: given });
    t.is(r.json().remote, shown, given);
  }
});

test('@Context(Type) names the type: a class argument is not taken for a class decoration', async (t) => {
  // The form RU_ERR_NO_DECORATOR_METADATA recommends; a lone class argument was once read as `@Context` on a class.
  t.notThrows(() => Context(RoutingContext));
  class Typed {
    @GET @Path('/typed/{id}') get(
      @Context(RoutingContext) ctx: RoutingContext,
      @Context(HttpServerRequest) req: unknown,
    ) {
      return { param: ctx.request.getParam('id'), sameRequest: ctx.request === req };
    }
  }
  Path('/ctx')(Typed);
  const r = await inject(new RestBuilder().register(Typed), '/ctx/typed/7');
  t.is(r.statusCode, 200, r.body);
  t.deepEqual(r.json(), { param: '7', sameRequest: true });
});
