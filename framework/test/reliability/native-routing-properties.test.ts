import 'reflect-metadata';
import test from 'ava';
import fc from 'fast-check';
import {
  Context,
  GET,
  POST,
  Path,
  PUT,
  RestBuilder,
  RestRouter,
  RoutingContext,
  TrieRouter,
  inject,
  type HttpMethod,
  type RouteHolder,
} from '../../src/index';
import { listen } from '../support/server';
import { rawRequest } from '../support/raw-http';

// Routes whose patterns uWebSockets.js's router can express get a native route; the JavaScript router
// (what `inject` drives) stays the reference. Over a real socket, every request must get the answer
// `inject` gives: same route, same variable values, same 404/405/400.

const word = fc.constantFrom('a', 'b', 'users', 'x1', '42', 'me');
const nativeSegment = fc.oneof({ weight: 3, arbitrary: word }, { weight: 2, arbitrary: fc.constant('{p}') });
const nativePatternArb = fc.array(nativeSegment, { minLength: 1, maxLength: 4 });
// Segments only the JavaScript router handles: a regex variable, one spanning `/`, a mixed segment.
const anySegment = fc.oneof(
  { weight: 6, arbitrary: nativeSegment },
  { weight: 1, arbitrary: fc.constantFrom('{p:\\d+}', '{p:.+}', '{p}.json') },
);
const anyPatternArb = fc.array(anySegment, { minLength: 1, maxLength: 4 });
const pathArb = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: word },
      { weight: 1, arbitrary: fc.constantFrom('', 'zz', '%41', 'a%2Fb', 'c;m=1', '%zz', 'me%20') },
    ),
    { minLength: 0, maxLength: 5 },
  )
  .chain((segments) =>
    fc.constantFrom('/' + segments.join('/'), '/' + segments.join('/') + '/', '/' + segments.join('/') + '?q=1'),
  );
const methodArb = fc.constantFrom('GET', 'POST', 'PUT');
const DECORATOR = { GET, POST, PUT } as const;

type Route = { method: 'GET' | 'POST' | 'PUT'; segments: string[] };

function patternOf(segments: string[]): string {
  let n = 0;
  return '/' + segments.map((s) => s.replace('{p', () => `{v${n++}`)).join('/');
}

/** One resource class per route, written the way the decorators would be applied by TypeScript. */
function resourceFor(route: Route, index: number, extra?: string): new () => object {
  class Generated {}
  const prototype = Generated.prototype as unknown as Record<string, unknown>;
  const name = `route${index}`;
  const pattern = extra ?? patternOf(route.segments);
  Object.defineProperty(prototype, name, {
    value: (ctx: RoutingContext) => ({ route: `${route.method} ${pattern}`, values: ctx.request.pathParams() }),
    writable: true,
    configurable: true,
  });
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
  (DECORATOR[route.method] as unknown as MethodDecorator)(prototype, name, descriptor);
  Path(pattern)(prototype, name, descriptor);
  Reflect.defineMetadata('design:paramtypes', [RoutingContext], prototype, name);
  Context()(prototype, name, 0);
  return Generated;
}

function statusAndBody(text: string): { status: number; body: string } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const cut = text.indexOf('\r\n\r\n');
  return { status, body: cut < 0 ? '' : text.slice(cut + 4) };
}

async function compare(
  routes: Route[],
  requests: Array<{ method: string; path: string }>,
  extraPattern?: string,
): Promise<string | undefined> {
  const shapes = new Set<string>();
  const unique = routes.filter((r) => {
    const key = `${r.method} ${r.segments.join('/')}`;
    if (shapes.has(key)) return false;
    shapes.add(key);
    return true;
  });
  const classes = unique.map((route, index) => resourceFor(route, index));
  if (extraPattern !== undefined)
    classes.push(resourceFor({ method: 'GET', segments: [] }, classes.length, extraPattern));
  const app = new RestBuilder().register(...classes).build();
  const server = await listen(app);
  try {
    for (const { method, path } of requests) {
      const expected = await inject(app, { method, url: path });
      const raw = await rawRequest(
        server.port,
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      const got = statusAndBody(raw.text);
      if (got.status !== expected.statusCode || got.body !== expected.body) {
        return `${method} ${path}: socket ${got.status} ${got.body} / inject ${expected.statusCode} ${expected.body}`;
      }
    }
    return undefined;
  } finally {
    server.close();
  }
}

const requestsArb = fc.array(fc.record({ method: methodArb, path: pathArb }), { minLength: 1, maxLength: 8 });
const scenario = fc.record({
  routes: fc.array(fc.record({ method: methodArb, segments: nativePatternArb }), { minLength: 1, maxLength: 8 }),
  requests: requestsArb,
});
const mixedScenario = fc.record({
  routes: fc.array(fc.record({ method: methodArb, segments: anyPatternArb }), { minLength: 1, maxLength: 8 }),
  requests: requestsArb,
});

test('routes in uWebSockets.js’s own router answer exactly as the JavaScript router does', async (t) => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ routes, requests }) => {
      const mismatch = await compare(routes, requests);
      if (mismatch !== undefined) t.log(mismatch);
      return mismatch === undefined;
    }),
    { numRuns: 60 },
  );
  t.pass();
});

/** A path each route matches (`42` fits every kind of variable here), so that routes meet on the same requests. */
function pathsOf(routes: Route[]): Array<{ method: string; path: string }> {
  return routes.map((route) => ({
    method: route.method,
    path: '/' + route.segments.map((s) => (s === '{p}.json' ? '42.json' : s.startsWith('{') ? '42' : s)).join('/'),
  }));
}

test('beside routes only the JavaScript router can match (regex, spanning, mixed segments), answers stay the same', async (t) => {
  await fc.assert(
    fc.asyncProperty(mixedScenario, async ({ routes, requests }) => {
      const mismatch = await compare(routes, [...requests, ...pathsOf(routes)]);
      if (mismatch !== undefined) t.log(mismatch);
      return mismatch === undefined;
    }),
    { numRuns: 80 },
  );
  t.pass();
});

test('a route uWebSockets.js cannot express takes the native routes it may overlap back to the JavaScript router', async (t) => {
  // `{v0:\d+}` would lose to a native `/users/{id}` in uWebSockets.js's router; with it present, GET goes by the JavaScript router.
  await fc.assert(
    fc.asyncProperty(scenario, async ({ routes, requests }) => {
      const mismatch = await compare(
        [{ method: 'GET', segments: ['users', '{p}'] }, ...routes],
        [{ method: 'GET', path: '/users/42' }, ...requests],
        '/users/{v0:\\d+}',
      );
      if (mismatch !== undefined) t.log(mismatch);
      return mismatch === undefined;
    }),
    { numRuns: 30 },
  );
  t.pass();
});

test('a regex route registered after a native one still wins where the JavaScript router says so', async (t) => {
  class Users {
    @GET
    @Path('/users/{name}')
    byName() {
      return 'by name';
    }
  }
  class Numbers {
    @GET
    @Path('/users/{id:\\d+}')
    byId() {
      return 'by id';
    }
  }
  const app = new RestBuilder().register(Users).build();
  const server = await listen(app);
  try {
    t.is(
      statusAndBody(
        (await rawRequest(server.port, 'GET /users/42 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text,
      ).body,
      'by name',
    );
    RestRouter.register(app, Numbers);
    t.is(
      statusAndBody(
        (await rawRequest(server.port, 'GET /users/42 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text,
      ).body,
      'by id',
    );
    t.is(
      statusAndBody(
        (await rawRequest(server.port, 'GET /users/ann HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text,
      ).body,
      'by name',
    );
  } finally {
    server.close();
  }
});

test('an app with a router of its own: every request goes through that router', async (t) => {
  // A subclass that changes `find` says it no longer matches as uWebSockets.js does.
  class CountingRouter<T> extends TrieRouter<T> {
    override readonly matchesLikeUws = false;
    finds = 0;
    override find(method: HttpMethod, path: string) {
      this.finds++;
      return super.find(method, path);
    }
  }
  class Users {
    @GET
    @Path('/users/{id}')
    one() {
      return 'one';
    }
    @GET
    @Path('/hello')
    hello() {
      return 'hello';
    }
  }
  const router = new CountingRouter<RouteHolder>();
  const app = new RestBuilder().router(router).register(Users).build();
  const server = await listen(app);
  try {
    for (const path of ['/users/7', '/hello']) {
      t.is(
        statusAndBody(
          (await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).text,
        ).status,
        200,
      );
    }
    t.is(router.finds, 2);
  } finally {
    server.close();
  }
});

test('many sibling routes: those past the native tree’s limit stay with the JavaScript router, and answers stay the same', async (t) => {
  const siblings: Route[] = Array.from({ length: 60 }, (_, i) => ({
    method: 'GET' as const,
    segments: [`r${i}`, 'x', '{p}'],
  }));
  // The variable route comes first, so it is native; siblings past the limit must take it back to the JavaScript router.
  const routes: Route[] = [
    { method: 'GET', segments: ['{p}', 'x', '{p}'] },
    ...siblings,
    { method: 'GET', segments: ['r59', 'x', 'me'] },
  ];
  const requests = ['/r0/x/1', '/r31/x/2', '/r32/x/3', '/r59/x/4', '/r59/x/me', '/zz/x/5', '/r60/x/6', '/r59/y/7'].map(
    (path) => ({ method: 'GET', path }),
  );
  const mismatch = await compare(routes, requests);
  t.is(mismatch, undefined);
});
