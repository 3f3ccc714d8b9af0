import test from 'ava';
import {
  ConflictException,
  Context,
  Event,
  GET,
  Handles,
  NoCache,
  NotFoundException,
  Path,
  PathParam,
  POST,
  Response,
  RestBuilder,
  RoutingContext,
  type RestEvent,
} from '../../src/index';
import { listen } from '../support/server';
import type { Logger } from '../../src/util/log';

class Booking {
  constructor(
    readonly id: string,
    readonly status: string,
  ) {}
}

/** What the events saw, per test run (keyed by a request header). */
const seen = new Map<string, string[]>();
function note(ctx: RoutingContext, line: string): void {
  const key = ctx.request.getHeader('x-run') ?? 'none';
  seen.set(key, [...(seen.get(key) ?? []), line]);
}

@Handles(Booking)
class BookingCreated implements RestEvent<Booking> {
  execute(booking: Booking, ctx: RoutingContext): void {
    note(ctx, `created ${booking.id} (response ${ctx.response.ended() ? 'sent' : 'open'})`);
  }
}

/** Declares no type: fires for any entity. */
class Audit implements RestEvent {
  async execute(entity: unknown, ctx: RoutingContext): Promise<void> {
    await new Promise((r) => setTimeout(r, 5));
    note(
      ctx,
      `audit ${ctx.response.getStatusCode()} ${entity instanceof Error ? entity.constructor.name : JSON.stringify(entity)}`,
    );
  }
}

@Handles(String)
class TextOnly implements RestEvent<string> {
  execute(text: string, ctx: RoutingContext): void {
    note(ctx, `text ${text}`);
  }
}

@Handles(ConflictException)
class ConflictSeen implements RestEvent<ConflictException> {
  execute(error: ConflictException, ctx: RoutingContext): void {
    note(ctx, `conflict: ${error.message}`);
  }
}

class Exploding implements RestEvent {
  execute(): void {
    throw new Error('event exploded');
  }
}

class RejectingLater implements RestEvent {
  async execute(): Promise<void> {
    throw new Error('event rejected');
  }
}

/** One instance per request: counts must not carry over. */
@NoCache
class PerRequest implements RestEvent {
  private calls = 0;
  execute(_e: unknown, ctx: RoutingContext): void {
    this.calls++;
    note(ctx, `per-request calls=${this.calls}`);
  }
}

@Path('/bookings')
class BookingResource {
  @POST
  @Path('/')
  @Event(BookingCreated)
  @Event(Audit)
  @Event(TextOnly)
  @Event(Audit, { response: 201 })
  create(): Response {
    return Response.status(201).entity(new Booking('b1', 'UNCAPTURED')).build();
  }

  @GET
  @Path('/:id')
  @Event(BookingCreated)
  @Event(Audit, { response: 404 })
  @Event(ConflictSeen, { exception: ConflictException })
  get(@PathParam('id') id: string): Booking {
    if (id === 'missing') throw new NotFoundException(`no booking ${id}`);
    if (id === 'taken') throw new ConflictException('seat taken');
    return new Booking(id, 'PENDING');
  }

  @GET
  @Path('/text/:word')
  @Event(TextOnly)
  @Event(BookingCreated)
  text(@PathParam('word') word: string): string {
    return word;
  }

  @GET
  @Path('/failing-events')
  @Event(Exploding)
  @Event(RejectingLater)
  @Event(Audit)
  failing(): string {
    return 'still fine';
  }

  @GET
  @Path('/per-request')
  @Event(PerRequest)
  @Event(PerRequest)
  perRequest(@Context() _ctx: RoutingContext): string {
    return 'ok';
  }
}

const errors: unknown[] = [];
const logger: Logger = { error: (o) => errors.push(o), warn: () => {}, info: () => {}, debug: () => {} };

async function run(t: { teardown(fn: () => void): void }) {
  const server = await listen(new RestBuilder().register(BookingResource).logger(logger).build());
  t.teardown(() => server.close());
  let n = 0;
  return async (path: string, init: RequestInit = {}) => {
    const run = `${path}#${++n}#${Math.random()}`;
    const res = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { ...(init.headers as object), 'x-run': run },
    });
    const body = await res.text();
    /** Events run after the client got the response: wait (briefly) until `count` were seen. */
    const events = async (count: number) => {
      for (let i = 0; i < 100 && (seen.get(run)?.length ?? 0) < count; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 30)); // and none more come
      return seen.get(run) ?? [];
    };
    return { res, body, events };
  };
}

test('2xx events fire after the response is produced, in declaration order; a typed event skips other entities', async (t) => {
  const call = await run(t);
  const { res, body, events } = await call('/bookings', { method: 'POST' });
  t.is(res.status, 201);
  t.deepEqual(JSON.parse(body), { id: 'b1', status: 'UNCAPTURED' });
  // TextOnly declares String: not fired for a Booking. Audit fires twice: once for 2xx, once for 201.
  t.deepEqual(await events(3), [
    'created b1 (response sent)',
    'audit 201 {"id":"b1","status":"UNCAPTURED"}',
    'audit 201 {"id":"b1","status":"UNCAPTURED"}',
  ]);
});

test('only the events whose condition holds fire', async (t) => {
  const call = await run(t);
  const { events } = await call('/bookings/b7');
  // Audit (async, 404 only) must not fire on 200; BookingCreated fires.
  t.deepEqual(await events(1), ['created b7 (response sent)']);
});

test('response-code events fire on that code, with the error as the entity; 2xx events do not', async (t) => {
  const call = await run(t);
  const { res, events } = await call('/bookings/missing');
  t.is(res.status, 404);
  t.deepEqual(await events(1), ['audit 404 NotFoundException']);
});

test('exception events fire for that error class only', async (t) => {
  const call = await run(t);
  const taken = await call('/bookings/taken');
  t.is(taken.res.status, 409);
  t.deepEqual(await taken.events(1), ['conflict: seat taken']);
});

test('entity type matching works for primitives too', async (t) => {
  const call = await run(t);
  const { body, events } = await call('/bookings/text/hello');
  t.is(body, 'hello');
  t.deepEqual(await events(1), ['text hello']);
});

test('failing events are logged and never change the response; later events still run', async (t) => {
  const call = await run(t);
  const before = errors.length;
  const { res, body, events } = await call('/bookings/failing-events');
  t.is(res.status, 200);
  t.is(body, 'still fine');
  t.deepEqual(await events(1), ['audit 200 "still fine"']);
  const logged = errors.slice(before) as Array<{ err: Error; event: string; route: string }>;
  t.deepEqual(logged.map((l) => [l.event, l.err.message, l.route]).sort(), [
    ['Exploding', 'event exploded', 'BookingResource.failing'],
    ['RejectingLater', 'event rejected', 'BookingResource.failing'],
  ]);
});

test('@NoCache events get a new instance each time', async (t) => {
  const call = await run(t);
  t.deepEqual(await (await call('/bookings/per-request')).events(2), ['per-request calls=1', 'per-request calls=1']);
  t.deepEqual(await (await call('/bookings/per-request')).events(2), ['per-request calls=1', 'per-request calls=1']);
});

test('@Event checks its options when decorating', (t) => {
  t.throws(() => Event(Audit, { response: 42 }), { message: /HTTP status code/ });
  t.throws(() => Event(undefined as never), { message: /RestEvent class/ });
});
