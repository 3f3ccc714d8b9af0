/**
 * Issue 18, item 12: `@ApplicationPath`, a prefix for every route of a class, or of an application when it
 * sits on a base class its REST classes extend (the reference's ApplicationPathTest, with a base class for
 * the interface TypeScript erases).
 */
import test from 'ava';
import {
  ApplicationPath,
  Context,
  GET,
  Get,
  Path,
  PathParam,
  POST,
  RestBuilder,
  RouteDefinition,
  inject,
} from '../../src/index';

@ApplicationPath('v1')
abstract class ApiV1 {}

@ApplicationPath('/v2/')
abstract class ApiV2 {}

@Path('/application')
class EchoV1 extends ApiV1 {
  @GET @Path('/echo/{param}') echo(@PathParam('param') param: string) {
    return param;
  }
}

@Path('/application')
class EchoV2 extends ApiV2 {
  @GET @Path('/echo/{param}') echo(@Context() definition: RouteDefinition, @PathParam('param') param: string) {
    return `${definition.path}=2${param} (${definition.applicationPath})`;
  }
}

@ApplicationPath('/internal')
@Path('/health')
class Health {
  @GET check() {
    return { ok: true };
  }
  @POST @Path('/{tenant}/ping') ping(@PathParam('tenant') tenant: string) {
    return { tenant };
  }
}

/** Overrides the base class's prefix. */
@ApplicationPath('/v3')
@Path('/application')
class EchoV3 extends ApiV2 {
  @Get('/echo/{param}') echo(@PathParam('param') param: string) {
    return `v3 ${param}`;
  }
}

@ApplicationPath('/')
@Path('/root')
class AtRoot {
  @GET root() {
    return 'root';
  }
}

const app = () => new RestBuilder().register(EchoV1, EchoV2, Health, EchoV3, AtRoot);

test('item 12: @ApplicationPath on a base class prefixes every route of the classes extending it', async (t) => {
  const v1 = await inject(app(), '/v1/application/echo/this');
  t.is(v1.statusCode, 200);
  t.is(v1.body, 'this');
  const v2 = await inject(app(), '/v2/application/echo/this');
  t.is(v2.body, '/v2/application/echo/{param}=2this (/v2)');
  t.is((await inject(app(), '/application/echo/this')).statusCode, 404);
});

test('item 12: @ApplicationPath on the class itself, with the class path, a method path and path variables', async (t) => {
  t.deepEqual((await inject(app(), '/internal/health')).json(), { ok: true });
  t.deepEqual((await inject(app(), { method: 'POST', url: '/internal/health/acme/ping' })).json(), { tenant: 'acme' });
  t.is((await inject(app(), '/health')).statusCode, 404);
});

test('item 12: a subclass\'s own @ApplicationPath replaces its base class\'s; "/" means no prefix', async (t) => {
  t.is((await inject(app(), '/v3/application/echo/x')).body, 'v3 x');
  t.is((await inject(app(), '/root')).body, 'root');
});

test('item 12: the prefixed paths are the ones OpenAPI documents, and a wrong prefix is refused when decorating', async (t) => {
  const doc = (
    await inject(
      new RestBuilder().register(Health).openApi({ title: 't', version: '1', path: '/openapi.json' }),
      '/openapi.json',
    )
  ).json();
  t.deepEqual(Object.keys(doc.paths).sort(), ['/internal/health', '/internal/health/{tenant}/ping']);
  t.throws(() => ApplicationPath('  '), { message: /@ApplicationPath takes a path prefix/ });
});
