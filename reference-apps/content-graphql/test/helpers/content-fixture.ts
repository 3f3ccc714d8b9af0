import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AliasNode, ColumnNode, IdentifierNode, ReferenceNode, SelectQueryNode } from 'kysely';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { openDatabase, postgresForTests, type Database } from 'app-support';
import { createContentService, type ContentService } from '../../src/content-service';
import type { ContentDB } from '../../src/storage/database-types';
import type { GraphqlSettings } from '../../src/graphql/graphql-settings';
import { expandScope } from '../../src/domain/access/scope';

export const DIALECTS = ['sqlite', 'postgres'] as const;
export type TestDialect = (typeof DIALECTS)[number];

/**
 * Counts the SQL statements the service runs, to prove that nested queries are batched. Counted when a result
 * comes back, not when a query is compiled: element queries keep their compiled SQL and run it again.
 */
export class QueryCounter implements KyselyPlugin {
  count = 0;
  /** The names (or aliases) each select compiled since the start selected, in order. */
  readonly compiledSelections: string[][] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (SelectQueryNode.is(args.node)) {
      this.compiledSelections.push(
        (args.node.selections ?? []).map(({ selection }) => {
          if (AliasNode.is(selection)) return IdentifierNode.is(selection.alias) ? selection.alias.name : '?';
          if (ReferenceNode.is(selection) && ColumnNode.is(selection.column)) return selection.column.column.name;
          return '?';
        }),
      );
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count++;
    return args.result;
  }
}

export interface ContentFixture {
  service: ContentService;
  database: Database<ContentDB>;
  counter: QueryCounter;
  assetsRoot: string;
  /** Runs a query through the service and returns the parsed body. */
  query(
    query: string,
    options?: { variables?: Record<string, unknown>; authorization?: string; operationName?: string },
  ): Promise<{ status: number; body: any; cached: boolean; phase: string }>;
  close(): Promise<void>;
}

/** A content service on a fresh database (SQLite file or a throwaway PostgreSQL database) with the demo content. */
export async function openContentFixture(
  dialect: TestDialect,
  settings: Partial<GraphqlSettings> = {},
): Promise<ContentFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'content-graphql-'));
  const postgres = dialect === 'postgres' ? await postgresForTests('content_graphql') : null;
  const database = await openDatabase<ContentDB>(postgres ? postgres.url : join(dir, 'content.db'));
  const counter = new QueryCounter();
  const service = await createContentService({
    db: database.db.withPlugin(counter),
    dialect: database.dialect,
    assetsRoot: join(dir, 'assets'),
    settings: { changePollMs: 0, publicUrl: 'http://cms.test', ...settings },
  });
  return {
    service,
    database,
    counter,
    assetsRoot: join(dir, 'assets'),
    async query(query, options = {}) {
      const response = await service.graphql.execute({
        query,
        variables: options.variables,
        authorization: options.authorization,
        operationName: options.operationName,
      });
      return {
        status: response.status,
        body: JSON.parse(response.body),
        cached: response.cached,
        phase: response.phase,
      };
    },
    async close() {
      await service.close();
      await database.destroy();
      await postgres?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A token whose schema reads everything (every section, volume, group, global set and the users): its secret. */
export async function everythingToken(f: ContentFixture): Promise<string> {
  const catalog = await f.service.store.catalog();
  const schema = await f.service.access.createSchema(
    'Everything',
    expandScope(
      ['usergroups.everyone', 'sections.*', 'volumes.*', 'categorygroups.*', 'taggroups.*', 'globalsets.*'],
      catalog,
    ),
  );
  return (await f.service.access.createToken({ name: 'everything', schemaId: schema.id })).token;
}
