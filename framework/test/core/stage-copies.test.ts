/**
 * A route that has served 1,000 requests is compiled again from its own copy of the stage modules
 * (pipeline/stage-copies.ts), so V8 specialises the stages for it alone. Nothing a client sees may change: the
 * answers after the swap, errors and validation failures included, are the bytes of the answers before it.
 */
import test from 'ava';
import 'reflect-metadata';
import { IsInt, IsString, Length, Min } from 'class-validator';
import {
  BadRequestException,
  GET,
  HeaderParam,
  Optional,
  Path,
  PathParam,
  POST,
  Produces,
  QueryParam,
  Response,
  RestBuilder,
  Valid,
} from '../../src/index';
import { runtimeOf } from '../../src/adapter/uws-adapter';
import { forgetStageSources, stageCopies } from '../../src/pipeline/stage-copies';
import { listen } from '../support/server';

class Line {
  @IsString() @Length(1, 16) sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

@Path('/')
class Shop {
  @GET
  @Path('users/{id}')
  @Produces('application/json')
  user(@PathParam('id') id: number, @QueryParam('fields') @Optional fields?: string): { id: number; fields: string[] } {
    if (!Number.isSafeInteger(id)) throw new BadRequestException(`id must be an integer, got ${id}`);
    return { id, fields: fields ? fields.split(',') : [] };
  }

  @POST
  @Path('lines')
  line(@Valid line: Line): Response {
    return Response.status(201)
      .entity({ sku: line.sku, quantity: line.quantity, isLine: line instanceof Line })
      .build();
  }

  @GET
  @Path('later/{n}')
  async later(
    @PathParam('n') n: number,
    @HeaderParam('x-note') @Optional note?: string,
  ): Promise<{ n: number; note: string | null }> {
    await new Promise((resolve) => setImmediate(resolve));
    if (n === 13) throw new Error('unlucky');
    return { n, note: note ?? null };
  }
}

interface Seen {
  status: number;
  type: string | null;
  body: string;
}

async function ask(url: string, init?: RequestInit): Promise<Seen> {
  const res = await fetch(url, init);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/** Each request of the list, answered: what a client sees of every kind of answer the routes give. */
const ASKED: Array<[string, RequestInit?]> = [
  ['/users/42?fields=a,b'],
  ['/users/7'],
  ['/users/x'],
  ['/users/99999999999999999999'],
  [
    '/lines',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku: 'AB-1', quantity: 3 }),
    },
  ],
  [
    '/lines',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sku: '', quantity: 0 }) },
  ],
  ['/lines', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sku":' }],
  ['/later/5', { headers: { 'x-note': 'hi' } }],
  ['/later/13'],
];

test.serial('routes that became hot answer exactly as before, errors and validation failures included', async (t) => {
  const app = new RestBuilder().register(Shop).build();
  const runtime = runtimeOf(app)!;
  const server = await listen(app);
  try {
    const before: Seen[] = [];
    for (const [path, init] of ASKED) before.push(await ask(server.url + path, init));
    const shared = new Map(runtime.routes().map((h) => [h.definition.label, h.compiled] as const));
    const definitions = runtime.routes().map((h) => h.definition);
    // 1,000 requests make a route hot; a few more let the copy's compilation (after the callback) happen.
    for (let i = 0; i < 1010; i++) {
      await ask(`${server.url}/users/${i}?fields=f${i}`);
      await ask(`${server.url}/later/${i % 13 === 0 ? 1 : i}`);
    }
    for (let i = 0; i < 1010; i++) await ask(`${server.url}/lines`, ASKED[4]![1]);
    await new Promise((resolve) => setImmediate(resolve));
    for (const holder of runtime.routes()) {
      t.not(holder.compiled, shared.get(holder.definition.label), `${holder.definition.label} has its own stages`);
      t.is(holder.untilHot, 0);
    }
    t.deepEqual(
      runtime.routes().map((h) => h.definition),
      definitions,
      'the same definitions: what is keyed by them stays valid',
    );
    for (let round = 0; round < 3; round++) {
      const after: Seen[] = [];
      for (const [path, init] of ASKED) after.push(await ask(server.url + path, init));
      t.deepEqual(after, before);
    }
    t.is(before[0]!.body, '{"id":42,"fields":["a","b"]}');
    t.is(before[2]!.status, 400);
    t.is(before[5]!.status, 400);
    t.is(before[8]!.status, 500);
  } finally {
    server.close();
  }
});

test.serial(
  'without the compiled sources (a bundled app), there are no copies and routes keep the shared stages',
  (t) => {
    forgetStageSources();
    try {
      t.is(
        stageCopies('GET /x', () => {
          throw new Error('ENOENT');
        }),
        undefined,
      );
      forgetStageSources();
      // Sources that do not evaluate (as when code generation is refused): no copies either, and no throw.
      t.is(
        stageCopies('GET /x', () => 'this is not JavaScript ('),
        undefined,
      );
      t.is(stageCopies('GET /x'), undefined, 'not tried again');
    } finally {
      forgetStageSources();
    }
    const copies = stageCopies('GET /y');
    t.truthy(copies);
    t.not(copies!.runRoute, stageCopies('GET /z')!.runRoute, 'each route its own functions');
  },
);
