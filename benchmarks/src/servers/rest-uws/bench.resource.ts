/**
 * The benchmark routes as a rest.uws resource class, through its public API only, in its own idiom:
 * typed @PathParam/@QueryParam, a `@Valid` class-validator body answered with `Response.status(201)`,
 * `@Authenticate` with a Bearer provider and an `@Event` that runs after the response.
 * (The 1 MB file is served by the app's static folder mount, see rest-uws.ts.)
 */
import {
  Authenticate,
  BadRequestException,
  BearerAuthenticationProvider,
  BodyParam,
  Consumes,
  Context,
  Event,
  GET,
  Optional,
  POST,
  Path,
  PathParam,
  QueryParam,
  Response,
  User,
  Valid,
  type RestEvent,
} from 'rest.uws';
import { OrderDto } from '../../contract/order-dto';
import { BEARER_TOKEN, BENCH_USER, HELLO_BODY, userResponse } from '../../contract/routes';
import type { ProfileStats } from '../support/profile-events';

/** Scenario 5's token provider: the benchmark's one token, mapped to its user. */
export const bearerTokens = BearerAuthenticationProvider.fromTokens({
  [BEARER_TOKEN]: new User(BENCH_USER.name, BENCH_USER.roles, { id: BENCH_USER.id }),
});

/** Scenario 5's `profile.viewed` event: runs after the response of GET /me, and counts. */
export class ProfileViewed implements RestEvent<unknown> {
  constructor(private readonly stats: ProfileStats) {}

  execute(): void {
    this.stats.profileViews++;
  }
}

export function createBenchResource(stats: ProfileStats): object {
  @Path('/')
  class BenchResource {
    @GET
    @Path('hello')
    hello() {
      return HELLO_BODY;
    }

    @GET
    @Path('users/{id}')
    user(@PathParam('id') id: number, @QueryParam('fields') @Optional fields?: string) {
      // rest.uws converts to number; the contract wants an integer id, as Fastify's schema and Nest's ParseIntPipe do.
      if (!Number.isSafeInteger(id)) throw new BadRequestException(`id must be an integer, got ${id}`);
      return userResponse(id, fields ? fields.split(',') : []);
    }

    @POST
    @Path('orders')
    @Consumes('application/json')
    createOrder(@Valid @BodyParam() order: OrderDto) {
      return Response.status(201).entity(order).build();
    }

    @GET
    @Path('me')
    @Authenticate(bearerTokens)
    @Event(new ProfileViewed(stats))
    me(@Context() user: User) {
      return { id: user.attributes.id, name: user.name, roles: user.roles };
    }

    @GET
    @Path('stats')
    profileStats() {
      return stats;
    }
  }
  return new BenchResource();
}
