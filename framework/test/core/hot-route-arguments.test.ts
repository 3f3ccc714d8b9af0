/**
 * A route answers its thousandth-and-later requests exactly as its first: whatever the framework learns or decides
 * about a route while serving it, no argument kind may read differently once the route is hot. Every argument kind
 * the docs name (docs/reference/arguments.md, context.md, static-files-and-uploads.md) is driven well past the
 * point where anything could change (1,500 requests a route, over real HTTP), and every answer is compared with
 * the first one of its kind: status, Content-Type, the headers the route sets, and the body.
 */
import test from 'ava';
import 'reflect-metadata';
import {
  BeanParam,
  BodyParam,
  Context,
  CookieParam,
  FormParam,
  GET,
  HeaderParam,
  HttpServerRequest,
  HttpServerResponse,
  MatrixParam,
  Path,
  PathParam,
  PermitAll,
  POST,
  Produces,
  QueryParam,
  RestBuilder,
  RouteDefinition,
  RoutingContext,
  User,
  UwsApp,
  type RestAuthenticationProvider,
} from '../../src/index';
import { listen } from '../support/server';
import { multipartBody, tempFolder } from '../uploads/support';

/** Requests per route: far past the 1,000 at which routes once changed their code, and any such threshold. */
const ROUNDS = 1500;

class Tenant {
  constructor(readonly id: string) {}
}
class RequestMark {
  readonly mark = 'provided';
}

class Paging {
  @QueryParam('offset') offset!: number;
  @HeaderParam('x-limit') limit!: number;
  @CookieParam('sort') sort!: string;
}

class PhotoForm {
  @FormParam('title') title!: string;
  @FormParam('tag') tags!: string[];
  @HeaderParam('x-album') album!: string;
}

class Line {
  sku!: string;
  quantity!: number;
}

class Header implements RestAuthenticationProvider<string> {
  provideCredentials(ctx: RoutingContext): string | null {
    return ctx.request.getHeader('x-user') ?? null;
  }
  authenticate(name: string): User {
    return new User(name, ['reader']);
  }
}

@Path('/kinds')
@PermitAll // credentials optional: the user is read where given (the context route)
class Kinds {
  @GET
  @Path('/path/{id}/{name}')
  pathParams(@PathParam('id') id: number, @PathParam('name') name: string) {
    return { id, name };
  }

  @GET
  @Path('/query')
  query(@QueryParam('n') n: number, @QueryParam('tag') tags: string[], @QueryParam('q') q: string) {
    return { n, tags, q };
  }

  @GET
  @Path('/header')
  header(@HeaderParam('x-count') count: number, @HeaderParam('x-list') list: string[]) {
    return { count, list };
  }

  @GET
  @Path('/cookie')
  cookie(@CookieParam('session') session: string, @CookieParam('n') n: number) {
    return { session, n };
  }

  @GET
  @Path('/matrix/{make}')
  matrix(
    @PathParam('make') make: string,
    @MatrixParam('color') color: string,
    @MatrixParam('door', { type: [Number] }) doors: number[],
  ) {
    return { make, color, doors };
  }

  @GET
  @Path('/bean')
  bean(@BeanParam paging: Paging) {
    return { paging, isPaging: paging instanceof Paging };
  }

  @POST
  @Path('/json')
  @Produces('application/json')
  json(body: Line) {
    return { sku: body.sku, quantity: body.quantity, proto: Object.getPrototypeOf(body) === Line.prototype };
  }

  @POST
  @Path('/urlencoded')
  urlencoded(@FormParam('title') title: string, @FormParam('tag') tags: string[]) {
    return { title, tags };
  }

  @POST
  @Path('/urlencoded-body')
  urlencodedBody(@BodyParam() form: Record<string, unknown>) {
    return { form };
  }

  @POST
  @Path('/form')
  form(@FormParam('title') title: string, @FormParam('tag') tags: string[]) {
    return { title, tags };
  }

  @POST
  @Path('/photos')
  photos(@FormParam('title') title: string, @FormParam('tag') tags: string[], @Context() ctx: RoutingContext) {
    return {
      title,
      tags,
      files: ctx.fileUploads().map((f) => ({ field: f.fieldName, name: f.fileName, size: f.size })),
    };
  }

  @POST
  @Path('/photo-bean')
  photoBean(@BeanParam form: PhotoForm, @Context() ctx: RoutingContext) {
    return { form, files: ctx.fileUploads().length };
  }

  @GET
  @Path('/context/{id}')
  context(
    @Context() request: HttpServerRequest,
    @Context() response: HttpServerResponse,
    @Context() ctx: RoutingContext,
    @Context() route: RouteDefinition,
    @Context() app: UwsApp,
    @Context() user: User,
    @Context() tenant: Tenant,
    @Context() mark: RequestMark,
  ) {
    response.putHeader('x-seen', request.getParam('id') ?? 'none');
    return {
      method: request.method(),
      path: request.path(),
      route: `${route.method} ${route.path}`,
      sameRoute: ctx.route() === route,
      app: typeof app === 'object' && app !== null,
      user: user.name,
      tenant: tenant.id,
      mark: mark.mark,
    };
  }
}

interface Seen {
  status: number;
  type: string | null;
  seen: string | null;
  body: string;
}

type Ask = () => { path: string; init?: RequestInit };

const BOUNDARY = 'hot-route-boundary';
const multipart = (parts: Parameters<typeof multipartBody>[1]): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  body: multipartBody(BOUNDARY, parts),
});
const fields = [
  { name: 'title', content: 'Holiday' },
  { name: 'tag', content: 'sea' },
  { name: 'tag', content: 'sun' },
];
const urlencoded = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body,
});

/** Each kind with the request (or the requests of several shapes, taken in turn) that exercises it. */
const KINDS: Record<string, Ask[]> = {
  path: [() => ({ path: '/kinds/path/42/ada' })],
  query: [() => ({ path: '/kinds/query?n=7&tag=a&tag=b&q=caf%C3%A9+au+lait' })],
  header: [() => ({ path: '/kinds/header', init: { headers: { 'x-count': '3', 'x-list': 'a, b,c' } } })],
  cookie: [() => ({ path: '/kinds/cookie', init: { headers: { cookie: 'session=abc; n=5' } } })],
  matrix: [() => ({ path: '/kinds/matrix/bmw;color=red;door=2;door=4' })],
  bean: [() => ({ path: '/kinds/bean?offset=10', init: { headers: { 'x-limit': '20', cookie: 'sort=newest' } } })],
  json: [
    () => ({
      path: '/kinds/json',
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sku: 'AB-1', quantity: 3 }),
      },
    }),
  ],
  'url-encoded form': [() => ({ path: '/kinds/urlencoded', init: urlencoded('title=Holiday&tag=sea&tag=sun') })],
  'url-encoded body': [() => ({ path: '/kinds/urlencoded-body', init: urlencoded('a=1&b=two') })],
  // Url-encoded and multipart in turn on one route: neither kind may change how the other is read.
  'multipart form, beside url-encoded': [
    () => ({ path: '/kinds/form', init: multipart(fields) }),
    () => ({ path: '/kinds/form', init: urlencoded('title=Holiday&tag=sea&tag=sun') }),
  ],
  'multipart with files': [
    () => ({
      path: '/kinds/photos',
      init: multipart([
        ...fields,
        { name: 'photo', fileName: 'beach.jpg', type: 'image/jpeg', content: Buffer.alloc(2048, 7) },
      ]),
    }),
  ],
  'bean fields from a multipart form': [
    () => ({
      path: '/kinds/photo-bean',
      init: {
        ...multipart([...fields, { name: 'photo', fileName: 'a.png', type: 'image/png', content: 'png' }]),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-album': 'summer' },
      },
    }),
  ],
  context: [() => ({ path: '/kinds/context/9', init: { headers: { 'x-user': 'ada', 'x-tenant': 't-1' } } })],
};

function same(a: Seen, b: Seen): boolean {
  return a.status === b.status && a.type === b.type && a.seen === b.seen && a.body === b.body;
}

async function ask(url: string, asked: ReturnType<Ask>): Promise<Seen> {
  const res = await fetch(url + asked.path, asked.init);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    seen: res.headers.get('x-seen'),
    body: await res.text(),
  };
}

test('every argument kind reads the same on a route’s last request as on its first', async (t) => {
  // About 20,000 requests over HTTP: minutes on a loaded 2-core machine.
  t.timeout(600_000);
  const uploads = tempFolder('hot-route');
  const app = new RestBuilder()
    .bodyHandler({ uploadsDirectory: uploads })
    .authenticateWith(Header)
    .addProvider(Tenant, (request: HttpServerRequest) => new Tenant(request.getHeader('x-tenant') ?? 'none'))
    .provide({ provide: () => new RequestMark() })
    .register(Kinds)
    .build();
  const server = await listen(app);
  try {
    const firsts = new Map<string, Seen[]>();
    /** The first answer that differs from the first of its kind, per kind (thousands of the same say nothing more). */
    const changed: Array<{ kind: string; request: number; first: Seen; now: Seen }> = [];
    await Promise.all(
      Object.entries(KINDS).map(async ([kind, asks]) => {
        const first: Seen[] = [];
        firsts.set(kind, first);
        for (let i = 0; i < ROUNDS; i++) {
          const which = i % asks.length;
          const seen = await ask(server.url, asks[which]!());
          if (i < asks.length) first.push(seen);
          else if (!same(seen, first[which]!)) {
            changed.push({ kind, request: i + 1, first: first[which]!, now: seen });
            return;
          }
        }
      }),
    );
    t.deepEqual(changed, [], 'every answer equals the first of its kind');
    // The first answers are the right ones (a route that failed from the start would pass the comparison).
    const bodies = (kind: string) => firsts.get(kind)?.map((s) => [s.status, JSON.parse(s.body)]);
    t.deepEqual(bodies('path'), [[200, { id: 42, name: 'ada' }]]);
    t.deepEqual(bodies('query'), [[200, { n: 7, tags: ['a', 'b'], q: 'café au lait' }]]);
    t.deepEqual(bodies('header'), [[200, { count: 3, list: ['a', 'b', 'c'] }]]);
    t.deepEqual(bodies('cookie'), [[200, { session: 'abc', n: 5 }]]);
    t.deepEqual(bodies('matrix'), [[200, { make: 'bmw', color: 'red', doors: [2, 4] }]]);
    t.deepEqual(bodies('bean'), [[200, { paging: { offset: 10, limit: 20, sort: 'newest' }, isPaging: true }]]);
    t.deepEqual(bodies('json'), [[200, { sku: 'AB-1', quantity: 3, proto: true }]]);
    t.deepEqual(bodies('url-encoded form'), [[200, { title: 'Holiday', tags: ['sea', 'sun'] }]]);
    t.deepEqual(bodies('url-encoded body'), [[200, { form: { a: '1', b: 'two' } }]]);
    t.deepEqual(bodies('multipart form, beside url-encoded'), [
      [200, { title: 'Holiday', tags: ['sea', 'sun'] }],
      [200, { title: 'Holiday', tags: ['sea', 'sun'] }],
    ]);
    t.deepEqual(bodies('multipart with files'), [
      [200, { title: 'Holiday', tags: ['sea', 'sun'], files: [{ field: 'photo', name: 'beach.jpg', size: 2048 }] }],
    ]);
    t.deepEqual(bodies('bean fields from a multipart form'), [
      [200, { form: { title: 'Holiday', tags: ['sea', 'sun'], album: 'summer' }, files: 1 }],
    ]);
    t.deepEqual(bodies('context'), [
      [
        200,
        {
          method: 'GET',
          path: '/kinds/context/9',
          route: 'GET /kinds/context/{id}',
          sameRoute: true,
          app: true,
          user: 'ada',
          tenant: 't-1',
          mark: 'provided',
        },
      ],
    ]);
    t.is(firsts.get('context')![0]!.seen, '9');
    t.is(firsts.get('json')![0]!.type, 'application/json');
  } finally {
    server.close();
  }
});
