import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { openDatabase, postgresForTests } from 'app-support';
import { migrateContentDatabase } from '../src/storage/migrations';
import { DIALECTS, openContentFixture } from './helpers/content-fixture';

const run = promisify(execFile);
const cliDir = join(__dirname, '..', 'src', 'cli');

async function cli(name: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(cliDir, `${name}.js`), ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

for (const dialect of DIALECTS) {
  test.serial(`${dialect}: migrations run at every start without harm; the demo has real image files`, async (t) => {
    const f = await openContentFixture(dialect);
    try {
      await migrateContentDatabase(f.database.db, f.database.dialect);
      const sunrise = await sharp(join(f.assetsRoot, 'images', 'news', 'sunrise.jpg')).metadata();
      t.like(sunrise, { format: 'jpeg', width: 640, height: 400 });
      const boats = await sharp(join(f.assetsRoot, 'images', 'news', 'boats.png')).metadata();
      t.like(boats, { format: 'png', width: 320, height: 240 });
      const rows = await f.database.db
        .selectFrom('structureelements')
        .select(['lft', 'rgt', 'level'])
        .where('elementId', 'is not', null)
        .execute();
      for (const row of rows) t.true(row.rgt > row.lft && row.level >= 1);
      const deleted = await f.query('{ entry(slug: "harbour-traffic-doubles") { id } }');
      await f.service.store.deleteElement(Number(deleted.body.data.entry.id));
      t.is((await f.query('{ entry(slug: "harbour-traffic-doubles") { id } }')).body.data.entry, null);
      t.deepEqual(
        (await f.query('{ entries(slug: "harbour-traffic-doubles", trashed: true) { trashed } }')).body.data.entries,
        [{ trashed: true }],
      );
    } finally {
      await f.close();
    }
  });

  test.serial(`${dialect}: the CLIs export, import, and manage schemas and tokens`, async (t) => {
    // A dozen CLI processes one after another: 35-55 s on two idle cores, more on a loaded machine, where ava's
    // 60 s without a result would stop the file.
    t.timeout(180_000);
    const dir = await mkdtemp(join(tmpdir(), 'content-cli-'));
    const pgSource = dialect === 'postgres' ? await postgresForTests('cg_cli_a') : null;
    const pgTarget = dialect === 'postgres' ? await postgresForTests('cg_cli_b') : null;
    const source = { DATABASE_URL: pgSource?.url ?? join(dir, 'a.db'), ASSETS_DIR: join(dir, 'assets-a') };
    const target = { DATABASE_URL: pgTarget?.url ?? join(dir, 'b.db'), ASSETS_DIR: join(dir, 'assets-b') };
    try {
      t.is((await cli('content-cli', ['seed'], source)).code, 0);
      const exported = await cli('content-cli', ['export', join(dir, 'content.json')], source);
      t.is(exported.code, 0, exported.stderr);
      const document = JSON.parse(await readFile(join(dir, 'content.json'), 'utf8'));
      t.is(document.format, 'content-graphql/1');
      t.true(document.elements.length > 20);
      const imported = await cli('content-cli', ['import', join(dir, 'content.json')], target);
      t.is(imported.code, 0, imported.stderr);
      t.regex(imported.stdout, /imported \d+ elements/);
      const again = await cli('content-cli', ['import', join(dir, 'content.json')], target);
      t.is(again.code, 1);
      t.regex(again.stderr, /already holds content/);
      t.true((await stat(join(dir, 'assets-b', 'images', 'news', 'sunrise.jpg'))).size > 1000);

      // The imported copy answers queries like the original once a schema lets a token read it.
      const created = await cli(
        'access-cli',
        [
          'schemas',
          'create',
          'Everything',
          '--scope',
          'sections.*,volumes.*,categorygroups.*,taggroups.*,globalsets.*,usergroups.everyone',
        ],
        target,
      );
      t.is(created.code, 0, created.stderr);
      const token = JSON.parse(
        (await cli('access-cli', ['tokens', 'create', 'reader', '--schema', 'Everything'], target)).stdout,
      );
      t.regex(token.token, /^[A-Za-z0-9_-]{32}$/);
      const listed = await cli('access-cli', ['tokens', 'list'], target);
      t.false(listed.stdout.includes(token.token), 'listings never show the secret');
      t.is((await cli('access-cli', ['tokens', 'disable', 'reader'], target)).code, 0);
      const tokens = JSON.parse((await cli('access-cli', ['tokens', 'list'], target)).stdout);
      t.false(tokens.find((x: any) => x.name === 'reader').enabled);
      const unknown = await cli('access-cli', ['tokens', 'delete', 'nobody'], target);
      t.is(unknown.code, 1);
      t.regex(unknown.stderr, /No GraphQL token "nobody"/);
      t.is((await cli('access-cli', ['tokens', 'enable', 'reader'], target)).code, 0);
      // Flags are read by node:util's parseArgs: unknown ones and ones missing their value are refused, nothing done.
      const misspelt = await cli('access-cli', ['tokens', 'create', 'other', '--shema', 'Everything'], target);
      t.is(misspelt.code, 2);
      t.regex(misspelt.stderr, /Unknown option '--shema'/);
      const valueless = await cli('content-cli', ['export', '-', '--database'], target);
      t.is(valueless.code, 2);
      t.regex(valueless.stderr, /Option '--database <value>' argument missing/);
      t.false((await cli('access-cli', ['tokens', 'list'], target)).stdout.includes('"other"'));

      const database = await openDatabase<any>(target.DATABASE_URL);
      const f = { db: database.db };
      const { createContentService } = await import('../src/content-service.js');
      const service = await createContentService({
        db: f.db,
        dialect: database.dialect,
        assetsRoot: target.ASSETS_DIR,
        settings: { changePollMs: 0, publicUrl: 'http://cms.test' },
      });
      const result = await service.graphql.execute({
        authorization: `Bearer ${token.token}`,
        query:
          '{ entry(slug: "the-new-harbour-opens") { title ... on news_article_Entry { featuredImage { filename } tags { title } relatedArticles { title } contentBlocks { typeHandle } children { title } } } users { username photo { filename } } }',
      });
      const body = JSON.parse(result.body);
      t.deepEqual(body.data.entry, {
        title: 'The new harbour opens',
        featuredImage: [{ filename: 'sunrise.jpg' }],
        tags: [{ title: 'ships' }, { title: 'weather' }],
        relatedArticles: [],
        contentBlocks: [{ typeHandle: 'text' }, { typeHandle: 'quote' }, { typeHandle: 'image' }],
        children: [{ title: 'First ships dock at the new harbour' }, { title: 'Harbour traffic doubles' }],
      });
      t.deepEqual(
        body.data.users.map((u: any) => u.username),
        ['ada', 'grace', 'linus'],
      );
      t.deepEqual(body.data.users[0].photo, { filename: 'ada.jpg' });
      await service.close();
      await database.destroy();
    } finally {
      await pgSource?.close();
      await pgTarget?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
}
