/**
 * The database both servers read: the app's demo content, seeded once per run into a fresh SQLite file
 * (or a PostgreSQL database given by URL), and the example's transformed image generated up front so that
 * `immediately: true` finds it on disk in every measured request, as it would on a warm production server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openDatabase } from 'app-support';
import { createContentService, type ContentDB } from 'content-graphql';
import { EXAMPLE_QUERY, EXAMPLE_VARIABLES, wrongAnswer } from './example-query';

export interface BenchDatabase {
  databaseUrl: string;
  assetsRoot: string;
}

export async function prepareBenchDatabase(databaseUrl: string | undefined): Promise<BenchDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-content-graphql-'));
  const url = databaseUrl ?? path.join(dir, 'content.db');
  const assetsRoot = path.join(dir, 'assets');
  const database = await openDatabase<ContentDB>(url);
  try {
    const service = await createContentService({
      db: database.db,
      dialect: database.dialect,
      assetsRoot,
      settings: { changePollMs: 0 },
    });
    try {
      const answer = await service.graphql.execute({
        query: EXAMPLE_QUERY,
        variables: EXAMPLE_VARIABLES,
        operationName: 'NewsFront',
      });
      const wrong = wrongAnswer(JSON.parse(answer.body));
      if (wrong) throw new Error(`the seeded database does not answer the example query: ${wrong}`);
    } finally {
      await service.close();
    }
  } finally {
    await database.destroy();
  }
  return { databaseUrl: url, assetsRoot };
}
