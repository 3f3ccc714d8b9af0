/** NestJS's controller of the six test types: a service injected by type, `@Header` for the fixed headers. */
import { Controller, Get, Header, Inject, Injectable, Module, Query } from '@nestjs/common';
import { HELLO_MESSAGE, clampQueries, randomWorldNumber, type World } from '../../contract';
import { HTML_CONTENT_TYPE, TEXT_CONTENT_TYPE } from '../../support/fortunes-html';
import { storeFromEnvironment, type WorldStore } from '../../support/world-store';
import { fortunesPage, readWorlds, updateWorlds } from '../../support/worlds';

export const WORLD_STORE = 'WORLD_STORE';

@Injectable()
export class WorldService {
  constructor(@Inject(WORLD_STORE) private readonly store: WorldStore) {}

  one(): Promise<World> {
    return this.store.find(randomWorldNumber());
  }

  many(count: number): Promise<World[]> {
    return readWorlds(this.store, count);
  }

  update(count: number): Promise<World[]> {
    return updateWorlds(this.store, count);
  }

  fortunes(): Promise<string> {
    return fortunesPage(this.store);
  }
}

@Controller()
export class BenchmarkController {
  constructor(private readonly worlds: WorldService) {}

  @Get('json')
  @Header('Server', 'NestJS')
  json(): { message: string } {
    return { message: HELLO_MESSAGE };
  }

  @Get('db')
  @Header('Server', 'NestJS')
  db(): Promise<World> {
    return this.worlds.one();
  }

  @Get('queries')
  @Header('Server', 'NestJS')
  queries(@Query('queries') queries?: string): Promise<World[]> {
    return this.worlds.many(clampQueries(queries));
  }

  @Get('fortunes')
  @Header('Server', 'NestJS')
  @Header('Content-Type', HTML_CONTENT_TYPE)
  fortunes(): Promise<string> {
    return this.worlds.fortunes();
  }

  @Get('updates')
  @Header('Server', 'NestJS')
  updates(@Query('queries') queries?: string): Promise<World[]> {
    return this.worlds.update(clampQueries(queries));
  }

  @Get('plaintext')
  @Header('Server', 'NestJS')
  @Header('Content-Type', TEXT_CONTENT_TYPE)
  plaintext(): string {
    return HELLO_MESSAGE;
  }
}

@Module({
  controllers: [BenchmarkController],
  providers: [WorldService, { provide: WORLD_STORE, useFactory: () => storeFromEnvironment() }],
})
export class BenchmarkModule {}
