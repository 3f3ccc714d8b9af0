import test from 'ava';
import {
  Authenticate,
  GET,
  health,
  Path,
  RestBuilder,
  startServer,
  type Logger,
  type RestAuthenticationProvider,
  type User,
} from '../../src/index';
import { runtimeOf } from '../../src/adapter/uws-adapter';
import { openRaw } from '../support/raw-http';
import { listen } from '../support/server';

function recordingLogger(): Logger & { lines: Array<{ level: string; obj: any; msg?: string }> } {
  const lines: Array<{ level: string; obj: any; msg?: string }> = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** Refuses everyone: the health endpoints must not go through it. */
class NobodyGetsIn implements RestAuthenticationProvider<string> {
  provideCredentials(): string | null {
    return null;
  }
  authenticate(): User | null {
    return null;
  }
}

@Path('/api')
@Authenticate(NobodyGetsIn)
class Secured {
  @GET
  @Path('/secret')
  secret(): string {
    return 'secret';
  }
}

/** A dependency the test switches: up, down (rejects), or hung (never settles until released). */
class Dependency {
  state: 'up' | 'down' | 'false' | 'hung' = 'up';
  calls = 0;
  private release: (() => void) | null = null;
  check = (): unknown => {
    this.calls++;
    if (this.state === 'down') return Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432'));
    if (this.state === 'false') return false;
    if (this.state === 'hung') return new Promise<void>((resolve) => (this.release = resolve));
    return Promise.resolve();
  };
  unblock(): void {
    this.release?.();
  }
}

test('GET /health answers 200 {"status":"ok"}, uncached, with no route, no authentication, no access log line', async (t) => {
  const logger = recordingLogger();
  const server = await listen(
    new RestBuilder()
      .logger(logger)
      .logRequests()
      .authenticateWith(NobodyGetsIn)
      .register(Secured)
      .use(health())
      .build(),
  );
  t.teardown(server.close);
  const res = await fetch(`${server.url}/health`);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/json');
  t.is(res.headers.get('cache-control'), 'no-store');
  t.deepEqual(await res.json(), { status: 'ok' });
  const head = await fetch(`${server.url}/health`, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(await head.text(), '');
  // Without checks, readiness is ready.
  t.deepEqual(await (await fetch(`${server.url}/ready`)).json(), { status: 'ok' });
  // The app's routes are still guarded; other methods and paths go on to routing.
  t.is((await fetch(`${server.url}/api/secret`)).status, 401);
  t.is((await fetch(`${server.url}/health`, { method: 'POST' })).status, 404);
  t.is((await fetch(`${server.url}/health/`)).status, 404);
  const logged = logger.lines
    .filter((l) => l.msg === 'request')
    .map((l) => `${l.obj.method} ${l.obj.path} ${l.obj.status}`);
  t.deepEqual(logged, ['GET /api/secret 401', 'POST /health 404', 'GET /health/ 404']);
});

test('GET /ready runs every check: 200 when all pass, 503 naming the failed one (its error logged, not sent)', async (t) => {
  const database = new Dependency();
  const cache = new Dependency();
  const logger = recordingLogger();
  const server = await listen(
    new RestBuilder()
      .logger(logger)
      .use(
        health({
          checks: [
            { name: 'database', check: database.check },
            { name: 'cache', check: cache.check },
          ],
        }),
      )
      .build(),
  );
  t.teardown(server.close);
  let res = await fetch(`${server.url}/ready`);
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { status: 'ok', checks: { database: 'ok', cache: 'ok' } });

  database.state = 'down';
  res = await fetch(`${server.url}/ready`);
  t.is(res.status, 503);
  const body = await res.text();
  t.deepEqual(JSON.parse(body), {
    status: 'unavailable',
    failed: ['database'],
    checks: { database: 'failed', cache: 'ok' },
  });
  t.notRegex(body, /ECONNREFUSED|10\.0\.0\.5/);
  cache.state = 'false';
  res = await fetch(`${server.url}/ready`);
  t.deepEqual(await res.json(), {
    status: 'unavailable',
    failed: ['database', 'cache'],
    checks: { database: 'failed', cache: 'failed' },
  });
  // Liveness does not depend on the checks.
  t.is((await fetch(`${server.url}/health`)).status, 200);

  database.state = 'up';
  cache.state = 'up';
  t.is((await fetch(`${server.url}/ready`)).status, 200);
  // Changes of state are logged once each, with the error; the repeated failure is not logged again.
  t.deepEqual(
    logger.lines.map((l) => [l.level, l.msg, l.obj.check]),
    [
      ['warn', 'readiness check failed', 'database'],
      ['warn', 'readiness check failed', 'cache'],
      ['info', 'readiness check passes again', 'database'],
      ['info', 'readiness check passes again', 'cache'],
    ],
  );
  t.regex(String(logger.lines[0]!.obj.err?.message), /ECONNREFUSED/);
});

test('a hung check answers 503 after its timeout; a flood of probes calls it once, not once per probe', async (t) => {
  const database = new Dependency();
  database.state = 'hung';
  const logger = recordingLogger();
  const server = await listen(
    new RestBuilder()
      .logger(logger)
      .use(health({ checks: [{ name: 'database', check: database.check, timeoutMs: 200 }] }))
      .build(),
  );
  t.teardown(server.close);
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      fetch(`${server.url}/ready`).then(async (r) => [r.status, await r.json()] as const),
    ),
  );
  for (const [status, body] of answers) {
    t.is(status, 503);
    t.deepEqual(body, { status: 'unavailable', failed: ['database'], checks: { database: 'timed out after 200 ms' } });
  }
  // Still hung: the next probe waits on the same call.
  t.is((await fetch(`${server.url}/ready`)).status, 503);
  t.is(database.calls, 1);
  t.like(logger.lines, [
    { level: 'warn', msg: 'readiness check failed', obj: { check: 'database', outcome: 'timed out after 200 ms' } },
  ]);
  database.state = 'up';
  database.unblock();
  // Released, the hung call is over: the next probe calls the check again.
  const res = await fetch(`${server.url}/ready`);
  t.is(res.status, 200);
  t.is(database.calls, 2);
});

test('a check that throws synchronously fails; paths and timeouts are options checked up front', async (t) => {
  const server = await listen(
    new RestBuilder()
      .logger(recordingLogger())
      .use(
        health({
          healthPath: '/livez',
          readyPath: '/readyz',
          checks: [
            {
              name: 'config',
              check: () => {
                throw new Error('missing key');
              },
            },
          ],
        }),
      )
      .build(),
  );
  t.teardown(server.close);
  t.is((await fetch(`${server.url}/livez`)).status, 200);
  const res = await fetch(`${server.url}/readyz`);
  t.is(res.status, 503);
  t.deepEqual(await res.json(), { status: 'unavailable', failed: ['config'], checks: { config: 'failed' } });
  t.is((await fetch(`${server.url}/health`)).status, 404);

  t.throws(() => health({ healthPath: 'health' }), { message: /healthPath must be a path starting with \// });
  t.throws(() => health({ healthPath: '/x', readyPath: '/x' }), { message: /both \/x/ });
  t.throws(() => health({ timeoutMs: 0 }), { message: /timeoutMs must be a whole number/ });
  t.throws(
    () =>
      new RestBuilder()
        .use(
          health({
            checks: [
              { name: 'a', check: () => 1 },
              { name: 'a', check: () => 1 },
            ],
          }),
        )
        .build(),
    { message: /two readiness checks are named "a"/ },
  );
  t.throws(() => new RestBuilder().use(health({ checks: [{ name: 'a', check: () => 1, timeoutMs: -5 }] })).build(), {
    message: /check a: timeoutMs/,
  });
});

test('readiness answers 503 once the server begins shutting down, while a request in flight still finishes', async (t) => {
  let finish = null as (() => void) | null;
  @Path('/work')
  class Work {
    @GET
    async work(): Promise<string> {
      await new Promise<void>((resolve) => (finish = resolve));
      return 'done';
    }
  }
  const server = await startServer(new RestBuilder().use(health()).register(Work), { port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${server.port}`;
  // A keep-alive connection, opened before the shutdown: a load balancer's probe connection.
  const probe = openRaw(server.port, 'GET /ready HTTP/1.1\r\nHost: x\r\n\r\n');
  await probe.received((text) => text.includes('{"status":"ok"}'));
  const inFlight = fetch(`${url}/work`);
  while (finish === null) await new Promise((resolve) => setImmediate(resolve));
  const stopping = server.shutdown(5000);
  // The server no longer listens, and drains: the probe's next request on its open connection sees 503.
  probe.write('GET /ready HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  const text = await probe.received((t2) => t2.includes('shutting down'));
  t.regex(text, /HTTP\/1\.1 503 Service Unavailable[\s\S]*\{"status":"shutting down"\}/);
  finish!();
  t.is(await (await inFlight).text(), 'done');
  t.like(await stopping, { inFlight: 1, unfinished: 0 });
  probe.destroy();
});

test('nothing is installed without health(): no request hook', (t) => {
  t.is(runtimeOf(new RestBuilder().register(Secured).build())!.hooks.onRequest, null);
  t.not(runtimeOf(new RestBuilder().register(Secured).use(health()).build())!.hooks.onRequest, null);
});
