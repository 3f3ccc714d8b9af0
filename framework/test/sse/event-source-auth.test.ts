/**
 * docs/reference/server-sent-events.md, "Authenticating a browser's EventSource": the ticket example, run as the page
 * would (a bearer request for a ticket, then a stream request with nothing but the ticket in its URL).
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import {
  Authenticate,
  BearerAuthenticationProvider,
  Context,
  GET,
  POST,
  Path,
  type RestAuthenticationProvider,
  RestBuilder,
  type RoutingContext,
  ServerSentEvents,
  User,
  inject,
  injectEvents,
} from '../../src/index';

/** One-time tickets for event streams, valid 30 seconds. */
class StreamTickets implements RestAuthenticationProvider<string> {
  private readonly tickets = new Map<string, { user: User; expires: number }>();

  issue(user: User): string {
    const ticket = randomBytes(24).toString('base64url');
    this.tickets.set(ticket, { user, expires: Date.now() + 30_000 });
    return ticket;
  }
  provideCredentials(ctx: RoutingContext) {
    return ctx.request.getQueryParam('ticket') ?? null;
  }
  authenticate(ticket: string) {
    const entry = this.tickets.get(ticket);
    this.tickets.delete(ticket); // once
    return entry !== undefined && entry.expires > Date.now() ? entry.user : null;
  }
}

const tickets = new StreamTickets();
const bearer = BearerAuthenticationProvider.fromTokens({ 'token-of-ada': new User('ada', ['reader']) });

@Path('/api')
class Feed {
  @POST @Path('/stream-tickets') @Authenticate(bearer) ticket(@Context() user: User) {
    return { ticket: tickets.issue(user) };
  }

  @GET @Path('/feed') @Authenticate(tickets) @ServerSentEvents() async *feed(@Context() user: User) {
    yield `hello ${user.name}`;
  }
}

test('a ticket bought with the bearer token opens the stream once; without one, or spent, it is 401', async (t) => {
  const app = new RestBuilder().register(Feed);
  t.is((await injectEvents(app, '/api/feed')).statusCode, 401, 'no Authorization header, no ticket');
  const bought = await inject(app, {
    method: 'POST',
    url: '/api/stream-tickets',
    headers: { authorization: 'Bearer token-of-ada' },
  });
  t.is(bought.statusCode, 200);
  const { ticket } = bought.json() as { ticket: string };
  const stream = await injectEvents(app, `/api/feed?ticket=${encodeURIComponent(ticket)}`);
  t.is(stream.statusCode, 200);
  t.is((await stream.next())?.data, 'hello ada');
  const again = await injectEvents(app, `/api/feed?ticket=${encodeURIComponent(ticket)}`);
  t.is(again.statusCode, 401, 'a ticket is good once');
  t.is((await inject(app, { method: 'POST', url: '/api/stream-tickets' })).statusCode, 401);
});
