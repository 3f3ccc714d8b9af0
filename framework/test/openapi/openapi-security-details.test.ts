import test from 'ava';
import {
  Authenticate,
  GET,
  Path,
  RestAuthenticationProvider,
  RestBuilder,
  RolesAllowed,
  RoutingContext,
  User,
  openApiDocument,
} from '../../src/index';

/** A custom provider that declares its scheme as an instance field (only visible on an instance). */
class ApiKeyProvider implements RestAuthenticationProvider<string> {
  securityScheme = { name: 'apiKey', scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key' } };
  provideCredentials(ctx: RoutingContext) {
    return ctx.request.getHeader('x-api-key') ?? null;
  }
  authenticate(key: string) {
    return key === 'k' ? new User('u', ['admin']) : null;
  }
}

@Path('/things')
@Authenticate(ApiKeyProvider)
class Things {
  @GET list() {
    return [];
  }
  @GET @Path('/admin') @RolesAllowed('admin') admin() {
    return [];
  }
}

test('a scheme declared as an instance field is found; 403 is documented only where something can forbid', (t) => {
  const doc: any = openApiDocument(new RestBuilder().register(Things).build(), { title: 't', version: '1' });
  t.deepEqual(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  const list = doc.paths['/things'].get;
  t.deepEqual(list.security, [{ apiKey: [] }]);
  t.truthy(list.responses['401']);
  t.is(list.responses['403'], undefined, 'authentication alone cannot answer 403');
  const admin = doc.paths['/things/admin'].get;
  t.deepEqual(admin.security, [{ apiKey: ['admin'] }]);
  t.truthy(admin.responses['403']);
});
