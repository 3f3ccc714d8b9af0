/** NestJS 11 on its Express 5 platform (see nest/ for the module, controllers, guard and interceptor). */
import { ExpressAdapter } from '@nestjs/platform-express';
import { startNest } from './nest/start-nest';

startNest(() => new ExpressAdapter()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
