/** The benchmark routes as a routing-controllers controller: decorators, class-validator bodies, @Authorized. */
import type { Response } from 'express';
import {
  Authorized,
  Body,
  CurrentUser,
  Get,
  HttpCode,
  JsonController,
  Param,
  Post,
  QueryParam,
  Res,
} from 'routing-controllers';
import { OrderDto } from '../../contract/order-dto';
import { HELLO_BODY, PROFILE_VIEWED_EVENT, userResponse } from '../../contract/routes';
import type { BenchUser } from '../support/bearer-tokens';
import type { EventEmitter } from 'node:events';
import type { ProfileStats } from '../support/profile-events';

export function createBenchController(events: EventEmitter, stats: ProfileStats): new () => object {
  @JsonController()
  class BenchController {
    @Get('/hello')
    hello() {
      return HELLO_BODY;
    }

    @Get('/users/:id')
    user(@Param('id') id: number, @QueryParam('fields') fields?: string) {
      return userResponse(id, fields ? fields.split(',') : []);
    }

    /** `validation: true` in the server options makes the body pass class-validator against OrderDto. */
    @Post('/orders')
    @HttpCode(201)
    createOrder(@Body({ required: true }) order: OrderDto) {
      return order;
    }

    @Get('/me')
    @Authorized()
    me(@CurrentUser({ required: true }) user: BenchUser, @Res() response: Response) {
      response.once('finish', () => events.emit(PROFILE_VIEWED_EVENT, user));
      return user;
    }

    @Get('/stats')
    stats() {
      return stats;
    }
  }
  return BenchController;
}
