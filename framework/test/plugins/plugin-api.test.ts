import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import {
  Authenticate,
  BadRequestException,
  BearerAuthenticationProvider,
  CatchWith,
  Context,
  ForbiddenException,
  GET,
  HeaderParam,
  Max,
  Path,
  PathParam,
  QueryParam,
  RestBuilder,
  RestRouter,
  RolesAllowed,
  SetMetadata,
  User,
  WebSocket,
  WebSocketConnection,
  inject,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
  type HttpResponseWriter,
  NoCache,
  Produces,
  ResponseWriter,
  type RestPlugin,
  type RoutingContext,
} from '../../src/index';
import { loadUws } from '../../src/adapter/load-uws';
import { listen } from '../support/server';
import { connect, refusedUpgrade } from '../websocket/ws-client';
import { Deprecated, deprecation } from './deprecation-plugin';

@Path('/v1')
class OldApi {
  @GET
  @Path('/old')
  @Deprecated('2027-06-30')
  old() {
    return { version: 1 };
  }

  @GET
  @Path('/current')
  current() {
    return { version: 2 };
  }
}

test("the reference page's example plugin: headers on deprecated routes only, counts served by its own route", async (t) => {
  const app = new RestBuilder().use(deprecation({ link: 'https://example.com/deprecations' })).register(OldApi);
  const old = await inject(app, '/v1/old');
  t.is(old.statusCode, 200);
  t.is(old.headers['deprecation'], 'true');
  t.is(old.headers['sunset'], 'Wed, 30 Jun 2027 00:00:00 GMT');
  t.is(old.headers['link'], '<https://example.com/deprecations>; rel="deprecation"');
  const current = await inject(app, '/v1/current');
  t.false('deprecation' in current.headers);
  await inject(app, '/v1/old');
  t.deepEqual((await inject(app, '/deprecations')).json(), { 'GET /v1/old': 2 });
});

test('docs/reference/plugins.md shows the example plugin exactly as tested', (t) => {
  const doc = fs.readFileSync(path.resolve(__dirname, '../../../../docs/reference/plugins.md'), 'utf8');
  const source = fs
    .readFileSync(path.resolve(__dirname, '../../../test/plugins/deprecation-plugin.ts'), 'utf8')
    .replace("from '../../src/index'", "from 'rest.uws'");
  t.true(
    doc.includes('```ts\n' + source + '```'),
    'the first example of the page differs from test/plugins/deprecation-plugin.ts',
  );
});

@Path('/items')
class Items {
  @GET
  @Path('/{id}')
  get(@PathParam('id') id: number) {
    if (id === 0) throw new BadRequestException('no item 0');
    return { id };
  }
}

test('request hooks run before routing, in the order plugins were added; one that answers ends the request, also for unknown paths', async (t) => {
  const seen: string[] = [];
  const first: RestPlugin = {
    name: 'first',
    setup: (app) => app.onRequest((ctx) => void seen.push(`first ${ctx.request.path()}`)),
  };
  const health: RestPlugin = {
    name: 'health',
    setup(app) {
      app.onRequest((ctx) => {
        seen.push(`health ${ctx.request.path()}`);
        if (ctx.request.path() !== '/healthz') return false;
        ctx.response.putHeader('content-type', 'application/json').end('{"status":"ok"}');
        return true;
      });
    },
  };
  const app = new RestBuilder().use(first).use(health).register(Items);
  t.is((await inject(app, '/healthz')).body, '{"status":"ok"}');
  t.is((await inject(app, '/items/4')).json().id, 4);
  t.is((await inject(app, '/nowhere')).statusCode, 404);
  t.deepEqual(seen, [
    'first /healthz',
    'health /healthz',
    'first /items/4',
    'health /items/4',
    'first /nowhere',
    'health /nowhere',
  ]);
});

test('a request hook that throws is answered through the exception handlers, and no route runs', async (t) => {
  const blocker: RestPlugin = {
    name: 'blocker',
    setup: (app) =>
      app.onRequest((ctx) => {
        if (ctx.request.getHeader('x-blocked') !== undefined) throw new ForbiddenException('blocked by policy');
      }),
  };
  const app = new RestBuilder().use(blocker).register(Items);
  const refused = await inject(app, { url: '/items/1', headers: { 'x-blocked': '1', accept: 'application/json' } });
  t.is(refused.statusCode, 403);
  t.is(refused.json().message, 'blocked by policy');
  t.is((await inject(app, '/items/1')).statusCode, 200);
});

test('send hooks change headers and replace complete bodies, on answers and on errors; response hooks run once per request', async (t) => {
  const finished: Array<[string, number]> = [];
  const wrap: RestPlugin = {
    name: 'wrap',
    setup(app) {
      app.onSend((ctx, body) => {
        ctx.response.putHeader('x-wrapped', 'yes');
        return typeof body === 'string' ? `[${body}]` : body;
      });
      app.onResponse((ctx) => void finished.push([ctx.request.path(), ctx.response.getStatusCode()]));
    },
  };
  const app = new RestBuilder().use(wrap).register(Items);
  const ok = await inject(app, '/items/7');
  t.is(ok.headers['x-wrapped'], 'yes');
  t.is(ok.body, '[{"id":7}]');
  const failed = await inject(app, { url: '/items/0', headers: { accept: 'application/json' } });
  t.is(failed.statusCode, 400);
  t.is(failed.headers['x-wrapped'], 'yes');
  t.true(failed.body.startsWith('[{'));
  t.deepEqual(finished, [
    ['/items/7', 200],
    ['/items/0', 400],
  ]);
});

class Teapot extends Error {}

class OwnTeapotHandler implements ExceptionHandler<Teapot> {
  write(_error: Teapot, _request: HttpServerRequest, response: HttpServerResponse) {
    response.setStatusCode(409).end('the route handled it');
  }
}

@Path('/pots')
class Pots {
  @GET
  @Path('/plain')
  plain(): string {
    throw new Teapot('short and stout');
  }

  @GET
  @Path('/own')
  @CatchWith(OwnTeapotHandler)
  own(): string {
    throw new Teapot('short and stout');
  }
}

test("error hooks observe every error; a plugin's handler answers its error type unless the route or the app handles it", async (t) => {
  const observed: string[] = [];
  const teapots: RestPlugin = {
    name: 'teapots',
    setup(app) {
      app.onError((error) => void observed.push((error as Error).message));
      app.errorHandler(Teapot, {
        write: (_e: unknown, _q: HttpServerRequest, res: HttpServerResponse) =>
          void res.setStatusCode(418).end('the plugin handled it'),
      });
    },
  };
  const pluginOnly = new RestBuilder().use(teapots).register(Pots);
  t.deepEqual(
    [(await inject(pluginOnly, '/pots/plain')).statusCode, (await inject(pluginOnly, '/pots/plain')).body],
    [418, 'the plugin handled it'],
  );
  t.deepEqual(
    [(await inject(pluginOnly, '/pots/own')).statusCode, (await inject(pluginOnly, '/pots/own')).body],
    [409, 'the route handled it'],
  );
  const appFirst = new RestBuilder()
    .use(teapots)
    .errorHandlerFor(Teapot, {
      write: (_e: unknown, _q: HttpServerRequest, res: HttpServerResponse) =>
        void res.setStatusCode(503).end('the app handled it'),
    })
    .register(Pots);
  t.is((await inject(appFirst, '/pots/plain')).body, 'the app handled it');
  t.true(observed.length >= 5 && observed.every((m) => m === 'short and stout'));
});

test('a plugin used again under its name replaces its hooks; use() on a built app takes effect at once', async (t) => {
  const tag = (value: string): RestPlugin => ({
    name: 'tag',
    setup: (app) => app.onSend((ctx) => void ctx.response.putHeader('x-tag', value)),
  });
  const builder = new RestBuilder().use(tag('one')).use(tag('two')).register(Items);
  const app = builder.build();
  t.is((await inject(app, '/items/1')).headers['x-tag'], 'two');
  builder.use(tag('three'));
  t.is((await inject(app, '/items/1')).headers['x-tag'], 'three');
  const limitedTo: RestPlugin = {
    name: 'max-id',
    setup: (app) =>
      app.route(() => ({
        beforeHandler: (_ctx, args) => {
          if ((args[0] as number) > 100) throw new BadRequestException('id over 100');
        },
      })),
  };
  builder.use(limitedTo);
  t.is(
    (await inject(app, { url: '/items/101', headers: { accept: 'application/json' } })).json().message,
    'id over 100',
  );
});

test('RestRouter.use gives a plugin to every app, those registered later and those already there', async (t) => {
  const before = loadUws().App();
  RestRouter.register(before, Items);
  const marker: RestPlugin = {
    name: 'global-marker-test',
    setup: (app) => app.onSend((ctx) => void ctx.response.putHeader('x-global', '1')),
  };
  RestRouter.use(marker);
  const after = loadUws().App();
  RestRouter.register(after, Pots);
  t.is((await inject(before, '/items/1')).headers['x-global'], '1');
  t.is((await inject(after, '/pots/plain')).headers['x-global'], '1');
  RestRouter.use({ name: 'global-marker-test', setup: () => undefined });
  t.false('x-global' in (await inject(after, '/pots/plain')).headers);
});

test('a plugin that is not one is refused when added, with what a plugin is', (t) => {
  t.throws(() => new RestBuilder().use({ setup() {} } as unknown as RestPlugin), {
    message: /use\(\) takes a plugin: \{ name: string, setup\(app\) \}/,
  });
  const failing: RestPlugin = {
    name: 'broken',
    setup: () => {
      throw new Error('no config');
    },
  };
  t.throws(() => new RestBuilder().use(failing).register(Items).build(), { message: 'plugin broken: no config' });
});

// One set of route rules, declared on an HTTP route and on a WebSocket endpoint alike.
const ROOM_POLICY = Symbol('test:room-policy');
const ClosedRooms = (...rooms: number[]) => SetMetadata(ROOM_POLICY, rooms);
const roomPolicy: RestPlugin = {
  name: 'room-policy',
  setup: (app) =>
    app.route((route) => {
      const closed = route.definition.extensions.get(ROOM_POLICY) as number[] | undefined;
      if (closed === undefined) return undefined;
      // The method's own parameter named room, wherever the method (a route's, or an endpoint's open) has it.
      const at = route.definition.parameters.findIndex((p) => p.name === 'room');
      return {
        beforeHandler: (_ctx, args) => {
          if (closed.includes(args[at] as number)) throw new ForbiddenException(`room ${args[at]} is closed`);
        },
      };
    }),
};

class Tenant {
  constructor(readonly name: string) {}
}

const tokens = BearerAuthenticationProvider.fromTokens({
  'member-token': new User('ann', ['member']),
  'guest-token': new User('bob', ['guest']),
});

class RoomErrors implements ExceptionHandler<Error> {
  write(error: Error, _request: HttpServerRequest, response: HttpServerResponse) {
    response
      .putHeader('x-handled-by', 'RoomErrors')
      .end(JSON.stringify({ status: response.getStatusCode(), message: error.message }));
  }
}

@Path('/http/rooms')
@Authenticate(tokens)
@RolesAllowed('member')
@ClosedRooms(13)
@CatchWith(RoomErrors)
class RoomResource {
  @GET
  @Path('/{room}')
  join(@PathParam('room') @Max(99) room: number, @QueryParam('nick') nick: string, @Context() tenant: Tenant) {
    return { room, nick, tenant: tenant.name };
  }
}

@WebSocket('/ws/rooms/{room}')
@Authenticate(tokens)
@RolesAllowed('member')
@ClosedRooms(13)
@CatchWith(RoomErrors)
class RoomEndpoint {
  open(
    connection: WebSocketConnection,
    @PathParam('room') @Max(99) room: number,
    @QueryParam('nick') nick: string,
    @Context() tenant: Tenant,
  ) {
    connection.sendJson({ room, nick, tenant: tenant.name });
  }
}

/** A message with the route's own names (class, method, path) put aside. */
function sameWords(message: string): string {
  return message
    .replace(/RoomResource\.join|RoomEndpoint\.open/g, 'ROUTE')
    .replace(/(GET|WebSocket) \/(http|ws)\/rooms\//g, 'PATH/');
}

/** The app's hooks, as a plugin sees every request: a gate before routing, a header on every answer, what ended how. */
function gatePlugin(): { plugin: RestPlugin; ended: string[]; errors: string[] } {
  const ended: string[] = [];
  const errors: string[] = [];
  const plugin: RestPlugin = {
    name: 'gate',
    setup(app) {
      app.onRequest((ctx) => {
        if (ctx.request.getHeader('x-banned') !== undefined)
          throw new ForbiddenException('banned at the gate', { code: 'TEST_BANNED' });
        if (ctx.request.getHeader('x-flood') === undefined) return false;
        ctx.response.setStatusCode(429).putHeader('content-type', 'text/plain').end('slow down');
        return true;
      });
      app.onSend((ctx) => void ctx.response.putHeader('x-sent-by', `gate ${ctx.response.getStatusCode()}`));
      app.onResponse((ctx) => void ended.push(`${ctx.request.path().split('/')[1]} ${ctx.response.getStatusCode()}`));
      app.onError((error, ctx) => void errors.push(`${ctx.request.path().split('/')[1]} ${(error as Error).message}`));
    },
  };
  return { plugin, ended, errors };
}

test("HTTP routes and WebSocket upgrades follow the same rules to the same outcome (security, arguments, validation, providers, plugin hooks, the app's hooks, handlers)", async (t) => {
  const gate = gatePlugin();
  const app = new RestBuilder()
    .use(gate.plugin)
    .use(roomPolicy)
    .addProvider(Tenant, (request: HttpServerRequest) =>
      request.getHeader('x-tenant') === undefined ? null : new Tenant(request.getHeader('x-tenant')!),
    )
    .register(RoomResource, RoomEndpoint)
    .build();
  const server = await listen(app);
  t.teardown(server.close);
  const member = { authorization: 'Bearer member-token', 'x-tenant': 'acme' };
  const cases: Array<{ name: string; room: string; query: string; headers: Record<string, string> }> = [
    { name: 'no credentials', room: '1', query: '?nick=a', headers: { 'x-tenant': 'acme' } },
    {
      name: 'wrong role',
      room: '1',
      query: '?nick=a',
      headers: { authorization: 'Bearer guest-token', 'x-tenant': 'acme' },
    },
    { name: 'missing query parameter', room: '1', query: '', headers: member },
    { name: 'not a number', room: 'x', query: '?nick=a', headers: member },
    { name: 'constraint violated', room: '100', query: '?nick=a', headers: member },
    { name: 'provider has nothing', room: '1', query: '?nick=a', headers: { authorization: 'Bearer member-token' } },
    { name: 'plugin refuses', room: '13', query: '?nick=a', headers: member },
  ];
  for (const c of cases) {
    const http = await fetch(`${server.url}/http/rooms/${c.room}${c.query}`, { headers: c.headers });
    const ws = await refusedUpgrade(`ws://127.0.0.1:${server.port}/ws/rooms/${c.room}${c.query}`, c.headers);
    const httpBody = await http.text();
    t.true(http.status >= 400, `${c.name}: HTTP ${http.status}`);
    t.is(ws.status, http.status, `${c.name}: same status`);
    t.is(ws.headers['x-handled-by'], 'RoomErrors', `${c.name}: the endpoint's handler answered the upgrade`);
    t.is(http.headers.get('x-handled-by'), 'RoomErrors', `${c.name}: the route's handler answered`);
    t.is(sameWords(JSON.parse(ws.body).message), sameWords(JSON.parse(httpBody).message), `${c.name}: same message`);
    // The app's send hook wrote its header on both answers, and its response hook saw both statuses.
    t.is(ws.headers['x-sent-by'], `gate ${http.status}`, `${c.name}: the app's onSend ran on the refused upgrade`);
    t.is(http.headers.get('x-sent-by'), `gate ${http.status}`, `${c.name}: the app's onSend ran on the route's answer`);
    t.deepEqual(
      gate.ended.splice(0),
      [`http ${http.status}`, `ws ${http.status}`],
      `${c.name}: the app's onResponse saw both`,
    );
    t.deepEqual(
      gate.errors.splice(0).map((e) => e.split(' ')[0]),
      ['http', 'ws'],
      `${c.name}: the app's onError saw both errors`,
    );
  }
  // The app's request hooks run before either: one that throws refuses both alike (its error through the app's
  // handlers, since no route was reached), one that answers answers both; neither reaches the route's stages.
  for (const [name, headers, status] of [
    ['a request hook throws', { ...member, 'x-banned': '1' }, 403],
    ['a request hook answers', { ...member, 'x-flood': '1' }, 429],
  ] as const) {
    const http = await fetch(`${server.url}/http/rooms/7?nick=ann`, {
      headers: { ...headers, accept: 'application/json' },
    });
    const ws = await refusedUpgrade(`ws://127.0.0.1:${server.port}/ws/rooms/7?nick=ann`, {
      ...headers,
      accept: 'application/json',
    });
    const httpBody = await http.text();
    t.is(http.status, status, `${name}: HTTP`);
    t.is(ws.status, status, `${name}: WebSocket`);
    t.is(ws.body, httpBody, `${name}: same body`);
    t.is(ws.headers['x-handled-by'], undefined, `${name}: the endpoint's handler did not run`);
    t.is(ws.headers['x-sent-by'], `gate ${status}`, `${name}: the app's onSend ran on the refused upgrade`);
    t.is(http.headers.get('x-sent-by'), `gate ${status}`, `${name}: the app's onSend ran on the route's answer`);
    t.deepEqual(gate.ended.splice(0), [`http ${status}`, `ws ${status}`], `${name}: the app's onResponse saw both`);
  }
  t.deepEqual(gate.errors.splice(0), ['http banned at the gate', 'ws banned at the gate']);
  const ok = await fetch(`${server.url}/http/rooms/7?nick=ann`, { headers: member });
  t.deepEqual(await ok.json(), { room: 7, nick: 'ann', tenant: 'acme' });
  const client = await connect(`ws://127.0.0.1:${server.port}/ws/rooms/7?nick=ann`, { headers: member });
  const opened = JSON.parse(String((await client.next()).data));
  client.socket.close();
  t.deepEqual(opened, { room: 7, nick: 'ann', tenant: 'acme' });
  // An accepted upgrade's answer is the 101: the app's response hook hears of it; no send hook runs (no body follows).
  t.deepEqual(gate.ended.splice(0), ['http 200', 'ws 101']);
  t.deepEqual(gate.errors, []);
});

test("the routing context a hook sees is the request's own", async (t) => {
  const paths: string[] = [];
  const spy: RestPlugin = {
    name: 'spy',
    setup: (app) =>
      app.route(() => ({
        onRequest: (ctx: RoutingContext) => void paths.push(`${ctx.route()?.method} ${ctx.request.path()}`),
      })),
  };
  await inject(new RestBuilder().use(spy).register(Items), '/items/3');
  t.deepEqual(paths, ['GET /items/3']);
});

test("a header given to a route hook is read like the route's own arguments", async (t) => {
  @Path('/h')
  class H {
    @GET
    get(@HeaderParam('x-a') a: string) {
      return a;
    }
  }
  const seen: Array<string | undefined> = [];
  const reader: RestPlugin = {
    name: 'reader',
    setup: (app) =>
      app.route(() => ({
        beforeHandler: (ctx, args) => void seen.push(ctx.request.getHeader('x-a'), String(args[0])),
      })),
  };
  await inject(new RestBuilder().use(reader).register(H), { url: '/h', headers: { 'x-a': 'one' } });
  t.deepEqual(seen, ['one', 'one']);
});

/** A writer made per request, whose `stamp` field a plugin fills. */
@NoCache
@Produces('text/plain')
class StampedWriter implements HttpResponseWriter<string> {
  stamp = 'unfilled';
  write(data: string, _req: HttpServerRequest, res: HttpServerResponse): void {
    res.end(`${data} stamped ${this.stamp}`);
  }
}

@Path('/stamped')
class Stamped {
  @GET
  @ResponseWriter(StampedWriter)
  get(): string {
    return 'answer';
  }
}

test.serial(
  'fillComponents: a plugin fills the fields of components made per request; one plugin per app does',
  async (t) => {
    const asked: string[] = [];
    // Named as the built-in injection plugin, it replaces it (as any plugin used again under its name does).
    const stamping: RestPlugin = {
      name: 'injection',
      setup: (app) =>
        app.fillComponents((type) => {
          asked.push(type.name);
          return type === StampedWriter
            ? (instance: StampedWriter, ctx) => void (instance.stamp = ctx.request.getHeader('x-stamp') ?? 'none')
            : undefined;
        }),
    };
    const app = new RestBuilder().use(stamping).register(Stamped);
    t.is((await inject(app, { url: '/stamped', headers: { 'x-stamp': 'one' } })).body, 'answer stamped one');
    const compiled = asked.length;
    t.is((await inject(app, { url: '/stamped', headers: { 'x-stamp': 'two' } })).body, 'answer stamped two');
    t.is(asked.length, compiled, 'asked when the route is compiled, not per request');
    t.deepEqual([...new Set(asked)], ['StampedWriter']);
    const second: RestPlugin = { name: 'second-filler', setup: (app) => app.fillComponents(() => undefined) };
    t.throws(() => new RestBuilder().use(second).register(Stamped).build(), {
      message: /plugin second-filler fills components, but injection already does \(one per app\)/,
    });
  },
);
