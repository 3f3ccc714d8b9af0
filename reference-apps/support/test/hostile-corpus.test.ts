import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { openDatabase } from '../src/index';
import {
  buildCorpus,
  changedTables,
  RawHttpConnection,
  routesFromOpenApi,
  runCorpus,
  snapshotDatabase,
  type CorpusRoute,
  type RawRequest,
} from '../src/testing/index';

// The corpus machinery itself: the raw client reads answers right, the cases are deterministic and cover every part
// of a route, and the judge catches each way an app can fail (5xx, accepting bad input, a refusal without a message,
// a refused request that changes stored data, a hang). The apps' own corpus tests rely on all of this.

const DOCUMENT = {
  openapi: '3.1.0',
  paths: {
    '/items': {
      post: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/NewItem' } } } },
        security: [{ key: [] }],
      },
      get: { parameters: [{ name: 'limit', in: 'query' }] },
    },
    '/items/{id}': { get: { parameters: [{ name: 'id', in: 'path' }] } },
  },
  components: {
    schemas: {
      NewItem: {
        type: 'object',
        properties: { name: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
        required: ['name'],
      },
    },
  },
};

async function listening(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

test('the raw client reads Content-Length, chunked, 100 Continue, HEAD and closed answers, and reports bytes after an answer', async (t) => {
  const answers: Record<string, string> = {
    '/length': 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello',
    '/chunked': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n',
    '/continue': 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
    '/head': 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n',
    '/extra': 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n',
    '/close': 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbad',
  };
  const server = net.createServer((socket) => {
    socket.on('data', (data) => {
      const target = /^\w+ (\S+)/.exec(data.toString('latin1'))?.[1] ?? '';
      if (target === '/silent') return;
      if (target === '/hangup') return void socket.destroy();
      socket.write(answers[target] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      if (target === '/close') socket.end();
    });
  });
  const port = await listening(server);
  t.teardown(() => server.close());
  const connection = new RawHttpConnection('127.0.0.1', port);
  t.teardown(() => connection.close());
  const get = (target: string, method = 'GET', timeoutMs?: number) =>
    connection.exchange({ method, target, headers: [] }, timeoutMs);

  t.is((await get('/length')).answer?.body.toString(), 'hello');
  t.is((await get('/chunked')).answer?.body.toString(), 'hello');
  t.is((await get('/continue')).answer?.status, 201);
  const head = await get('/head', 'HEAD');
  t.is(head.answer?.body.length, 0);
  t.false(head.closed);
  const extra = await get('/extra');
  t.is(extra.answer?.body.toString(), 'ok');
  t.regex(extra.extra.toString(), /^HTTP\/1\.1 201/);
  const closed = await get('/close');
  t.is(closed.answer?.status, 400);
  t.true(closed.closed);
  const hangup = await get('/hangup');
  t.is(hangup.answer, undefined);
  t.true(hangup.closed);
  t.true((await get('/silent', 'GET', 200)).timedOut);
  t.is((await get('/length')).answer?.status, 200, 'a new connection after each close');
});

test('the corpus is the same for the same seed, covers every part of every route, and a new route is attacked without a sample', (t) => {
  const routes = routesFromOpenApi(DOCUMENT);
  t.deepEqual(
    routes.map((route) => route.key),
    ['GET /items', 'POST /items', 'GET /items/{id}'],
  );
  t.true(routes[1].secured);
  const plan = {
    routes,
    document: DOCUMENT,
    sample: () => undefined,
    auth: { valid: [['Authorization', 'Bearer k_123456'] as const] },
    bodyLimit: 4096,
    seed: 7,
  };
  const first = buildCorpus(plan);
  const again = buildCorpus(plan);
  t.deepEqual(JSON.stringify(first), JSON.stringify(again));
  t.notDeepEqual(
    JSON.stringify(buildCorpus({ ...plan, seed: 8 })),
    JSON.stringify(first),
    'the seed changes the random strings',
  );
  const kinds = (key: string) => new Set(first.filter((entry) => entry.route === key).map((entry) => entry.kind));
  t.deepEqual([...kinds('POST /items')].sort(), [
    'auth',
    'baseline',
    'deep',
    'fields',
    'framing',
    'headers',
    'malformed',
    'media',
    'query',
    'size',
  ]);
  t.true(kinds('GET /items').has('method'), 'other methods tried once per path');
  t.true(kinds('GET /items/{id}').has('path'));
  t.false(kinds('GET /items').has('auth'), 'auth only where the document asks for it');
  // Without a sample, the body comes from the schema: the required field, of its type.
  const baseline = first.find((entry) => entry.route === 'POST /items' && entry.kind === 'baseline')!;
  t.is((baseline.request as { body: Buffer }).body.toString(), '{"name":"x"}');
  const named = (route: string, name: string) => first.some((entry) => entry.route === route && entry.name === name);
  t.true(named('POST /items', 'name: NUL inside'));
  t.true(named('POST /items', 'body: __proto__ key'));
  t.true(named('GET /items', 'limit: encoded NUL'));
});

test('the headers a route reads credentials from are attacked like its header parameters, in place of the valid credentials', (t) => {
  const document = {
    openapi: '3.1.0',
    paths: {
      '/a': { get: { security: [{ key: [] }] } },
      '/b': { get: { security: [{ bearer: [] }], parameters: [{ name: 'X-Trace', in: 'header' }] } },
      '/c': { get: {} },
    },
    components: {
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
  const routes = routesFromOpenApi(document);
  t.deepEqual(
    routes.map((route) => [route.key, route.headerParams]),
    [
      ['GET /a', ['x-api-key']],
      ['GET /b', ['x-trace', 'authorization']],
      ['GET /c', []],
    ],
  );
  const plan = {
    routes,
    document,
    sample: () => undefined,
    auth: { valid: [['X-Api-Key', 'k_123456'] as const] },
    bodyLimit: 4096,
    seed: 7,
  };
  const attacks = buildCorpus(plan).filter(
    (entry) => entry.route === 'GET /a' && entry.kind === 'headers' && entry.name.startsWith('x-api-key: '),
  );
  t.true(attacks.length > 10, `${attacks.length} attacks`);
  for (const attack of attacks) {
    const text = (attack.request as RawRequest).headers.filter(([name]) => name.toLowerCase() === 'x-api-key');
    t.is(text.length, 1, `${attack.name}: one X-Api-Key, the hostile one`);
    t.not(String(text[0]![1]), 'k_123456');
  }
});

/**
 * A small JSON API with the faults the judge must catch, each behind a switch: 500 on a NUL in a name, 201 for
 * text/plain, a bare 400 without a message, a refused request that still stores, and a route that never answers.
 */
async function weakServer(faults: {
  crashOnNul?: boolean;
  acceptText?: boolean;
  bareRefusal?: boolean;
  storeWhenRefusing?: boolean;
}) {
  const database = await openDatabase<{ item: { name: string } }>('sqlite::memory:');
  await database.db.schema.createTable('item').addColumn('name', 'text').execute();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const answer = (status: number, body: unknown) => {
        response
          .writeHead(status, { 'Content-Type': 'application/json' })
          .end(body === undefined ? '' : JSON.stringify(body));
      };
      const url = new URL(request.url ?? '/', 'http://x');
      if (request.method === 'GET' && /^\/items(\/[^/]+)?$/.test(url.pathname)) return answer(200, []);
      if (request.method !== 'POST' || url.pathname !== '/items') return answer(404, { message: 'no such route' });
      if (request.headers.authorization !== 'Bearer k_123456') return answer(401, { message: 'bad key' });
      const type = request.headers['content-type'] ?? '';
      let body: { name?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name?: unknown };
      } catch {
        return answer(400, faults.bareRefusal ? undefined : { message: 'malformed JSON' });
      }
      if (!/^application\/json\b/i.test(type) && !(faults.acceptText && type === 'text/plain'))
        return answer(415, { message: 'send JSON' });
      if (typeof body?.name !== 'string') {
        if (faults.storeWhenRefusing) await database.db.insertInto('item').values({ name: 'partial' }).execute();
        return answer(400, { message: 'name must be a string' });
      }
      if (faults.crashOnNul && body.name.includes('\u0000')) return answer(500, { message: 'Internal error' });
      await database.db.insertInto('item').values({ name: body.name }).execute();
      answer(201, { name: body.name });
    });
  });
  const port = await listening(server);
  return {
    port,
    database,
    close: async () => {
      server.close();
      await database.destroy();
    },
  };
}

async function corpusAgainst(faults: Parameters<typeof weakServer>[0]) {
  const server = await weakServer(faults);
  try {
    const routes: CorpusRoute[] = routesFromOpenApi(DOCUMENT).filter((route) => route.key === 'POST /items');
    const cases = buildCorpus({
      routes,
      document: DOCUMENT,
      sample: () => ({ body: { name: 'widget', count: 2 } }),
      auth: { valid: [['Authorization', 'Bearer k_123456']] },
      bodyLimit: 4096,
      seed: 1,
    })
      // node:http answers framing attacks, odd heads and unknown methods itself: keep to what this toy server decides.
      .filter((entry) => ['baseline', 'auth', 'query', 'media', 'malformed', 'deep', 'fields'].includes(entry.kind));
    return await runCorpus({
      app: 'weak',
      host: '127.0.0.1',
      port: server.port,
      cases,
      seed: 1,
      snapshot: () => snapshotDatabase(server.database.db),
      health: { method: 'GET', target: '/items', headers: [] },
      timeoutMs: 2000,
    });
  } finally {
    await server.close();
  }
}

test('the judge catches a 5xx, accepted bad input, a refusal without a message and a refused request that stores', async (t) => {
  const sound = await corpusAgainst({});
  t.deepEqual(sound.failures, [], 'a sound server passes');
  t.true(sound.cases > 100);

  const crash = await corpusAgainst({ crashOnNul: true });
  t.true(
    crash.failures.some((line) => line.includes('name: NUL inside') && line.includes('answered 500')),
    crash.failures.join('\n'),
  );
  const text = await corpusAgainst({ acceptText: true });
  t.true(
    text.failures.some(
      (line) => line.includes('| text/plain:') && line.includes('accepted (201) input that must be refused'),
    ),
    text.failures.join('\n'),
  );
  const bare = await corpusAgainst({ bareRefusal: true });
  t.true(
    bare.failures.some((line) => line.includes('malformed') && line.includes('without a message')),
    bare.failures.join('\n'),
  );
  const store = await corpusAgainst({ storeWhenRefusing: true });
  t.true(
    store.failures.some((line) => line.includes('refused, yet stored data changed (item)')),
    store.failures.join('\n'),
  );
});

test('a SQLite snapshot sees every change, made through its own connection or another, and only then reads the tables again', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-snapshot-'));
  const file = path.join(dir, 'snap.db');
  const app = await openDatabase<{ item: { name: string } }>(file);
  const reader = await openDatabase<{ item: { name: string } }>(file);
  t.teardown(async () => {
    await app.destroy();
    await reader.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await app.db.schema.createTable('item').addColumn('name', 'text').execute();
  const own = () => snapshotDatabase(app.db, { dialect: 'sqlite' });
  const other = () => snapshotDatabase(reader.db, { dialect: 'sqlite' });
  const [ownBefore, otherBefore] = [await own(), await other()];
  t.is(await own(), ownBefore, 'nothing written: the same snapshot, tables not read again');
  await app.db.insertInto('item').values({ name: 'a' }).execute();
  t.deepEqual(changedTables(ownBefore, await own()), ['item']);
  t.deepEqual(changedTables(otherBefore, await other()), ['item']);
  // A write that leaves the rows as they were moves the counters, but is no change.
  const [ownNow, otherNow] = [await own(), await other()];
  await app.db.updateTable('item').set({ name: 'a' }).execute();
  t.deepEqual(changedTables(ownNow, await own()), []);
  t.deepEqual(changedTables(otherNow, await other()), []);
});
