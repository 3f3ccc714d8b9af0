/**
 * The benchmark routes as a rest.uws resource class, through its public API only.
 * Interim parts, until the framework has them (issues 3 and 4): validation is a class-validator call in the
 * method (later `@Valid`), the token is checked from `@HeaderParam` (later `@Authenticate`), the event is
 * emitted from `response.onEnd` (later `@Event`), and the file is streamed by hand (later static files).
 */
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import {
  BadRequestException,
  BodyParam,
  Consumes,
  Context,
  GET,
  HeaderParam,
  HttpServerResponse,
  NotFoundException,
  Optional,
  POST,
  Path,
  PathParam,
  QueryParam,
  Response,
  UnauthorizedException,
} from 'rest.uws';
import { OrderDto } from '../../contract/order-dto';
import { HELLO_BODY, PROFILE_VIEWED_EVENT, userResponse } from '../../contract/routes';
import { userFromAuthorization } from '../support/bearer-tokens';
import type { ProfileStats } from '../support/profile-events';
import { streamFile } from './stream-file';

@Path('/')
export class BenchResource {
  constructor(
    private readonly events: EventEmitter,
    private readonly stats: ProfileStats,
    private readonly staticFilePath: string,
  ) {}

  @GET
  @Path('hello')
  hello() {
    return HELLO_BODY;
  }

  @GET
  @Path('users/{id}')
  user(@PathParam('id') id: number, @QueryParam('fields') @Optional fields?: string) {
    if (!Number.isSafeInteger(id)) throw new BadRequestException(`id must be an integer, got ${id}`);
    return userResponse(id, fields ? fields.split(',') : []);
  }

  @POST
  @Path('orders')
  @Consumes('application/json')
  createOrder(@BodyParam() order: OrderDto) {
    const errors = validateSync(plainToInstance(OrderDto, { ...order }));
    if (errors.length > 0) {
      throw new BadRequestException(errors.map((error) => Object.values(error.constraints ?? { [error.property]: `${error.property} is invalid` }).join(', ')).join('; '));
    }
    return Response.status(201).entity(order).build();
  }

  @GET
  @Path('static/1mb.bin')
  async staticFile(@Context() response: HttpServerResponse): Promise<void> {
    let size: number;
    try {
      size = (await fs.promises.stat(this.staticFilePath)).size;
    } catch {
      throw new NotFoundException('file not found');
    }
    await streamFile(response, this.staticFilePath, size);
  }

  @GET
  @Path('me')
  me(@HeaderParam('authorization') @Optional authorization: string | undefined, @Context() response: HttpServerResponse) {
    const user = userFromAuthorization(authorization);
    if (!user) throw new UnauthorizedException('missing or invalid Bearer token', { headers: { 'WWW-Authenticate': 'Bearer' } });
    response.onEnd(() => this.events.emit(PROFILE_VIEWED_EVENT, user));
    return user;
  }

  @GET
  @Path('stats')
  profileStats() {
    return this.stats;
  }
}
