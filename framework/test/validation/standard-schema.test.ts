import test from 'ava';
import 'reflect-metadata';
import { type } from 'arktype';
import { IsString, Length } from 'class-validator';
import * as v from 'valibot';
import { z } from 'zod';
import {
  BeanParam,
  Context,
  CookieParam,
  FormParam,
  GET,
  HeaderParam,
  type Logger,
  Path,
  PathParam,
  POST,
  problemDetails,
  QueryParam,
  RestBuilder,
  RoutingContext,
  Valid,
  type StandardSchemaV1,
} from '../../src/index';
import { listen } from '../support/server';

/**
 * `@Valid(schema)` with Standard Schemas of Zod 4, Valibot and ArkType on every kind of argument: the method gets
 * the schema's output, a failure answers the 400 class-validator's does with one violation per issue.
 */

interface Kit {
  /** A path id: text of digits, at least 1, as a number. */
  id: StandardSchemaV1;
  /** An optional query limit: a number up to 100, 20 when absent. */
  limit: StandardSchemaV1;
  /** A header of lower-case letters, given upper-cased. */
  tag: StandardSchemaV1;
  /** A cookie of at least 8 characters. */
  session: StandardSchemaV1;
  /** A form field: a whole number from 1 to 10. */
  qty: StandardSchemaV1;
  /** The body: a title, tags (none when absent), items with an upper-case sku and a quantity of at least 1. */
  order: StandardSchemaV1;
  /** Accepts any object, keeping unknown keys (the prototype-pollution checks). */
  loose: StandardSchemaV1;
  /** An asynchronous check: the name "taken" is refused. */
  freeName?: StandardSchemaV1;
}

const kits: Record<string, Kit> = {
  zod: {
    id: z.coerce.number().int().min(1),
    limit: z.coerce.number().int().max(100).default(20),
    tag: z
      .string()
      .regex(/^[a-z]+$/)
      .transform((s) => s.toUpperCase()),
    session: z.string().min(8),
    qty: z.coerce.number().int().min(1).max(10),
    order: z.object({
      title: z.string().min(1).max(20),
      tags: z.array(z.string()).default([]),
      items: z.array(z.object({ sku: z.string().regex(/^[A-Z]+$/), quantity: z.number().int().min(1) })),
    }),
    loose: z.looseObject({ item: z.string() }),
    freeName: z.string().refine(async (s) => s !== 'taken', 'name is taken'),
  },
  valibot: {
    id: v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1)),
    limit: v.optional(v.pipe(v.string(), v.digits(), v.transform(Number), v.maxValue(100)), '20'),
    tag: v.pipe(
      v.string(),
      v.regex(/^[a-z]+$/),
      v.transform((s) => s.toUpperCase()),
    ),
    session: v.pipe(v.string(), v.minLength(8)),
    qty: v.pipe(v.string(), v.digits(), v.transform(Number), v.minValue(1), v.maxValue(10)),
    order: v.object({
      title: v.pipe(v.string(), v.minLength(1), v.maxLength(20)),
      tags: v.optional(v.array(v.string()), []),
      items: v.array(
        v.object({
          sku: v.pipe(v.string(), v.regex(/^[A-Z]+$/)),
          quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
        }),
      ),
    }),
    loose: v.looseObject({ item: v.string() }),
    freeName: v.pipeAsync(
      v.string(),
      v.checkAsync(async (s) => s !== 'taken', 'name is taken'),
    ),
  },
  arktype: {
    id: type('string.integer.parse').to('number >= 1'),
    limit: type('undefined')
      .pipe(() => 20)
      .or(type('string.integer.parse').to('number <= 100')),
    tag: type(/^[a-z]+$/).pipe((s) => s.toUpperCase()),
    session: type('string >= 8'),
    qty: type('string.integer.parse').to('1 <= number.integer <= 10'),
    order: type({
      title: '0 < string <= 20',
      tags: type('string[]').default(() => []),
      items: type({ sku: /^[A-Z]+$/, quantity: 'number.integer >= 1' }).array(),
    }),
    loose: type({ item: 'string', '+': 'ignore' }),
  },
};

class NewUser {
  @IsString() @Length(2, 20) name!: string;
}

function resourceOf(k: Kit) {
  class Page {
    @QueryParam('offset') @Valid(k.id) offset!: number;
    @QueryParam('limit') @Valid(k.limit) limit!: number;
  }
  @Path('/')
  class Shop {
    @GET @Path('/items/{id}') item(@PathParam('id') @Valid(k.id) id: number) {
      return { id, type: typeof id };
    }
    @GET @Path('/items') list(@QueryParam('limit') @Valid(k.limit) limit: number) {
      return { limit, type: typeof limit };
    }
    @GET @Path('/tagged') tagged(@Valid(k.tag) @HeaderParam('x-tag') tag: string) {
      return { tag };
    }
    @GET @Path('/session') session(@CookieParam('session') @Valid(k.session) session: string) {
      return { session };
    }
    @POST @Path('/cart') cart(@FormParam('qty') @Valid(k.qty) qty: number) {
      return { qty, type: typeof qty };
    }
    @POST @Path('/orders') order(@Valid(k.order) order: { title: string; tags: string[]; items: unknown[] }) {
      return order;
    }
    @GET @Path('/page') page(@BeanParam(Page) page: Page) {
      return { offset: page.offset, limit: page.limit, isPage: page instanceof Page };
    }
    @POST @Path('/loose') loose(@Valid(k.loose) body: Record<string, unknown>) {
      return {
        keys: Object.keys(body),
        plain: Object.getPrototypeOf(body) === Object.prototype,
        polluted: ({} as Record<string, unknown>).polluted === true,
      };
    }
    @POST @Path('/users') user(@Valid user: NewUser) {
      return { name: user.name };
    }
  }
  if (k.freeName !== undefined) {
    const freeName = k.freeName;
    class Names {
      @GET @Path('/names/{name}') name(
        @PathParam('name') @Valid(freeName) name: string,
        @Context() ctx: RoutingContext,
      ) {
        return { name, route: ctx.route()?.path };
      }
    }
    Path('/')(Names);
    return [Shop, Names];
  }
  return [Shop];
}

interface Answer {
  status: number;
  body: any;
}

async function call(url: string, init?: RequestInit): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

function seen(a: Answer): string[] {
  return (a.body.violations as Array<{ in: string; path: string }>).map((x) => `${x.in}:${x.path}`).sort();
}

function assertViolations(t: any, a: Answer, expected: string[]) {
  t.is(a.status, 400, JSON.stringify(a.body));
  t.deepEqual(Object.keys(a.body).sort(), ['code', 'error', 'message', 'status', 'violations']);
  t.is(a.body.code, 'RU_ERR_VALIDATION');
  t.is(a.body.message, 'Validation failed');
  t.deepEqual(seen(a), expected);
  for (const x of a.body.violations) {
    t.deepEqual(Object.keys(x).sort(), ['constraint', 'in', 'message', 'path']);
    t.true(typeof x.constraint === 'string' && x.constraint.length > 0);
    t.true(typeof x.message === 'string' && x.message.length > 0);
  }
}

for (const [library, kit] of Object.entries(kits)) {
  const start = async (t: { teardown(fn: () => void): void }) => {
    const builder = new RestBuilder();
    for (const r of resourceOf(kit)) builder.register(r);
    const server = await listen(builder.build());
    t.teardown(() => server.close());
    return server.url;
  };

  test(`${library}: a path value reaches the method as the schema's output; a wrong one is a violation`, async (t) => {
    const url = await start(t);
    t.deepEqual((await call(`${url}/items/42`)).body, { id: 42, type: 'number' });
    assertViolations(t, await call(`${url}/items/0`), ['path:id']);
    assertViolations(t, await call(`${url}/items/abc`), ['path:id']);
  });

  test(`${library}: a query value, its default when absent, its violation`, async (t) => {
    const url = await start(t);
    t.deepEqual((await call(`${url}/items?limit=7`)).body, { limit: 7, type: 'number' });
    t.deepEqual((await call(`${url}/items`)).body, { limit: 20, type: 'number' });
    assertViolations(t, await call(`${url}/items?limit=500`), ['query:limit']);
  });

  test(`${library}: a header, transformed; a missing or wrong one is a violation`, async (t) => {
    const url = await start(t);
    t.deepEqual((await call(`${url}/tagged`, { headers: { 'x-tag': 'abc' } })).body, { tag: 'ABC' });
    assertViolations(t, await call(`${url}/tagged`, { headers: { 'x-tag': 'ABC1' } }), ['header:x-tag']);
    assertViolations(t, await call(`${url}/tagged`), ['header:x-tag']);
  });

  test(`${library}: a cookie`, async (t) => {
    const url = await start(t);
    t.deepEqual((await call(`${url}/session`, { headers: { cookie: 'session=abcdefgh12' } })).body, {
      session: 'abcdefgh12',
    });
    assertViolations(t, await call(`${url}/session`, { headers: { cookie: 'session=short' } }), ['cookie:session']);
  });

  test(`${library}: a form field`, async (t) => {
    const url = await start(t);
    const form = (body: string): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    t.deepEqual((await call(`${url}/cart`, form('qty=3'))).body, { qty: 3, type: 'number' });
    assertViolations(t, await call(`${url}/cart`, form('qty=11')), ['form:qty']);
  });

  test(`${library}: a body gets its defaults; each issue is a violation with its path`, async (t) => {
    const url = await start(t);
    const valid = await call(`${url}/orders`, json({ title: 'Pens', items: [{ sku: 'PEN', quantity: 2 }] }));
    t.deepEqual(valid, { status: 200, body: { title: 'Pens', tags: [], items: [{ sku: 'PEN', quantity: 2 }] } });
    const invalid = await call(
      `${url}/orders`,
      json({
        title: '',
        items: [
          { sku: 'PEN', quantity: 1 },
          { sku: 'pen', quantity: 0 },
        ],
      }),
    );
    assertViolations(t, invalid, ['body:items[1].quantity', 'body:items[1].sku', 'body:title']);
    assertViolations(t, await call(`${url}/orders`, json('"just text"')), ['body:']);
    assertViolations(t, await call(`${url}/orders`, { method: 'POST' }), ['body:']);
  });

  test(`${library}: bean fields`, async (t) => {
    const url = await start(t);
    t.deepEqual((await call(`${url}/page?offset=3&limit=50`)).body, { offset: 3, limit: 50, isPage: true });
    t.deepEqual((await call(`${url}/page?offset=3`)).body, { offset: 3, limit: 20, isPage: true });
    assertViolations(t, await call(`${url}/page?offset=0&limit=101`), ['bean:limit', 'bean:offset']);
  });

  test(`${library}: the 400 has the shape of class-validator's`, async (t) => {
    const url = await start(t);
    const classes = await call(`${url}/users`, json({ name: 'A' }));
    const schemas = await call(`${url}/items/0`);
    t.is(classes.status, 400);
    t.deepEqual(Object.keys(schemas.body).sort(), Object.keys(classes.body).sort());
    t.deepEqual(Object.keys(schemas.body.violations[0]).sort(), Object.keys(classes.body.violations[0]).sort());
    t.is(schemas.body.error, classes.body.error);
  });

  test(`${library}: prototype-polluting bodies pollute nothing and do not pass as properties`, async (t) => {
    const url = await start(t);
    for (const body of [
      '{"item":"a","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      '{"item":"a","nested":{"__proto__":{"polluted":true},"constructor":1},"prototype":{"greet":1},"list":[{"__proto__":{"polluted":true}}]}',
    ]) {
      const res = await call(`${url}/loose`, json(body));
      t.is(res.status, 200, JSON.stringify(res.body));
      t.false(res.body.keys.includes('__proto__'));
      t.false(res.body.keys.includes('constructor'));
      t.false(res.body.keys.includes('prototype'));
      t.true(res.body.plain);
      t.false(res.body.polluted);
      t.is(({} as Record<string, unknown>).polluted, undefined);
    }
  });

  if (kit.freeName !== undefined)
    test(`${library}: an asynchronous schema is awaited`, async (t) => {
      const url = await start(t);
      t.deepEqual((await call(`${url}/names/ada`)).body, { name: 'ada', route: '/names/{name}' });
      const taken = await call(`${url}/names/taken`);
      assertViolations(t, taken, ['path:name']);
      t.is(taken.body.violations[0].message, 'name is taken');
    });
}

/** A logger that keeps what it is given, to assert on what the framework logs. */
function recordingLogger(): Logger & { lines: Array<{ level: string; obj: any; msg?: string }> } {
  const lines: Array<{ level: string; obj: any; msg?: string }> = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

const broke = (): never => {
  throw new Error('the schema broke');
};

/**
 * Schemas that throw while validating (a transform, morph or narrow that throws), and ones whose validate rejects.
 * Not Zod's rejecting async refinement: Zod's `~standard.validate` tries a synchronous parse first and leaves that
 * attempt's rejected promise unhandled (colinhacks/zod#6610), which Node treats as a crash; the docs say so.
 */
const failingSchemas: Array<[string, StandardSchemaV1]> = [
  ['zod: a throwing transform', z.string().transform(broke)],
  ['valibot: a throwing transform', v.pipe(v.string(), v.transform(broke))],
  ['arktype: a throwing morph', type('string').pipe(broke)],
  ['arktype: a throwing narrow', type('string').narrow(broke)],
  [
    'a validate that returns a rejected promise',
    { '~standard': { version: 1, vendor: 'test', validate: () => Promise.reject(new Error('the schema broke')) } },
  ],
  [
    'valibot: an async check that rejects',
    v.pipeAsync(
      v.string(),
      v.checkAsync(async () => broke()),
    ),
  ],
];

for (const [label, failing] of failingSchemas)
  test(`${label}: a 500 with the error logged, not sent; the server goes on`, async (t) => {
    @Path('/')
    class Broken {
      @GET @Path('/broken') broken(@QueryParam('q') @Valid(failing) q: string) {
        return { q };
      }
      @GET @Path('/fine') fine() {
        return { ok: true };
      }
    }
    const logger = recordingLogger();
    const server = await listen(new RestBuilder().logger(logger).register(Broken).build());
    t.teardown(() => server.close());
    // The answer comes (no hang): the thrown or rejected error becomes the request's failure.
    const res = await call(`${server.url}/broken?q=x`);
    t.is(res.status, 500);
    t.false(JSON.stringify(res.body).includes('the schema broke'));
    const logged = logger.lines.filter((l) => l.level === 'error');
    t.deepEqual(
      logged.map((l) => [l.msg, l.obj.path, l.obj.err?.message]),
      [['unhandled error in route', '/broken', 'the schema broke']],
    );
    t.is((await call(`${server.url}/fine`)).status, 200);
  });

test('@Valid(schema) on a @Context argument is refused at registration', (t) => {
  @Path('/')
  class Wrong {
    @GET @Path('/x') x(@Context() @Valid(z.any()) ctx: RoutingContext) {
      return String(ctx);
    }
  }
  const err = t.throws(() => new RestBuilder().register(Wrong).build());
  t.is((err as { code?: string }).code, 'RU_ERR_VALID_TARGET');
});

test('@Valid(schema) on a bean constructor parameter is refused where it is written', (t) => {
  const err = t.throws(() => {
    class Bean {
      constructor(@QueryParam('q') @Valid(z.string()) public q: string) {}
    }
    return Bean;
  });
  t.is((err as { code?: string }).code, 'RU_ERR_DECORATOR_TARGET');
});

// ---- The deep-JSON bodies of test/reliability/deep-json.test.ts, into schema-validated bodies ------------------------

const MAX_BODY = 1024 * 1024;
const MAX_JSON_DEPTH = 256;

interface ZodTree {
  name?: string;
  child?: ZodTree;
}
const zodTree: z.ZodType<ZodTree> = z.lazy(() => z.object({ name: z.string().optional(), child: zodTree.optional() }));
type ValibotTree = { name?: string; child?: ValibotTree };
const valibotTree: v.GenericSchema<ValibotTree> = v.object({
  name: v.optional(v.string()),
  child: v.optional(v.lazy(() => valibotTree)),
});
const arkTree = type({ 'name?': 'string', 'child?': 'this' });

const notes: Record<string, StandardSchemaV1> = {
  zod: z.object({ title: z.string().min(1).max(20), extra: z.unknown().optional(), tree: zodTree.optional() }),
  valibot: v.object({
    title: v.pipe(v.string(), v.minLength(1), v.maxLength(20)),
    extra: v.optional(v.unknown()),
    tree: v.optional(valibotTree),
  }),
  arktype: type({ title: '0 < string <= 20', 'extra?': 'unknown', 'tree?': arkTree }),
};

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
const tree = (depth: number) => '{"child":'.repeat(depth - 1) + '{"name":"leaf"}' + '}'.repeat(depth - 1);
const shapes: Array<[string, (depth: number) => string]> = [
  ['arrays in an untyped field', (d) => `{"title":"t","extra":${arrays(d - 1)}}`],
  ['objects in an untyped field', (d) => `{"title":"t","extra":${objects(d - 1)}}`],
  ['arrays where a string belongs', (d) => `{"title":${arrays(d - 1)}}`],
  ['a self-referencing tree', (d) => `{"title":"t","tree":${tree(d - 1)}}`],
  ['the whole body an array', (d) => arrays(d)],
];
const depths = [MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 5000, Math.floor(MAX_BODY / 10)];

for (const [library, note] of Object.entries(notes)) {
  test(`${library}: JSON nested thousands deep into a schema-validated body is a 4xx, nothing stored`, async (t) => {
    const stored: unknown[] = [];
    @Path('/')
    class Notes {
      @POST @Path('/notes') add(@Valid(note) body: unknown) {
        stored.push(body);
        return { ok: true };
      }
    }
    const server = await listen(new RestBuilder().register(Notes).bodyHandler({ maxBodySize: MAX_BODY }).build());
    t.teardown(() => server.close());
    for (const [shape, make] of shapes) {
      for (const depth of depths) {
        let body = make(depth);
        if (body.length > MAX_BODY) body = make(depth - Math.ceil((body.length - MAX_BODY) / 10));
        const before = stored.length;
        const res = await call(`${server.url}/notes`, json(body));
        const what = `${shape}, ${depth} levels: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        t.true(res.status < 500, what);
        if (depth > MAX_JSON_DEPTH) {
          t.is(res.status, 400, what);
          t.is(res.body.code, 'RU_ERR_JSON_TOO_DEEP', what);
          t.is(stored.length, before, what);
        } else if (shape.startsWith('arrays where') || shape.startsWith('the whole body')) {
          t.is(res.status, 400, what);
          t.is(res.body.code, 'RU_ERR_VALIDATION', what);
        } else {
          t.is(res.status, 200, what);
          t.is(stored.length, before + 1, what);
        }
      }
    }
  });
}

test('with the problem-details plugin, schema violations are problem details', async (t) => {
  @Path('/')
  class Items {
    @GET @Path('/items') list(@QueryParam('limit') @Valid(z.coerce.number().max(50)) limit: number) {
      return { limit };
    }
  }
  const server = await listen(new RestBuilder().register(Items).use(problemDetails()).build());
  t.teardown(() => server.close());
  const res = await fetch(`${server.url}/items?limit=51`);
  t.is(res.status, 400);
  t.is(res.headers.get('content-type'), 'application/problem+json');
  const body = (await res.json()) as any;
  t.is(body.code, 'RU_ERR_VALIDATION');
  t.deepEqual(
    body.violations.map((x: any) => [x.in, x.path, x.constraint]),
    [['query', 'limit', 'too_big']],
  );
});
