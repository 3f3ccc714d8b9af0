import test from 'ava';
import {
  Authenticate,
  BearerAuthenticationProvider,
  Context,
  GET,
  MemoryRateLimitStore,
  Path,
  RateLimit,
  RestBuilder,
  SkipRateLimit,
  User,
  byHeader,
  byUser,
  rateLimit,
  type RateLimitOptions,
  type RateLimitStore,
} from '../../src/index';
import { listen, type RunningServer } from '../support/server';

/** A clock the tests move by hand: time passes only when a test says so. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

@Path('/')
class Api {
  @GET
  @Path('limited')
  @RateLimit({ limit: 3, windowSeconds: 60 })
  limited() {
    return { ok: true };
  }

  @GET
  @Path('free')
  free() {
    return { ok: true };
  }

  @GET
  @Path('skipped')
  @SkipRateLimit()
  skipped() {
    return { ok: true };
  }
}

@Path('/shared')
@RateLimit({ limit: 2, windowSeconds: 10 })
class SharedBucket {
  @GET
  @Path('a')
  a() {
    return 'a';
  }

  @GET
  @Path('b')
  b() {
    return 'b';
  }
}

async function serve(options: RateLimitOptions, ...resources: Function[]): Promise<RunningServer> {
  // Store failures are logged as errors: kept out of the test output.
  const builder = new RestBuilder().logger({ error() {}, warn() {}, info() {}, debug() {} }).use(rateLimit(options));
  for (const r of resources) builder.register(r as any);
  return listen(builder.build());
}

async function get(server: RunningServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

test('a route over its limit answers 429 with Retry-After and the RateLimit headers; allowed answers carry them too', async (t) => {
  const clock = manualClock();
  const server = await serve({ store: new MemoryRateLimitStore({ now: clock.now }) }, Api);
  t.teardown(() => server.close());
  for (const remaining of [2, 1, 0]) {
    const ok = await get(server, '/limited');
    t.is(ok.status, 200);
    t.is(ok.headers.get('ratelimit-limit'), '3');
    t.is(ok.headers.get('ratelimit-remaining'), String(remaining));
    // 3 per 60 s: each request is 20 s of the bucket; it is full again 20 s per request spent.
    t.is(ok.headers.get('ratelimit-reset'), String((3 - remaining) * 20));
  }
  const refused = await get(server, '/limited');
  t.is(refused.status, 429);
  t.is(refused.headers.get('retry-after'), '20');
  t.is(refused.headers.get('ratelimit-limit'), '3');
  t.is(refused.headers.get('ratelimit-remaining'), '0');
  t.is(refused.headers.get('ratelimit-reset'), '60');
  t.is(refused.json().code, 'RU_ERR_RATE_LIMITED');
  t.regex(refused.json().message, /3 requests per 60 s; retry in 20 s/);

  // A refused request spends nothing: after 20 s exactly one more goes through.
  clock.advance(19_000);
  t.is((await get(server, '/limited')).status, 429);
  clock.advance(1_000);
  const again = await get(server, '/limited');
  t.is(again.status, 200);
  t.is(again.headers.get('ratelimit-remaining'), '0');
  t.is((await get(server, '/limited')).status, 429);
  // After a whole quiet window the bucket is full: a burst of 3 again.
  clock.advance(60_000);
  for (let i = 0; i < 3; i++) t.is((await get(server, '/limited')).status, 200);
});

test('routes without a rule get no headers and are never limited', async (t) => {
  const clock = manualClock();
  const store = new MemoryRateLimitStore({ now: clock.now });
  const server = await serve({ store }, Api);
  t.teardown(() => server.close());
  for (let i = 0; i < 20; i++) {
    const res = await get(server, '/free');
    t.is(res.status, 200);
    t.is(res.headers.get('ratelimit-limit'), null);
  }
  t.is(store.size, 0, 'no key was counted');
});

test('a class-level rule is one bucket for all its routes', async (t) => {
  const server = await serve({ store: new MemoryRateLimitStore({ now: manualClock().now }) }, SharedBucket);
  t.teardown(() => server.close());
  t.is((await get(server, '/shared/a')).status, 200);
  t.is((await get(server, '/shared/b')).status, 200);
  t.is((await get(server, '/shared/a')).status, 429);
  t.is((await get(server, '/shared/b')).status, 429);
});

test('keys: byHeader counts each API key apart, and requests without one by address', async (t) => {
  const server = await serve(
    { key: byHeader('X-Api-Key'), store: new MemoryRateLimitStore({ now: manualClock().now }) },
    Api,
  );
  t.teardown(() => server.close());
  for (let i = 0; i < 3; i++) t.is((await get(server, '/limited', { 'X-Api-Key': 'alice' })).status, 200);
  t.is((await get(server, '/limited', { 'X-Api-Key': 'alice' })).status, 429);
  // Another key has a bucket of its own; so does the address (no key).
  t.is((await get(server, '/limited', { 'X-Api-Key': 'bob' })).status, 200);
  for (let i = 0; i < 3; i++) t.is((await get(server, '/limited')).status, 200);
  t.is((await get(server, '/limited')).status, 429);
  // A key that is the address as text does not share the address's bucket.
  t.is((await get(server, '/limited', { 'X-Api-Key': '127.0.0.1' })).status, 200);
  // Very long keys (over 128 characters) are kept as hashes, apart from each other. 2,000 characters: within the
  // header size both uWebSockets.js builds take (v20.57 answers 431 itself to a header of 4 KB or more).
  const long = 'k'.repeat(2000);
  for (let i = 0; i < 3; i++) t.is((await get(server, '/limited', { 'X-Api-Key': long })).status, 200);
  t.is((await get(server, '/limited', { 'X-Api-Key': long })).status, 429);
  t.is((await get(server, '/limited', { 'X-Api-Key': long + 'x' })).status, 200);
});

test('a global rule covers every route but @SkipRateLimit ones; a route with its own rule answers to both', async (t) => {
  const server = await serve(
    { global: { limit: 5, windowSeconds: 60 }, store: new MemoryRateLimitStore({ now: manualClock().now }) },
    Api,
  );
  t.teardown(() => server.close());
  // /limited (3 of its own) and /free share the global 5.
  for (let i = 0; i < 3; i++) t.is((await get(server, '/limited')).status, 200);
  const fourth = await get(server, '/limited');
  t.is(fourth.status, 429, 'the route rule refuses first');
  t.is(fourth.headers.get('ratelimit-limit'), '3');
  const free = await get(server, '/free');
  t.is(free.status, 200);
  // Global: 5 per 60 s; spent 3 allowed + 1 counted by the global rule before the route rule refused + this one.
  t.is(free.headers.get('ratelimit-limit'), '5');
  t.is(free.headers.get('ratelimit-remaining'), '0');
  const over = await get(server, '/free');
  t.is(over.status, 429);
  t.is(over.headers.get('ratelimit-limit'), '5');
  for (let i = 0; i < 10; i++) t.is((await get(server, '/skipped')).status, 200);
  t.is((await get(server, '/skipped')).headers.get('ratelimit-limit'), null);
});

const tokens = BearerAuthenticationProvider.fromTokens({
  'token-a': new User('ann', []),
  'token-b': new User('ben', []),
});

@Path('/me')
@Authenticate(tokens)
class Me {
  @GET
  @RateLimit({ limit: 2, windowSeconds: 60, key: byUser, bucket: 'me-by-user' })
  me(@Context() user: User) {
    return { name: user.name };
  }
}

@Path('/login')
@Authenticate(tokens)
@RateLimit({ limit: 3, windowSeconds: 60 })
class Login {
  @GET
  login(@Context() user: User) {
    return { name: user.name };
  }
}

test('byUser counts after authentication, per user', async (t) => {
  const server = await serve({ store: new MemoryRateLimitStore({ now: manualClock().now }) }, Me);
  t.teardown(() => server.close());
  for (let i = 0; i < 2; i++) t.is((await get(server, '/me', { Authorization: 'Bearer token-a' })).status, 200);
  t.is((await get(server, '/me', { Authorization: 'Bearer token-a' })).status, 429);
  t.deepEqual((await get(server, '/me', { Authorization: 'Bearer token-b' })).json(), { name: 'ben' });
  // Refused by authentication: never counted, never limited.
  for (let i = 0; i < 5; i++) t.is((await get(server, '/me', { Authorization: 'Bearer wrong' })).status, 401);
});

test('attack: guessing tokens is limited, since an address rule counts before authentication', async (t) => {
  const server = await serve({ store: new MemoryRateLimitStore({ now: manualClock().now }) }, Login);
  t.teardown(() => server.close());
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++)
    statuses.push((await get(server, '/login', { Authorization: `Bearer guess-${i}` })).status);
  t.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
  // The right token is refused too until the bucket refills: the guesser's address is spent.
  t.is((await get(server, '/login', { Authorization: 'Bearer token-a' })).status, 429);
});

test('a failing store answers 503 (RU_ERR_RATE_LIMIT_STORE), or lets requests through with onStoreError: allow', async (t) => {
  const broken: RateLimitStore = { hit: () => Promise.reject(new Error('connection refused')) };
  const throwing: RateLimitStore = {
    hit: () => {
      throw new Error('out of order');
    },
  };
  const refusing = await serve({ store: broken }, Api);
  const allowing = await serve({ store: throwing, onStoreError: 'allow' }, Api);
  t.teardown(() => {
    refusing.close();
    allowing.close();
  });
  const refused = await get(refusing, '/limited');
  t.is(refused.status, 503);
  t.is(refused.headers.get('retry-after'), '1');
  t.is(refused.json().code, 'RU_ERR_RATE_LIMIT_STORE');
  t.is((await get(refusing, '/free')).status, 200);
  const allowed = await get(allowing, '/limited');
  t.is(allowed.status, 200);
  t.is(allowed.headers.get('ratelimit-limit'), null);
});

test('a store that fails for a while is logged once when it starts failing and once when it works again, not per request', async (t) => {
  const memory = new MemoryRateLimitStore({ now: manualClock().now });
  let down = false;
  const flaky: RateLimitStore = {
    hit: (key, window) =>
      down ? Promise.reject(new Error('connection refused')) : Promise.resolve(memory.hit(key, window)),
  };
  const lines: Array<{ level: string; fields: any; msg?: string }> = [];
  const at = (level: string) => (fields: unknown, msg?: string) => void lines.push({ level, fields, msg });
  const builder = new RestBuilder()
    .logger({ error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') })
    .use(rateLimit({ store: flaky }))
    .register(Api);
  const server = await listen(builder.build());
  t.teardown(() => server.close());
  t.is((await get(server, '/limited')).status, 200);
  down = true;
  for (let i = 0; i < 5; i++) t.is((await get(server, '/limited')).status, 503);
  t.deepEqual(
    lines.map((l) => [l.level, l.msg]),
    [['error', 'rate limit store failed']],
  );
  t.is(lines[0]!.fields.err.message, 'connection refused');
  down = false;
  t.is((await get(server, '/limited')).status, 200);
  t.is((await get(server, '/limited')).status, 200);
  t.deepEqual(
    lines.slice(1).map((l) => [l.level, l.msg, l.fields.failedHits]),
    [['info', 'rate limit store works again', 5]],
  );
  // A new outage is a new line.
  down = true;
  t.is((await get(server, '/limited')).status, 503);
  t.is(lines.filter((l) => l.level === 'error').length, 2);
});

test('an asynchronous store is waited for', async (t) => {
  const memory = new MemoryRateLimitStore({ now: manualClock().now });
  const later: RateLimitStore = {
    hit: (key, window) => new Promise((resolve) => setImmediate(() => resolve(memory.hit(key, window)))),
  };
  const server = await serve({ store: later }, Api);
  t.teardown(() => server.close());
  for (let i = 0; i < 3; i++) t.is((await get(server, '/limited')).status, 200);
  const refused = await get(server, '/limited');
  t.is(refused.status, 429);
  t.is(refused.headers.get('retry-after'), '20');
});

@Path('/named')
class NamedRules {
  @GET
  @Path('search')
  @RateLimit('search')
  search() {
    return 'search';
  }

  @GET
  @Path('suggest')
  @RateLimit('search')
  suggest() {
    return 'suggest';
  }

  @GET
  @Path('export')
  @RateLimit('export')
  export() {
    return 'export';
  }
}

test('a named rule takes its numbers from the plugin: the routes naming it share one bucket', async (t) => {
  const clock = manualClock();
  const rules = { search: { limit: 3, windowSeconds: 60 }, export: { limit: 1, windowSeconds: 3600 } };
  const server = await serve({ store: new MemoryRateLimitStore({ now: clock.now }), rules }, NamedRules);
  t.teardown(() => server.close());
  t.is((await get(server, '/named/search')).headers.get('ratelimit-remaining'), '2');
  t.is((await get(server, '/named/suggest')).headers.get('ratelimit-remaining'), '1');
  t.is((await get(server, '/named/search')).status, 200);
  const refused = await get(server, '/named/suggest');
  t.is(refused.status, 429);
  t.is(refused.headers.get('ratelimit-limit'), '3');
  t.is(refused.headers.get('retry-after'), '20');
  // Another rule, another bucket, its own numbers.
  const exported = await get(server, '/named/export');
  t.is(exported.status, 200);
  t.is(exported.headers.get('ratelimit-limit'), '1');
  t.is((await get(server, '/named/export')).headers.get('retry-after'), '3600');

  // Other numbers at startup, the same classes: another app counts 10.
  const other = await serve(
    {
      store: new MemoryRateLimitStore({ now: clock.now }),
      rules: { search: { limit: 10, windowSeconds: 60 }, export: { limit: 1, windowSeconds: 60 } },
    },
    NamedRules,
  );
  t.teardown(() => other.close());
  t.is((await get(other, '/named/search')).headers.get('ratelimit-limit'), '10');
});

test('a rule name the plugin does not define fails when the app is built; bad names fail where written', (t) => {
  const builder = () =>
    new RestBuilder()
      .use(rateLimit({ rules: { search: { limit: 3, windowSeconds: 60 } } }))
      .register(NamedRules)
      .build();
  t.throws(builder, {
    message: /@RateLimit\("export"\), a rule the rateLimit plugin's rules do not define \(defined: search\)/,
  });
  t.throws(() => RateLimit('has space'), { message: /a rule name is 1 to 64 letters/ });
  t.throws(() => rateLimit({ rules: { search: { limit: 0, windowSeconds: 60 } } }), {
    message: /rule "search": limit must be a whole number/,
  });
  // Without the plugin, a named rule does nothing (as any @RateLimit).
  t.notThrows(() => new RestBuilder().register(NamedRules).build());
});

test('options are checked when the app is set up', (t) => {
  t.throws(() => rateLimit({ global: { limit: 0, windowSeconds: 60 } }), { message: /limit must be a whole number/ });
  t.throws(() => rateLimit({ global: { limit: 10, windowSeconds: -1 } }), {
    message: /windowSeconds must be a positive number/,
  });
  t.throws(() => rateLimit({ store: {} as RateLimitStore }), { message: /hit\(key, window\)/ });
  t.throws(() => rateLimit({ onStoreError: 'maybe' as 'allow' }), { message: /onStoreError/ });
  t.throws(() => RateLimit({ limit: 1.5, windowSeconds: 1 }), { message: /@RateLimit: limit/ });
  t.throws(() => byHeader('bad header'), { message: /header name/ });
});
