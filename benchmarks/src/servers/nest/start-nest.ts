/** Boots the NestJS app on a given platform adapter, with the global ValidationPipe, and announces it. */
import 'reflect-metadata';
import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../support/server-environment';
import { BenchModule } from './bench.module';

export async function startNest(createAdapter: () => AbstractHttpAdapter): Promise<void> {
  const startedAt = now();
  const app: INestApplication = await NestFactory.create(BenchModule, createAdapter(), { logger: false });
  app.useGlobalPipes(new ValidationPipe({ transform: true }));
  await app.init();
  const bootMs = now() - startedAt;
  await app.listen(requestedPort(), HOST);
  const address = app.getHttpServer().address() as AddressInfo;
  announceReady({ port: address.port, bootMs });
  exitOnSignals(() => app.close());
}
