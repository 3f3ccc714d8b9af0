/** The NestJS application module shared by the Express and Fastify platforms. */
import { Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { BenchController } from './bench.controller';
import { createManyRoutesController } from './many-routes.controller';
import { ProfileStatsService } from './profile-stats.service';

@Module({
  imports: [EventEmitterModule.forRoot()],
  controllers: [BenchController, createManyRoutesController()],
  providers: [ProfileStatsService],
})
export class BenchModule {}
