/**
 * The benchmark's routes written the way docs/getting-started.md teaches, as an adopter would write them:
 * a service passed to the resource's constructor, declared return types, `@Produces('application/json')` on
 * every route (the annotation issue 21 found costing a quarter of the throughput), `@Valid` on the body,
 * `Response.status(201)` for a creation. The bench app's own resource (../rest-uws/) leaves out what does not
 * change the answer; this one keeps it, so the two servers side by side show what idiomatic code costs.
 */
import {
  Authenticate,
  BadRequestException,
  Context,
  Event,
  GET,
  Optional,
  POST,
  Path,
  PathParam,
  Produces,
  QueryParam,
  Response,
  User,
  Valid,
} from 'rest.uws';
import { OrderDto } from '../../contract/order-dto';
import { HELLO_BODY, userResponse } from '../../contract/routes';
import type { ProfileStats } from '../support/profile-events';
import { ProfileViewed, bearerTokens } from '../rest-uws/bench.resource';

/** What an adopter's resource would delegate to. */
export class GreetingService {
  greeting(): { message: string } {
    return { message: HELLO_BODY.message };
  }

  user(id: number, fields: string[]): { id: number; fields: string[] } {
    return userResponse(id, fields);
  }
}

export interface Profile {
  id: unknown;
  name: string;
  roles: string[];
}

export function createIdiomaticResource(service: GreetingService, stats: ProfileStats): object {
  @Path('/')
  class IdiomaticResource {
    constructor(private readonly greetings: GreetingService) {}

    @GET
    @Path('/hello')
    @Produces('application/json')
    hello(): { message: string } {
      return this.greetings.greeting();
    }

    @GET
    @Path('/users/{id}')
    @Produces('application/json')
    user(
      @PathParam('id') id: number,
      @QueryParam('fields') @Optional fields?: string,
    ): { id: number; fields: string[] } {
      if (!Number.isSafeInteger(id)) throw new BadRequestException(`id must be an integer, got ${id}`);
      return this.greetings.user(id, fields ? fields.split(',') : []);
    }

    @POST
    @Path('/orders')
    @Produces('application/json')
    createOrder(@Valid order: OrderDto): Response {
      return Response.status(201).entity(order).build();
    }

    @GET
    @Path('/me')
    @Produces('application/json')
    @Authenticate(bearerTokens)
    @Event(new ProfileViewed(stats))
    me(@Context() user: User): Profile {
      return { id: user.attributes.id, name: user.name, roles: [...user.roles] };
    }

    @GET
    @Path('/stats')
    @Produces('application/json')
    profileStats(): ProfileStats {
      return stats;
    }
  }
  return new IdiomaticResource(service);
}
