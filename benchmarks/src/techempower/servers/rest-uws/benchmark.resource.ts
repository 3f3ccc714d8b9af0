/**
 * TechEmpower's six test types written as an adopter writes a rest.uws resource (docs/getting-started.md): a service
 * passed to the constructor, declared return types, `@Produces` on every route, and `queries` converted by a class of
 * the app's own (its one-argument constructor, a conversion rest.uws applies to a parameter's declared type).
 */
import { DefaultValue, GET, Path, Produces, QueryParam } from 'rest.uws';
import { HELLO_MESSAGE, clampQueries, randomWorldNumber, type World } from '../../contract';
import type { WorldStore } from '../../support/world-store';
import { fortunesPage, readWorlds, updateWorlds } from '../../support/worlds';

/** The `queries` parameter: 1..500, and 1 for anything that is not an integer (the rules want no 400 here). */
export class QueryCount {
  readonly value: number;

  constructor(text: string) {
    this.value = clampQueries(text);
  }
}

/** What the resource delegates to: random worlds read one query each, updated in one statement. */
export class WorldService {
  constructor(private readonly store: WorldStore) {}

  one(): Promise<World> {
    return this.store.find(randomWorldNumber());
  }

  many(count: number): Promise<World[]> {
    return readWorlds(this.store, count);
  }

  update(count: number): Promise<World[]> {
    return updateWorlds(this.store, count);
  }

  fortunesPage(): Promise<string> {
    return fortunesPage(this.store);
  }
}

@Path('/')
export class BenchmarkResource {
  constructor(private readonly worlds: WorldService) {}

  @GET
  @Path('/json')
  @Produces('application/json')
  json(): { message: string } {
    return { message: HELLO_MESSAGE };
  }

  @GET
  @Path('/db')
  @Produces('application/json')
  db(): Promise<World> {
    return this.worlds.one();
  }

  @GET
  @Path('/queries')
  @Produces('application/json')
  queries(@QueryParam('queries') @DefaultValue('1') queries: QueryCount): Promise<World[]> {
    return this.worlds.many(queries.value);
  }

  @GET
  @Path('/fortunes')
  @Produces('text/html; charset=utf-8')
  fortunes(): Promise<string> {
    return this.worlds.fortunesPage();
  }

  @GET
  @Path('/updates')
  @Produces('application/json')
  updates(@QueryParam('queries') @DefaultValue('1') queries: QueryCount): Promise<World[]> {
    return this.worlds.update(queries.value);
  }

  @GET
  @Path('/plaintext')
  @Produces('text/plain')
  plaintext(): string {
    return HELLO_MESSAGE;
  }
}
