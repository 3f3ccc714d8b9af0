import test from 'ava';
import sharp from 'sharp';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DIALECTS, openContentFixture, type ContentFixture } from './helpers/content-fixture';
import { formatPhpDate } from '../src/graphql/directives/php-date-format';

for (const dialect of DIALECTS) {
  let f: ContentFixture;
  test.serial.before(`${dialect}: open`, async () => {
    f = await openContentFixture(dialect);
  });
  test.serial.after.always(`${dialect}: close`, async () => {
    await f?.close();
  });
  const reset = () =>
    Object.assign(f.service.graphql.settings, {
      maxGraphqlDepth: 0,
      maxGraphqlComplexity: 0,
      maxGraphqlResults: 0,
      enableGraphqlIntrospection: true,
      enableGraphQlCaching: true,
    });

  test.serial(`${dialect}: @formatDateTime formats DateTime fields only, ATOM in UTC by default`, async (t) => {
    const { body } = await f.query(`{ entry(slug: "city-archive-moves-to-a-new-database") {
      postDate
      atom: postDate @formatDateTime
      day: dateCreated @formatDateTime(format: "Y-m-d")
      ny: postDate @formatDateTime(format: "Y-m-d H:i:s T P", timezone: "America/New_York")
      words: postDate @formatDateTime(format: "l jS \\\\of F Y h:i:s A")
      title @formatDateTime(format: "Y")
    } }`);
    t.deepEqual(body.data.entry, {
      postDate: '2019-08-21T13:05:00+00:00',
      atom: '2019-08-21T13:05:00+00:00',
      day: '2019-08-21',
      ny: '2019-08-21 09:05:00 EDT -04:00',
      words: 'Wednesday 21st of August 2019 01:05:00 PM',
      title: 'City archive moves to a new database',
    });
    const bad = await f.query('{ entry { postDate @formatDateTime(timezone: "Mars/Olympus") } }');
    t.regex(bad.body.errors[0].message, /Invalid timezone "Mars\/Olympus"/);
    t.is(formatPhpDate(new Date('2020-02-29T23:59:58Z'), 'L z t N W o U', 'UTC'), '1 59 29 6 09 2020 1583020798');
  });

  test.serial(`${dialect}: @markdown renders markdown, inline only on request`, async (t) => {
    const { body } = await f.query(`{ entry(slug: "storm-warning-for-the-weekend") { ... on news_article_Entry {
      body @markdown inline: body @markdown(inlineOnly: true) gfm: summary @markdown(flavor: "gfm")
    } } }`);
    t.deepEqual(body.data.entry, {
      body: '<p>Boats should stay in the <em>harbour</em>.</p>\n',
      inline: 'Boats should stay in the <em>harbour</em>.',
      gfm: '<p>Strong winds expected on Saturday.</p>\n',
    });
    const bad = await f.query('{ entry { title @markdown(flavor: "wiki") } }');
    t.regex(bad.body.errors[0].message, /Invalid markdown flavor "wiki"/);
  });

  test.serial(
    `${dialect}: @transform returns the transform URL and generates the resized image with immediately: true`,
    async (t) => {
      const { body } = await f.query(`{ asset(filename: "sunrise.jpg") {
      plain: url
      lazy: url @transform(width: 300)
      now: url @transform(width: 160, height: 100, immediately: true)
      args: url(width: 64, format: "webp", immediately: true)
      named: url(handle: "thumb")
      filename @transform(width: 300)
    } }`);
      const base = 'http://cms.test/assets/images/news/';
      t.deepEqual(body.data.asset, {
        plain: `${base}sunrise.jpg`,
        lazy: `${base}_300xAUTO_crop_center-center_none/sunrise.jpg`,
        now: `${base}_160x100_crop_center-center_none/sunrise.jpg`,
        args: `${base}_64xAUTO_crop_center-center_none/sunrise.webp`,
        named: `${base}_thumb/sunrise.jpg`,
        filename: 'sunrise.jpg',
      });
      const folder = join(f.assetsRoot, 'images', 'news');
      const now = await sharp(join(folder, '_160x100_crop_center-center_none', 'sunrise.jpg')).metadata();
      t.is(now.width, 160);
      t.is(now.height, 100);
      const webp = await sharp(join(folder, '_64xAUTO_crop_center-center_none', 'sunrise.webp')).metadata();
      t.is(webp.format, 'webp');
      t.is(webp.width, 64);
      t.is(webp.height, 40);
      await t.throwsAsync(
        stat(join(folder, '_300xAUTO_crop_center-center_none', 'sunrise.jpg')),
        undefined,
        'without immediately the file waits for its first request',
      );
      const indexed = await f.database.db.selectFrom('assettransformindex').select('location').execute();
      t.deepEqual(indexed.map((r) => r.location).sort(), [
        '_160x100_crop_center-center_none',
        '_64xAUTO_crop_center-center_none',
      ]);
    },
  );

  test.serial(
    `${dialect}: maxGraphqlDepth, maxGraphqlComplexity and maxGraphqlResults give clear errors or cut lists`,
    async (t) => {
      reset();
      f.service.graphql.settings.maxGraphqlDepth = 2;
      const deep = await f.query('{ entries { children { children { children { title } } } } }');
      t.deepEqual(
        deep.body.errors.map((e: any) => e.message),
        ['Max query depth should be 2 but got 4.'],
      );
      t.truthy((await f.query('{ entries { children { title } } }')).body.data);
      reset();
      f.service.graphql.settings.maxGraphqlComplexity = 40;
      const complex = await f.query('{ entries { title children { title } } more: entries { title } }');
      t.deepEqual(
        complex.body.errors.map((e: any) => e.message),
        ['Max query complexity should be 40 but got 48.'],
      );
      t.truthy((await f.query('{ entries { title children { title } } }')).body.data);
      reset();
      f.service.graphql.settings.maxGraphqlResults = 2;
      const { body } = await f.query(
        '{ a: entries { title } b: entries(limit: 5) { title } c: entries(limit: 1) { title } }',
      );
      t.is(body.data.a.length, 2);
      t.is(body.data.b.length, 2);
      t.is(body.data.c.length, 1);
      reset();
    },
  );

  test.serial(`${dialect}: introspection can be turned off`, async (t) => {
    reset();
    f.service.graphql.settings.enableGraphqlIntrospection = false;
    const { body } = await f.query('{ __schema { types { name } } }');
    t.regex(body.errors[0].message, /introspection has been disabled/);
    t.deepEqual((await f.query('{ ping }')).body, { data: { ping: 'pong' } });
    reset();
  });

  test.serial(
    `${dialect}: results are cached per query, variables and operation, and any content change empties the cache`,
    async (t) => {
      reset();
      const query = 'query Q($slug: [String]) { entry(slug: $slug) { title } }';
      const first = await f.query(query, { variables: { slug: 'storm-warning-for-the-weekend' } });
      t.false(first.cached);
      const before = f.counter.count;
      const second = await f.query(query, { variables: { slug: 'storm-warning-for-the-weekend' } });
      t.true(second.cached);
      t.is(f.counter.count, before, 'a cached answer runs no SQL');
      t.deepEqual(second.body, first.body);
      t.false(
        (await f.query(query, { variables: { slug: 'harbour-traffic-doubles' } })).cached,
        'other variables, other entry',
      );
      t.false(
        (await f.query(query, { variables: { slug: 'storm-warning-for-the-weekend' }, operationName: 'Q' })).cached,
        'operation name is part of the key',
      );

      const id = Number((await f.query('{ entry(slug: "storm-warning-for-the-weekend") { id } }')).body.data.entry.id);
      await f.service.store.updateFields(id, {}, 'Gale warning for the weekend');
      const after = await f.query(query, { variables: { slug: 'storm-warning-for-the-weekend' } });
      t.false(after.cached);
      t.deepEqual(after.body, { data: { entry: { title: 'Gale warning for the weekend' } } });

      const errors = await f.query('{ entries(id: "x") { id } }');
      t.false((await f.query('{ entries(id: "x") { id } }')).cached, 'results with errors are not cached');
      t.truthy(errors.body.errors);

      f.service.graphql.settings.enableGraphQlCaching = false;
      await f.query('{ ping }');
      t.false((await f.query('{ ping }')).cached, 'enableGraphQlCaching: false turns caching off');
      reset();
    },
  );

  test.serial(
    `${dialect}: nested relations load in batches: the number of SQL queries does not grow with the number of entries`,
    async (t) => {
      reset();
      f.service.graphql.settings.enableGraphQlCaching = false;
      const nested = (limit: number) => `{ entries(section: "news", status: null, limit: ${limit}) { title
      children { title parent { title } } parent { title }
      ... on news_article_Entry { featuredImage { url @transform(width: 40) } tags { title } topics { title children { title } } contentBlocks { ... on contentBlocks_image_BlockType { image { filename } } } _count(field: "tags") }
    } }`;
      const measure = async (limit: number) => {
        const start = f.counter.count;
        const { body } = await f.query(nested(limit));
        t.falsy(body.errors);
        return { queries: f.counter.count - start, entries: body.data.entries.length };
      };
      const small = await measure(2);
      const large = await measure(9);
      t.is(small.entries, 2);
      t.is(large.entries, 9);
      t.true(
        large.queries <= small.queries,
        `2 entries took ${small.queries} queries, 9 entries took ${large.queries}`,
      );
      t.true(large.queries <= 12, `a nested query of 9 entries ran ${large.queries} SQL statements`);
      reset();
    },
  );

  test.serial(`${dialect}: variables of the wrong type are a clear error`, async (t) => {
    const wrong = await f.query('query ($limit: Int) { entries(limit: $limit) { id } }', {
      variables: { limit: 'ten' },
    });
    t.is(wrong.phase, 'variables');
    t.regex(wrong.body.errors[0].message, /Variable "\$limit" got invalid value "ten"/);
    const response = await f.service.graphql.execute({ query: '{ ping }', variables: [1, 2] as unknown });
    t.is(response.status, 400);
    t.deepEqual(JSON.parse(response.body), { errors: [{ message: 'The variables must be a JSON object' }] });
    const empty = await f.service.graphql.execute({ query: '  ' });
    t.deepEqual(JSON.parse(empty.body), { errors: [{ message: 'No GraphQL query was supplied' }] });
    const syntax = await f.query('{ entries { ');
    t.is(syntax.phase, 'parse');
    t.regex(syntax.body.errors[0].message, /Syntax Error/);
  });
}

for (const dialect of DIALECTS) {
  test(`${dialect}: a transform URL is served as a resized image on its first request`, async (t) => {
    const f = await openContentFixture(dialect);
    try {
      const url = (
        await f.query('{ asset(filename: "boats.png") { url @transform(width: 100, height: 50, mode: "fit") } }')
      ).body.data.asset.url as string;
      const path = new URL(url).pathname;
      t.is(path, '/assets/images/news/_100x50_fit_center-center_none/boats.png');
      const answer = await f.service.files.resolve(path);
      if (answer.status !== 200) return t.fail(answer.message);
      t.is(answer.contentType, 'image/png');
      const meta = await sharp(answer.path).metadata();
      t.is(meta.width, 67);
      t.is(meta.height, 50);
      const original = await f.service.files.resolve('/assets/images/news/boats.png');
      t.like(original, { status: 200, contentType: 'image/png' });
      t.like(await f.service.files.resolve('/assets/images/news/missing.png'), { status: 404 });
      t.like(await f.service.files.resolve('/assets/images/../../etc/passwd'), { status: 400 });
      t.like(await f.service.files.resolve('/assets/images/news/_9x9_melt_center-center_none/boats.png'), {
        status: 404,
      });
      t.like(await f.service.files.resolve('/assets/documents/_100xAUTO_crop_center-center_none/annual-report.txt'), {
        status: 404,
      });
    } finally {
      await f.close();
    }
  });
}
