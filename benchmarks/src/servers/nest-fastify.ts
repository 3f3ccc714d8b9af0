/** NestJS 11 on its Fastify 5 platform (see nest/ for the module, controllers, guard and interceptor). */
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { startNest } from './nest/start-nest';

startNest(() => new FastifyAdapter()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
