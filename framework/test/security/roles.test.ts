import test from 'ava';
import {
  Context,
  DenyAll,
  GET,
  Path,
  PermitAll,
  RestBuilder,
  RolesAllowed,
  RoutingContext,
  User,
  type RestAuthenticationProvider,
} from '../../src/index';
import { serve } from './security-fixtures';

/** X-User: name, X-Roles: comma-separated roles. */
class HeaderUser implements RestAuthenticationProvider<{ name: string; roles: string[] }> {
  provideCredentials(ctx: RoutingContext) {
    const name = ctx.request.getHeader('x-user');
    return name === undefined
      ? null
      : { name, roles: (ctx.request.getHeader('x-roles') ?? '').split(',').filter(Boolean) };
  }
  authenticate(c: { name: string; roles: string[] }): User {
    return new User(c.name, c.roles);
  }
}

@Path('/admin')
@RolesAllowed('admin', 'owner')
class AdminResource {
  @GET
  @Path('/stats')
  stats(): string {
    return 'stats';
  }

  @GET
  @Path('/health')
  @PermitAll
  health(@Context() ctx: RoutingContext): string {
    return `ok ${ctx.user()?.name ?? 'anonymous'}`;
  }

  @GET
  @Path('/editors')
  @RolesAllowed('editor')
  editors(): string {
    return 'editors';
  }

  @GET
  @Path('/nobody')
  @DenyAll()
  nobody(): string {
    return 'should not happen';
  }
}

@Path('/plain')
class PlainResource {
  @GET
  @Path('/roles')
  @RolesAllowed('admin')
  roles(): string {
    return 'admin only';
  }
}

const app = () => new RestBuilder().register(AdminResource, PlainResource).authenticateWith(HeaderUser);

test('@RolesAllowed on a class: any listed role passes, another role is 403, no user is 401', async (t) => {
  const server = await serve(app());
  try {
    t.is((await fetch(`${server.url}/admin/stats`, { headers: { 'x-user': 'a', 'x-roles': 'owner' } })).status, 200);
    t.is(
      (await fetch(`${server.url}/admin/stats`, { headers: { 'x-user': 'a', 'x-roles': 'reader,admin' } })).status,
      200,
    );
    const denied = await fetch(`${server.url}/admin/stats`, {
      headers: { 'x-user': 'a', 'x-roles': 'reader', accept: 'application/json' },
    });
    t.is(denied.status, 403);
    const refusal = await denied.text();
    t.like(JSON.parse(refusal), {
      code: 'RU_ERR_ROLE_REQUIRED',
      message: 'The user has none of the roles this route requires',
    });
    // Class, method and role names are the server's own business.
    t.notRegex(refusal, /AdminResource|stats|admin|owner/);
    t.is((await fetch(`${server.url}/admin/stats`)).status, 401);
  } finally {
    server.close();
  }
});

test('a method rule replaces the class rule: @PermitAll needs no credentials but still identifies a caller who gives them', async (t) => {
  const server = await serve(app());
  try {
    t.is(await (await fetch(`${server.url}/admin/health`)).text(), 'ok anonymous');
    t.is(await (await fetch(`${server.url}/admin/health`, { headers: { 'x-user': 'bo' } })).text(), 'ok bo');
    t.is((await fetch(`${server.url}/admin/editors`, { headers: { 'x-user': 'a', 'x-roles': 'admin' } })).status, 403);
    t.is((await fetch(`${server.url}/admin/editors`, { headers: { 'x-user': 'a', 'x-roles': 'editor' } })).status, 200);
  } finally {
    server.close();
  }
});

test('@DenyAll is 403 for everyone, admins included', async (t) => {
  const server = await serve(app());
  try {
    t.is((await fetch(`${server.url}/admin/nobody`, { headers: { 'x-user': 'a', 'x-roles': 'admin' } })).status, 403);
    const refused = await fetch(`${server.url}/admin/nobody`, { headers: { accept: 'application/json' } });
    t.is(refused.status, 403);
    t.like(await refused.json(), { code: 'RU_ERR_DENY_ALL', message: 'This route is available to no one' });
  } finally {
    server.close();
  }
});

test('without any authentication provider, @RolesAllowed checks the user of the routing context: none is 401', async (t) => {
  const server = await serve(new RestBuilder().register(PlainResource));
  try {
    const res = await fetch(`${server.url}/plain/roles`, { headers: { accept: 'application/json' } });
    t.is(res.status, 401);
    t.like(await res.json(), { code: 'RU_ERR_NO_CREDENTIALS' });
  } finally {
    server.close();
  }
});
