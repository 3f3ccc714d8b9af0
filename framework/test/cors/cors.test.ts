import test from 'ava';
import { GET, Path, POST, RestBuilder, RestRouter } from '../../src/index';
import { loadUws } from '../../src/adapter/load-uws';
import { listen, type RunningServer } from '../support/server';
import { rawRequest } from '../support/raw-http';

@Path('/api')
class ItemsResource {
  @GET
  @Path('/items')
  items(): string[] {
    return ['a', 'b'];
  }

  @POST
  @Path('/items')
  add(): string {
    return 'added';
  }
}

async function serve(builder: RestBuilder): Promise<RunningServer> {
  return listen(builder.register(ItemsResource).build());
}

function preflight(url: string, origin: string, method: string, headers?: string): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      ...(headers ? { 'access-control-request-headers': headers } : {}),
    },
  });
}

test('preflight from an allowed origin: 204 with origin, methods, headers, credentials, max age and Vary: Origin', async (t) => {
  const server = await serve(
    new RestBuilder().enableCors(
      'https://(www\\.)?example\\.com',
      true,
      600,
      ['Content-Type', 'Authorization'],
      ['GET', 'POST'],
    ),
  );
  try {
    const res = await preflight(
      `${server.url}/api/items`,
      'https://www.example.com',
      'POST',
      'content-type, authorization',
    );
    t.is(res.status, 204);
    t.is(res.headers.get('access-control-allow-origin'), 'https://www.example.com');
    t.is(res.headers.get('access-control-allow-credentials'), 'true');
    t.is(res.headers.get('access-control-allow-methods'), 'GET, POST');
    t.is(res.headers.get('access-control-allow-headers'), 'Content-Type, Authorization');
    t.is(res.headers.get('access-control-max-age'), '600');
    t.regex(res.headers.get('vary') ?? '', /Origin/);
    t.is(await res.text(), '');
  } finally {
    server.close();
  }
});

test('preflight refusals: another origin, a method or a header not allowed get 403 without CORS headers', async (t) => {
  const server = await serve(
    new RestBuilder().enableCors('https://example\\.com', false, undefined, ['Content-Type'], ['GET']),
  );
  try {
    const cases: Array<[string, string, string | undefined, RegExp]> = [
      ['https://evil.example', 'GET', undefined, /origin https:\/\/evil\.example is not allowed/],
      // The pattern matches the whole origin: a suffix or prefix trick does not pass.
      ['https://example.com.evil.io', 'GET', undefined, /not allowed/],
      ['http://https://example.com', 'GET', undefined, /not allowed/],
      ['https://example.com', 'DELETE', undefined, /method DELETE is not allowed; allowed: GET/],
      ['https://example.com', 'GET', 'content-type, x-secret', /header x-secret is not allowed/],
    ];
    for (const [origin, method, headers, message] of cases) {
      const res = await fetch(`${server.url}/api/items`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': method,
          accept: 'application/json',
          ...(headers ? { 'access-control-request-headers': headers } : {}),
        },
      });
      t.is(res.status, 403, `${origin} ${method} ${headers}`);
      t.is(res.headers.get('access-control-allow-origin'), null);
      const body = (await res.json()) as { code: string; message: string };
      t.is(body.code, 'RU_ERR_CORS');
      t.regex(body.message, message);
    }
  } finally {
    server.close();
  }
});

test('actual requests: allowed origin gets the headers, a disallowed one gets none but still Vary: Origin', async (t) => {
  const server = await serve(
    new RestBuilder().enableCors({ origin: /https:\/\/app\.test/, exposedHeaders: ['X-Total'] }),
  );
  try {
    const ok = await fetch(`${server.url}/api/items`, { headers: { origin: 'https://app.test' } });
    t.is(ok.status, 200);
    t.deepEqual(await ok.json(), ['a', 'b']);
    t.is(ok.headers.get('access-control-allow-origin'), 'https://app.test');
    t.is(ok.headers.get('access-control-expose-headers'), 'X-Total');
    t.is(ok.headers.get('access-control-allow-credentials'), null);
    t.regex(ok.headers.get('vary') ?? '', /Origin/);

    const other = await fetch(`${server.url}/api/items`, { headers: { origin: 'https://other.test' } });
    t.is(other.status, 200);
    t.is(other.headers.get('access-control-allow-origin'), null);
    t.is(other.headers.get('access-control-expose-headers'), null);
    t.regex(other.headers.get('vary') ?? '', /Origin/);

    const noOrigin = await fetch(`${server.url}/api/items`);
    t.is(noOrigin.headers.get('access-control-allow-origin'), null);

    // An empty Origin names no origin: answered as a same-origin request, no CORS headers and no Vary.
    const empty = await rawRequest(
      server.port,
      'GET /api/items HTTP/1.1\r\nHost: x\r\nOrigin:\r\nConnection: close\r\n\r\n',
    );
    t.regex(empty.text, /^HTTP\/1\.1 200 /);
    t.notRegex(empty.text, /access-control-|vary:/i);
  } finally {
    server.close();
  }
});

test('errors and 404s from an allowed origin carry the CORS headers too (so the browser can read them)', async (t) => {
  const server = await serve(new RestBuilder().enableCors('https://app\\.test'));
  try {
    const missing = await fetch(`${server.url}/nowhere`, { headers: { origin: 'https://app.test' } });
    t.is(missing.status, 404);
    t.is(missing.headers.get('access-control-allow-origin'), 'https://app.test');
    const wrongMethod = await fetch(`${server.url}/api/items`, {
      method: 'DELETE',
      headers: { origin: 'https://app.test' },
    });
    t.is(wrongMethod.status, 405);
    t.is(wrongMethod.headers.get('access-control-allow-origin'), 'https://app.test');
  } finally {
    server.close();
  }
});

test('"*" without credentials answers "*"; with credentials it echoes the origin instead, never "*"', async (t) => {
  const open = await serve(new RestBuilder().enableCors('*'));
  const withCredentials = await listen(new RestBuilder().register(ItemsResource).enableCors('*', true).build());
  try {
    const a = await fetch(`${open.url}/api/items`, { headers: { origin: 'https://anyone.test' } });
    t.is(a.headers.get('access-control-allow-origin'), '*');
    const p = await preflight(`${open.url}/api/items`, 'https://anyone.test', 'PUT', 'x-custom');
    t.is(p.status, 204);
    t.is(p.headers.get('access-control-allow-origin'), '*');
    // Empty lists mean all: every method, and the headers the browser asked for.
    t.is(p.headers.get('access-control-allow-methods'), 'GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS');
    t.is(p.headers.get('access-control-allow-headers'), 'x-custom');

    const b = await fetch(`${withCredentials.url}/api/items`, { headers: { origin: 'https://anyone.test' } });
    t.is(b.headers.get('access-control-allow-origin'), 'https://anyone.test');
    t.is(b.headers.get('access-control-allow-credentials'), 'true');
    t.regex(b.headers.get('vary') ?? '', /Origin/);
  } finally {
    open.close();
    withCredentials.close();
  }
});

test('an OPTIONS request without Access-Control-Request-Method is not a preflight: routing answers it', async (t) => {
  const server = await serve(new RestBuilder().enableCors('https://app\\.test'));
  try {
    const res = await fetch(`${server.url}/api/items`, { method: 'OPTIONS', headers: { origin: 'https://app.test' } });
    t.is(res.status, 204);
    t.is(res.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
    t.is(res.headers.get('access-control-allow-origin'), 'https://app.test');
  } finally {
    server.close();
  }
});

test('RestRouter.enableCors(app, ...) works on an app registered with RestRouter.register; enabling again replaces the policy', async (t) => {
  const app = loadUws().App();
  RestRouter.register(app, ItemsResource);
  RestRouter.enableCors(app, 'https://one\\.test');
  RestRouter.enableCors(app, 'https://two\\.test', false, 60);
  const server = await listen(app);
  try {
    const one = await preflight(`${server.url}/api/items`, 'https://one.test', 'GET');
    t.is(one.status, 403);
    const two = await preflight(`${server.url}/api/items`, 'https://two.test', 'GET');
    t.is(two.status, 204);
    t.is(two.headers.get('access-control-max-age'), '60');
    const vary = two.headers.get('vary') ?? '';
    t.is(vary.split(',').filter((v) => v.trim() === 'Origin').length, 1, 'one handler, one Vary: Origin');
  } finally {
    server.close();
  }
});

test('bad CORS settings fail at configuration time with a clear message', (t) => {
  t.throws(() => new RestBuilder().enableCors(''), { message: /needs an origin pattern/ });
  t.throws(() => new RestBuilder().enableCors('https://(unclosed'), { message: /invalid origin pattern/ });
  t.throws(() => new RestBuilder().enableCors('*', false, -1), { message: /maxAgeSeconds/ });
  t.throws(() => new RestBuilder().enableCors('*', false, 10, ['Bad Header']), { message: /not a valid header name/ });
  t.throws(() => RestRouter.enableCors(undefined as never, '*'), { message: /uWebSockets.js app first/ });
});
