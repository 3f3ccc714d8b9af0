import test from 'ava';
import {
  Authenticate,
  Authorize,
  BadRequestException,
  Context,
  GET,
  Path,
  PathParam,
  RestBuilder,
  RoutingContext,
  User,
  type AuthorizationProvider,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
  type RestAuthenticationProvider,
  Handles,
} from '../../src/index';
import { recordingLogger, serve } from './security-fixtures';

/** Credentials from the X-Name header; "nobody" identifies no one; "sync" answers without promises. */
class HeaderAuthentication implements RestAuthenticationProvider<string> {
  provideCredentials(ctx: RoutingContext): string | null {
    return ctx.request.getHeader('x-name') ?? null;
  }
  async authenticate(name: string): Promise<User | null> {
    if (name === 'nobody') return null;
    if (name === 'broken') throw new TeapotError('the user directory is a teapot');
    return new User(name, name === 'ada' ? ['admin'] : ['reader']);
  }
  challenge(rejected: boolean): string {
    return rejected ? 'Name error="unknown"' : 'Name';
  }
}

/** A synchronous provider reading X-Key (used as the app-wide one). */
class KeyAuthentication implements RestAuthenticationProvider<string> {
  provideCredentials(ctx: RoutingContext): string | null {
    return ctx.request.getHeader('x-key') ?? null;
  }
  authenticate(key: string): User | null {
    return key === 'k1' ? new User('key-holder', ['partner']) : null;
  }
}

class TeapotError extends Error {}

@Handles(TeapotError)
class TeapotHandler implements ExceptionHandler<TeapotError> {
  write(error: TeapotError, _req: HttpServerRequest, res: HttpServerResponse): void {
    res.setStatusCode(418).end(`teapot: ${error.message}`);
  }
}

/** Allows admins; throws its own 400 for the user named "bad-request". */
class AdminOnly implements AuthorizationProvider {
  getId(): string {
    return 'admin-only';
  }
  async getAuthorizations(user: User): Promise<boolean> {
    if (user.name === 'bad-request') throw new BadRequestException('this user cannot even ask');
    return user.hasRole('admin');
  }
}

/** Forgets to return a value: must deny. */
class Forgetful implements AuthorizationProvider {
  getId(): string {
    return 'forgetful';
  }
  getAuthorizations(): boolean {
    return undefined as unknown as boolean;
  }
}

/** Yields something that is not a User. */
class WrongType implements RestAuthenticationProvider<string> {
  provideCredentials(): string {
    return 'x';
  }
  authenticate(): User {
    return { name: 'fake', roles: ['admin'] } as unknown as User;
  }
}

@Path('/secure')
@Authenticate(HeaderAuthentication)
class SecureResource {
  @GET
  @Path('/me')
  me(@Context() user: User): string {
    return `${user.name}:${user.roles.join(',')}`;
  }

  @GET
  @Path('/admin')
  @Authorize(AdminOnly)
  admin(@Context() ctx: RoutingContext): string {
    return `admin ${ctx.user()!.name}`;
  }

  @GET
  @Path('/forgetful')
  @Authorize(Forgetful)
  forgetful(): string {
    return 'should not happen';
  }

  @GET
  @Path('/by-key')
  @Authenticate(KeyAuthentication)
  byKey(@Context() user: User): string {
    return user.name;
  }

  @GET
  @Path('/items/:id')
  item(@PathParam('id') id: number): number {
    return id * 2;
  }
}

@Path('/open')
class OpenResource {
  @GET
  @Path('/')
  open(@Context() ctx: RoutingContext): string {
    return ctx.user()?.name ?? 'anonymous';
  }

  @GET
  @Path('/wrong-type')
  @Authenticate(WrongType)
  wrongType(): string {
    return 'should not happen';
  }
}

function builder() {
  return new RestBuilder().register(SecureResource, OpenResource).errorHandler(TeapotHandler).logger(recordingLogger());
}

test('no credentials: 401 with the provider challenge, and the method does not run', async (t) => {
  const server = await serve(builder());
  try {
    const res = await fetch(`${server.url}/secure/me`, { headers: { accept: 'application/json' } });
    t.is(res.status, 401);
    t.is(res.headers.get('www-authenticate'), 'Name');
    t.like(await res.json(), { status: 401, code: 'RU_ERR_NO_CREDENTIALS', message: 'Authentication required' });
  } finally {
    server.close();
  }
});

test('credentials that identify nobody: 401 with the rejected challenge', async (t) => {
  const server = await serve(builder());
  try {
    const res = await fetch(`${server.url}/secure/me`, { headers: { 'x-name': 'nobody', accept: 'application/json' } });
    t.is(res.status, 401);
    t.is(res.headers.get('www-authenticate'), 'Name error="unknown"');
    t.like(await res.json(), { code: 'RU_ERR_BAD_CREDENTIALS' });
  } finally {
    server.close();
  }
});

test('an identified user reaches the method and is the @Context User', async (t) => {
  const server = await serve(builder());
  try {
    const res = await fetch(`${server.url}/secure/me`, { headers: { 'x-name': 'grace' } });
    t.is(res.status, 200);
    t.is(await res.text(), 'grace:reader');
    const item = await fetch(`${server.url}/secure/items/21`, { headers: { 'x-name': 'grace' } });
    t.is(await item.text(), '42');
  } finally {
    server.close();
  }
});

test('authentication runs before arguments: a bad argument of an anonymous caller is a 401, not a 400', async (t) => {
  const server = await serve(builder());
  try {
    t.is((await fetch(`${server.url}/secure/items/abc`)).status, 401);
    t.is((await fetch(`${server.url}/secure/items/abc`, { headers: { 'x-name': 'grace' } })).status, 400);
  } finally {
    server.close();
  }
});

test('authorization: allowed user 200, other user 403 that names neither the provider nor the route', async (t) => {
  const server = await serve(builder());
  try {
    const ok = await fetch(`${server.url}/secure/admin`, { headers: { 'x-name': 'ada' } });
    t.is(ok.status, 200);
    t.is(await ok.text(), 'admin ada');
    const denied = await fetch(`${server.url}/secure/admin`, {
      headers: { 'x-name': 'grace', accept: 'application/json' },
    });
    t.is(denied.status, 403);
    const body = (await denied.json()) as { code: string; message: string };
    t.is(body.code, 'RU_ERR_NOT_AUTHORIZED');
    t.is(body.message, 'This route is not allowed for this user');
    t.notRegex(JSON.stringify(body), /admin-only|Secure/, 'the provider and the class stay internal');
  } finally {
    server.close();
  }
});

test('an authorization provider that does not return true denies', async (t) => {
  const server = await serve(builder());
  try {
    t.is((await fetch(`${server.url}/secure/forgetful`, { headers: { 'x-name': 'ada' } })).status, 403);
  } finally {
    server.close();
  }
});

test('providers may fail with their own errors, which reach the exception handlers', async (t) => {
  const server = await serve(builder());
  try {
    const teapot = await fetch(`${server.url}/secure/me`, { headers: { 'x-name': 'broken' } });
    t.is(teapot.status, 418);
    t.is(await teapot.text(), 'teapot: the user directory is a teapot');
    const bad = await fetch(`${server.url}/secure/admin`, {
      headers: { 'x-name': 'bad-request', accept: 'application/json' },
    });
    t.is(bad.status, 400);
    t.like(await bad.json(), { message: 'this user cannot even ask' });
  } finally {
    server.close();
  }
});

test('a method-level @Authenticate replaces the class one', async (t) => {
  const server = await serve(builder());
  try {
    t.is((await fetch(`${server.url}/secure/by-key`, { headers: { 'x-name': 'ada' } })).status, 401);
    const res = await fetch(`${server.url}/secure/by-key`, { headers: { 'x-key': 'k1' } });
    t.is(res.status, 200);
    t.is(await res.text(), 'key-holder');
  } finally {
    server.close();
  }
});

test('routes without security stay open; a provider yielding a non-User is a 500 without details', async (t) => {
  const server = await serve(builder());
  try {
    t.is(await (await fetch(`${server.url}/open`)).text(), 'anonymous');
    const res = await fetch(`${server.url}/open/wrong-type`);
    t.is(res.status, 500);
    t.notRegex(await res.text(), /User|fake/);
  } finally {
    server.close();
  }
});

test('authenticateWith / authorizeWith apply to every route of the app; route decorators override them', async (t) => {
  @Path('/g')
  class GlobalResource {
    @GET
    @Path('/who')
    who(@Context() user: User): string {
      return user.name;
    }

    @GET
    @Path('/header-auth')
    @Authenticate(HeaderAuthentication)
    headerAuth(@Context() user: User): string {
      return user.name;
    }
  }
  /** Allows partners only. */
  class PartnersOnly implements AuthorizationProvider {
    getId(): string {
      return 'partners';
    }
    getAuthorizations(user: User): boolean {
      return user.hasRole('partner');
    }
  }
  const server = await serve(
    new RestBuilder().register(GlobalResource).authenticateWith(KeyAuthentication).authorizeWith(PartnersOnly),
  );
  try {
    t.is((await fetch(`${server.url}/g/who`)).status, 401);
    t.is((await fetch(`${server.url}/g/who`, { headers: { 'x-key': 'wrong' } })).status, 401);
    const ok = await fetch(`${server.url}/g/who`, { headers: { 'x-key': 'k1' } });
    t.is(ok.status, 200);
    t.is(await ok.text(), 'key-holder');
    // The route's own authentication replaces the app's; the app's authorization still applies.
    t.is((await fetch(`${server.url}/g/header-auth`, { headers: { 'x-key': 'k1' } })).status, 401);
    t.is((await fetch(`${server.url}/g/header-auth`, { headers: { 'x-name': 'ada' } })).status, 403);
  } finally {
    server.close();
  }
});

test('provider instances work as well as classes', async (t) => {
  @Path('/inst')
  class InstanceResource {
    @GET
    @Path('/')
    get(@Context() user: User): string {
      return user.name;
    }
  }
  const provider: RestAuthenticationProvider<string> = {
    provideCredentials: (ctx) => ctx.request.getHeader('x-user') ?? null,
    authenticate: (name) => new User(name),
  };
  const server = await serve(new RestBuilder().register(InstanceResource).authenticateWith(provider));
  try {
    t.is(await (await fetch(`${server.url}/inst`, { headers: { 'x-user': 'lin' } })).text(), 'lin');
    t.is((await fetch(`${server.url}/inst`)).status, 401);
  } finally {
    server.close();
  }
});
