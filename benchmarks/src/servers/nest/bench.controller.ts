/** The benchmark routes as a NestJS controller: decorators, pipes, a guard and an interceptor. */
import * as fs from 'node:fs';
import {
  Body,
  Controller,
  Get,
  Param,
  ParseIntPipe,
  Post,
  Query,
  Req,
  StreamableFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { OrderDto } from '../../contract/order-dto';
import { HELLO_BODY, userResponse } from '../../contract/routes';
import { staticFilePath } from '../support/server-environment';
import { BearerGuard, type AuthenticatedRequest } from './bearer.guard';
import { ProfileViewedInterceptor } from './profile-viewed.interceptor';
import { ProfileStatsService } from './profile-stats.service';

@Controller()
export class BenchController {
  constructor(private readonly profileStats: ProfileStatsService) {}

  @Get('hello')
  hello() {
    return HELLO_BODY;
  }

  @Get('users/:id')
  user(@Param('id', ParseIntPipe) id: number, @Query('fields') fields?: string) {
    return userResponse(id, fields ? fields.split(',') : []);
  }

  /** The global ValidationPipe validates the body against OrderDto's class-validator rules; POST answers 201. */
  @Post('orders')
  createOrder(@Body() order: OrderDto) {
    return order;
  }

  @Get('static/1mb.bin')
  staticFile(): StreamableFile {
    const filePath = staticFilePath();
    const { size } = fs.statSync(filePath);
    return new StreamableFile(fs.createReadStream(filePath), { type: 'application/octet-stream', length: size });
  }

  @Get('me')
  @UseGuards(BearerGuard)
  @UseInterceptors(ProfileViewedInterceptor)
  me(@Req() request: AuthenticatedRequest) {
    return request.user;
  }

  @Get('stats')
  stats() {
    return this.profileStats.snapshot();
  }
}
