import test from 'ava';
import {
  Authenticate,
  Consumes,
  ForbiddenException,
  GET,
  Handles,
  Max,
  Min,
  Path,
  POST,
  problemDetails,
  Produces,
  QueryParam,
  RestBuilder,
  type ExceptionHandler,
  type HttpServerRequest,
  type HttpServerResponse,
  type Logger,
  type RestAuthenticationProvider,
  type User,
} from '../../src/index';
import { listen, type RunningServer } from '../support/server';

const quiet: Logger = { error() {}, warn() {}, info() {}, debug() {} };

class OutOfStock extends Error {}

@Handles(OutOfStock)
class OutOfStockHandler implements ExceptionHandler<OutOfStock> {
  write(_error: OutOfStock, _request: HttpServerRequest, response: HttpServerResponse): void {
    response.setStatusCode(409).putHeader('content-type', 'application/json').end('{"error":"out of stock"}');
  }
}

class NoCredentials implements RestAuthenticationProvider<string> {
  provideCredentials(): string | null {
    return null;
  }
  authenticate(): User | null {
    return null;
  }
}

@Path('/shop')
class Shop {
  @GET
  @Path('/items')
  items(@QueryParam('limit', { type: Number }) @Min(1) @Max(50) limit: number): number[] {
    return Array.from({ length: limit }, (_, i) => i);
  }

  @POST
  @Path('/items')
  @Consumes('application/json')
  add(body: { name: string }): string {
    return body.name;
  }

  @GET
  @Path('/crash')
  crash(): string {
    throw new Error('connection refused: postgres://admin:hunter2@db.internal');
  }

  @GET
  @Path('/forbidden')
  forbidden(): string {
    throw new ForbiddenException('orders of other partners are not yours');
  }

  @GET
  @Path('/stock')
  stock(): string {
    throw new OutOfStock();
  }

  @GET
  @Path('/private')
  @Authenticate(NoCredentials)
  secret(): string {
    return 'secret';
  }

  @GET
  @Path('/csv')
  @Produces('text/csv')
  csv(): string {
    return 'a,b';
  }
}

async function serve(builder: RestBuilder): Promise<RunningServer> {
  return listen(
    builder.logger(quiet).bodyHandler({ maxBodySize: 100 }).errorHandler(OutOfStockHandler).register(Shop).build(),
  );
}

async function problem(res: Response): Promise<Record<string, unknown>> {
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.json() };
}

test('off by default: the error body keeps its shape', async (t) => {
  const server = await serve(new RestBuilder());
  t.teardown(server.close);
  const res = await fetch(`${server.url}/nowhere`, { headers: { accept: 'application/json' } });
  t.is(res.headers.get('content-type'), 'application/json');
  t.deepEqual(await res.json(), {
    status: 404,
    error: 'Not Found',
    message: 'No route for GET /nowhere',
    code: 'RU_ERR_NOT_FOUND',
  });
});

test('every framework error as application/problem+json: routing, arguments, validation, authentication, bodies, media types', async (t) => {
  const server = await serve(new RestBuilder().use(problemDetails()));
  t.teardown(server.close);
  const get = (path: string, init?: RequestInit) => fetch(server.url + path, init).then(problem);
  const type = 'about:blank';
  const media = 'application/problem+json';

  t.deepEqual(await get('/nowhere'), {
    status: 404,
    contentType: media,
    body: {
      type,
      title: 'Not Found',
      status: 404,
      detail: 'No route for GET /nowhere',
      instance: '/nowhere',
      code: 'RU_ERR_NOT_FOUND',
    },
  });
  const notAllowed = await fetch(`${server.url}/shop/items`, { method: 'DELETE' });
  t.is(notAllowed.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
  t.like(await problem(notAllowed), {
    status: 405,
    contentType: media,
    body: { title: 'Method Not Allowed', status: 405, instance: '/shop/items', code: 'RU_ERR_METHOD_NOT_ALLOWED' },
  });
  t.like(await get('/shop/items'), {
    status: 400,
    body: {
      title: 'Bad Request',
      detail: 'Missing @QueryParam("limit") for: GET /shop/items',
      code: 'RU_ERR_MISSING_ARGUMENT',
    },
  });
  t.like(await get('/shop/items?limit=ten'), { status: 400, body: { code: 'RU_ERR_CONVERSION' } });

  const invalid = await fetch(`${server.url}/shop/items?limit=99`);
  t.is(invalid.headers.get('x-status-reason'), 'Validation failed');
  t.deepEqual(await problem(invalid), {
    status: 400,
    contentType: media,
    body: {
      type,
      title: 'Bad Request',
      status: 400,
      detail: 'Validation failed',
      instance: '/shop/items',
      code: 'RU_ERR_VALIDATION',
      violations: [{ in: 'query', path: 'limit', constraint: 'max', message: 'limit must not be greater than 50' }],
    },
  });

  t.like(await get('/shop/private'), { status: 401, body: { title: 'Unauthorized', code: 'RU_ERR_NO_CREDENTIALS' } });
  t.like(await get('/shop/forbidden'), {
    status: 403,
    body: { detail: 'orders of other partners are not yours', code: 'RU_ERR_FORBIDDEN' },
  });
  t.like(await get('/shop/items', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), {
    status: 415,
    body: { title: 'Unsupported Media Type' },
  });
  t.like(
    await get('/shop/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(200) }),
    }),
    { status: 413, body: { title: 'Payload Too Large', code: 'RU_ERR_PAYLOAD_TOO_LARGE' } },
  );
  t.like(await get('/shop/csv', { headers: { accept: 'application/json' } }), {
    status: 406,
    body: { title: 'Not Acceptable' },
  });
});

test('plugins refusing before routing answer problems too (CORS); the OpenAPI document shows the problem schema', async (t) => {
  const server = await serve(
    new RestBuilder()
      .enableCors({ origin: 'https://shop\\.example' })
      .use(problemDetails())
      .openApi({ title: 'Shop', version: '1' }),
  );
  t.teardown(server.close);
  const refused = await fetch(`${server.url}/shop/items`, {
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
  });
  t.like(await problem(refused), {
    status: 403,
    contentType: 'application/problem+json',
    body: { title: 'Forbidden', code: 'RU_ERR_CORS', instance: '/shop/items' },
  });

  const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as any;
  t.like(document.paths['/shop/items'].get.responses['400'].content['application/problem+json'], {
    schema: { $ref: '#/components/schemas/Problem' },
  });
  t.deepEqual(document.components.schemas.Problem.required, ['type', 'title', 'status', 'instance']);
});

test('internal errors say only their title: no message, no internals', async (t) => {
  const server = await serve(new RestBuilder().use(problemDetails()));
  t.teardown(server.close);
  const res = await fetch(`${server.url}/shop/crash`);
  const text = await res.text();
  t.is(res.status, 500);
  t.deepEqual(JSON.parse(text), {
    type: 'about:blank',
    title: 'Internal Server Error',
    status: 500,
    instance: '/shop/crash',
  });
  t.notRegex(text, /hunter2|postgres|refused/);
});

test("the app's own handlers still answer their errors; a client that takes no JSON gets the message as text", async (t) => {
  const server = await serve(new RestBuilder().use(problemDetails()));
  t.teardown(server.close);
  const stock = await fetch(`${server.url}/shop/stock`);
  t.is(stock.status, 409);
  t.deepEqual(await stock.json(), { error: 'out of stock' });
  const text = await fetch(`${server.url}/nowhere`, { headers: { accept: 'text/html' } });
  t.is(text.headers.get('content-type'), 'text/plain; charset=utf-8');
  t.is(await text.text(), 'No route for GET /nowhere');
});

test('type: a base URI the code is appended to, or a function', async (t) => {
  const base = await serve(new RestBuilder().use(problemDetails({ type: 'https://errors.example.com/' })));
  t.teardown(base.close);
  t.like(await (await fetch(`${base.url}/nowhere`)).json(), { type: 'https://errors.example.com/RU_ERR_NOT_FOUND' });
  t.like(await (await fetch(`${base.url}/shop/crash`)).json(), { type: 'about:blank', title: 'Internal Server Error' });

  const fn = await serve(
    new RestBuilder().use(problemDetails({ type: (status, code) => `urn:problem:${status}:${code ?? 'none'}` })),
  );
  t.teardown(fn.close);
  t.like(await (await fetch(`${fn.url}/shop/items?limit=0`)).json(), { type: 'urn:problem:400:RU_ERR_VALIDATION' });
  t.throws(() => problemDetails({ type: '' }), { message: /type is a base URI or a function/ });
});
