/** NestJS 11 on its Fastify platform, as its performance guide recommends, without the logger (see nest/). */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { HOST, announceReady, exitOnSignals, now, requestedPort } from '../../servers/support/server-environment';
import { BenchmarkModule } from './nest/benchmark.controller';

async function main(): Promise<void> {
  const startedAt = now();
  const app = await NestFactory.create<NestFastifyApplication>(BenchmarkModule, new FastifyAdapter(), {
    logger: false,
  });
  await app.init();
  const bootMs = now() - startedAt;
  await app.listen(requestedPort(), HOST);
  announceReady({ port: (app.getHttpServer().address() as AddressInfo).port, bootMs });
  exitOnSignals(() => app.close());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
