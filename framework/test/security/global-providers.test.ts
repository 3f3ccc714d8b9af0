import test from 'ava';
import {
  Context,
  GET,
  Path,
  RestBuilder,
  RestRouter,
  RoutingContext,
  User,
  type RestAuthenticationProvider,
} from '../../src/index';
import { loadUws } from '../../src/adapter/load-uws';
import { listen } from '../support/server';

/** X-Global: name. */
class GlobalHeader implements RestAuthenticationProvider<string> {
  provideCredentials(ctx: RoutingContext) {
    return ctx.request.getHeader('x-global') ?? null;
  }
  authenticate(name: string) {
    return new User(`global:${name}`);
  }
}

/** X-Local: name. */
class LocalHeader implements RestAuthenticationProvider<string> {
  provideCredentials(ctx: RoutingContext) {
    return ctx.request.getHeader('x-local') ?? null;
  }
  authenticate(name: string) {
    return new User(`local:${name}`);
  }
}

@Path('/who')
class WhoResource {
  @GET
  @Path('/')
  who(@Context() user: User): string {
    return user.name;
  }
}

// This file's process has the global provider set: every app without its own uses it.
RestRouter.authenticateWith(GlobalHeader);

test('RestRouter.authenticateWith secures apps registered with RestRouter.register', async (t) => {
  const app = loadUws().App();
  RestRouter.register(app, WhoResource);
  const server = await listen(app);
  t.teardown(() => server.close());
  t.is((await fetch(`${server.url}/who`)).status, 401);
  t.is(await (await fetch(`${server.url}/who`, { headers: { 'x-global': 'g' } })).text(), 'global:g');
});

test("an app's own authenticateWith wins over the global one", async (t) => {
  const server = await listen(new RestBuilder().register(WhoResource).authenticateWith(LocalHeader).build());
  t.teardown(() => server.close());
  t.is((await fetch(`${server.url}/who`, { headers: { 'x-global': 'g' } })).status, 401);
  t.is(await (await fetch(`${server.url}/who`, { headers: { 'x-local': 'l' } })).text(), 'local:l');
});

test('authenticateWith refuses something that is not a provider', (t) => {
  t.throws(() => new RestBuilder().authenticateWith(null as never), { message: /provider class or instance/ });
  t.throws(() => RestRouter.authorizeWith('x' as never), { message: /provider class or instance/ });
});
