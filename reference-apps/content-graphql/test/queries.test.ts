import test from 'ava';
import { expandScope } from '../src/domain/access/scope';
import { DIALECTS, openContentFixture, type ContentFixture } from './helpers/content-fixture';

for (const dialect of DIALECTS) {
  let fixture: ContentFixture;
  const t = (title: string, fn: (t: import('ava').ExecutionContext, f: ContentFixture) => Promise<void>) =>
    test.serial(`${dialect}: ${title}`, (tc) => fn(tc, fixture));

  test.serial.before(`${dialect}: open`, async () => {
    fixture = await openContentFixture(dialect);
  });

  t('ping answers pong', async (tc, f) => {
    tc.deepEqual((await f.query('{ ping }')).body, { data: { ping: 'pong' } });
  });

  t('entries default to live entries, newest post date first', async (tc, f) => {
    const { body } = await f.query(
      '{ entries(section: "blog") { title } news: entries(type: "link") { title status } all: entries { title } }',
    );
    tc.deepEqual(body.data.entries, [{ title: 'Why we write about ships' }]);
    tc.deepEqual(body.data.news, [{ title: 'Harbour festival programme', status: 'live' }]);
    const titles = body.data.all.map((e: { title: string }) => e.title);
    tc.is(titles[0], 'Harbour festival programme');
    tc.false(titles.includes('Lighthouse restoration planned'), 'pending entry is not live');
    tc.false(titles.includes('Ferry timetable for winter 2018'), 'expired entry is not live');
    tc.false(titles.includes('Draft notes on the fish market'), 'disabled entry is not live');
  });

  t('status lists mean OR, and null means any status', async (tc, f) => {
    const { body } = await f.query(
      '{ a: entries(status: ["pending", "expired"]) { title status } b: entries(status: null, section: "news") { title } c: entries(status: "disabled") { title status } }',
    );
    tc.deepEqual(body.data.a.map((e: any) => e.status).sort(), ['expired', 'pending']);
    tc.is(body.data.b.length, 9);
    tc.deepEqual(body.data.c, [{ title: 'Draft notes on the fish market', status: 'disabled' }]);
  });

  t('structure section queried alone comes in structure order, with children and parent', async (tc, f) => {
    const { body } = await f.query(
      '{ entries(section: "news", level: 1) { title level children { title level parent { title } } } }',
    );
    tc.deepEqual(body.data.entries[0], {
      title: 'The new harbour opens',
      level: 1,
      children: [
        { title: 'First ships dock at the new harbour', level: 2, parent: { title: 'The new harbour opens' } },
        { title: 'Harbour traffic doubles', level: 2, parent: { title: 'The new harbour opens' } },
      ],
    });
  });

  t('date arguments take operators and and-lists; after is inclusive, before exclusive', async (tc, f) => {
    const { body } = await f.query(`{
      april: entries(postDate: ["and", ">= 2018-04-01", "< 2018-05-01"]) { title }
      after: entries(after: "2019-08-21T13:05:00+00:00", section: "news") { title }
      before: entries(before: "2019-08-21T13:05:00+00:00", section: "news", level: 1) { title }
    }`);
    tc.deepEqual(body.data.april.map((e: any) => e.title).sort(), [
      'First ships dock at the new harbour',
      'The new harbour opens',
    ]);
    tc.true(body.data.after.some((e: any) => e.title === 'City archive moves to a new database'));
    tc.false(body.data.before.some((e: any) => e.title === 'City archive moves to a new database'));
    const bad = await f.query('{ entries(postDate: ">= yesterday-ish") { title } }');
    tc.regex(bad.body.errors[0].message, /Invalid date "yesterday-ish" for argument "postDate"/);
  });

  t('id lists, not, fixedOrder, inReverse, offset and limit', async (tc, f) => {
    const all = (await f.query('{ entries(section: "news", orderBy: "title") { id title } }')).body.data.entries;
    const ids = all.map((e: any) => Number(e.id));
    const [a, b, c] = [ids[3], ids[0], ids[2]];
    const { body } = await f.query(`{
      fixed: entries(id: [${a}, ${b}, ${c}], fixedOrder: true) { id }
      noIds: entries(fixedOrder: true) { id }
      not: entries(id: ["not", ${a}], section: "news") { id }
      rev: entries(section: "news", orderBy: "title", inReverse: true) { title }
      page: entries(section: "news", orderBy: "title", offset: 1, limit: 2) { title }
    }`);
    tc.deepEqual(
      body.data.fixed.map((e: any) => Number(e.id)),
      [a, b, c],
    );
    tc.deepEqual(body.data.noIds, []);
    tc.is(body.data.not.length, all.length - 1);
    tc.deepEqual(
      body.data.rev.map((e: any) => e.title),
      all.map((e: any) => e.title).reverse(),
    );
    tc.deepEqual(
      body.data.page.map((e: any) => e.title),
      all.slice(1, 3).map((e: any) => e.title),
    );
  });

  t('orderBy takes several columns and rejects unknown ones', async (tc, f) => {
    const { body } = await f.query(
      '{ entries(section: "news", orderBy: "typeId DESC, postDate ASC") { title typeHandle } }',
    );
    tc.is(body.data.entries[0].typeHandle, 'link');
    tc.is(body.data.entries[1].title, 'The new harbour opens');
    const bad = await f.query('{ entries(orderBy: "password; drop table entries") { title } }');
    tc.regex(bad.body.errors[0].message, /Invalid orderBy/);
  });

  t('search: terms, OR, -term, phrases and field:value', async (tc, f) => {
    const q = async (search: string) =>
      (
        await f.query(`{ entries(search: ${JSON.stringify(search)}, orderBy: "title") { title } }`)
      ).body.data.entries.map((e: any) => e.title);
    tc.deepEqual(await q('harbour years'), ['The new harbour opens']);
    tc.deepEqual(
      await q('harbour opens'),
      ['Storm warning for the weekend', 'The new harbour opens'],
      'relation fields index the titles of related entries',
    );
    tc.deepEqual(await q('twelve OR postgresql'), [
      'City archive moves to a new database',
      'First ships dock at the new harbour',
    ]);
    tc.deepEqual(await q('storm OR festival'), ['Harbour festival programme', 'Storm warning for the weekend']);
    tc.false((await q('harbour -ships')).includes('The new harbour opens'));
    tc.deepEqual(await q('"strong winds"'), ['Storm warning for the weekend']);
    tc.deepEqual(await q('"winds strong"'), []);
    tc.deepEqual(await q('summary:twelve'), ['First ships dock at the new harbour']);
    tc.deepEqual(await q('title:twelve'), []);
    const scored = (await f.query('{ entries(search: "harbour") { title searchScore } }')).body.data.entries;
    tc.true(scored.length > 1);
    tc.true(Number(scored[0].searchScore) >= Number(scored[scored.length - 1].searchScore));
  });

  t('relatedTo finds both sides of relations; relatedToAll needs all', async (tc, f) => {
    const tags = (await f.query('{ tags { id title } }')).body.data.tags;
    const ships = tags.find((x: any) => x.title === 'ships').id;
    const weather = tags.find((x: any) => x.title === 'weather').id;
    const { body } = await f.query(`{
      any: entries(relatedTo: [${ships}, ${weather}], orderBy: "title") { title }
      all: entries(relatedToAll: [${ships}, ${weather}]) { title }
      reverse: tags(relatedTo: [${(await f.query('{ entry(slug: "storm-warning-for-the-weekend") { id } }')).body.data.entry.id}]) { title }
    }`);
    tc.deepEqual(body.data.all, [{ title: 'The new harbour opens' }]);
    tc.is(body.data.any.length, 5);
    tc.deepEqual(body.data.reverse, [{ title: 'weather' }]);
  });

  t('sites: default is the primary site; site argument picks another', async (tc, f) => {
    const { body } = await f.query(
      '{ a: entry(section: "about") { title url siteId } b: entry(section: "about", site: "french") { title url } c: entries(section: "about", site: "*") { title } }',
    );
    tc.is(body.data.a.title, 'About us');
    tc.is(body.data.a.url, 'http://cms.test/about');
    tc.deepEqual(body.data.b, { title: 'À propos', url: 'http://cms.test/fr/a-propos' });
    tc.is(body.data.c.length, 2);
    const bad = await f.query('{ entries(site: "klingon") { title } }');
    tc.regex(bad.body.errors[0].message, /Invalid site handle/);
  });

  t(
    'structure arguments: ancestorOf, descendantOf with distance, siblings, positions, leaves, hasDescendants',
    async (tc, f) => {
      const news = (await f.query('{ entries(section: "news", level: null) { id title level } }')).body.data.entries;
      const id = (title: string) => news.find((e: any) => e.title === title).id;
      const parent = id('The new harbour opens');
      const first = id('First ships dock at the new harbour');
      const second = id('Harbour traffic doubles');
      const { body } = await f.query(`{
      anc: entries(ancestorOf: ${second}) { title }
      desc: entries(section: "news", descendantOf: ${parent}, descendantDist: 1) { title }
      next: entry(nextSiblingOf: ${first}) { title }
      prev: entry(prevSiblingOf: ${second}) { title }
      after: entries(positionedAfter: ${parent}, section: "news", level: 1) { title }
      before: entries(positionedBefore: ${id('City archive moves to a new database')}, section: "news") { title }
      leaves: entries(section: "news", leaves: true, level: 2) { title }
      parents: entries(section: "news", hasDescendants: true) { title }
      editable: entries(editable: true) { title }
    }`);
      tc.deepEqual(body.data.anc, [{ title: 'The new harbour opens' }]);
      tc.deepEqual(
        body.data.desc.map((e: any) => e.title),
        ['First ships dock at the new harbour', 'Harbour traffic doubles'],
      );
      tc.deepEqual(body.data.next, { title: 'Harbour traffic doubles' });
      tc.deepEqual(body.data.prev, { title: 'First ships dock at the new harbour' });
      tc.true(body.data.after.every((e: any) => e.title !== 'The new harbour opens'));
      tc.deepEqual(
        body.data.before.map((e: any) => e.title),
        ['The new harbour opens', 'First ships dock at the new harbour', 'Harbour traffic doubles'],
      );
      tc.is(body.data.leaves.length, 2);
      tc.deepEqual(body.data.parents, [{ title: 'The new harbour opens' }]);
      tc.deepEqual(body.data.editable, []);
    },
  );

  t('concrete types, custom fields, matrix blocks and _count', async (tc, f) => {
    const { body } = await f.query(`{ entry(slug: "the-new-harbour-opens") {
      __typename
      ... on news_article_Entry { readingTime featured _count(field: "tags") topics { title groupHandle } tags { title }
        contentBlocks { __typename typeHandle sortOrder ... on contentBlocks_quote_BlockType { quote attribution } ... on contentBlocks_image_BlockType { image { filename } } } }
    } }`);
    const entry = body.data.entry;
    tc.is(entry.__typename, 'news_article_Entry');
    tc.is(entry.readingTime, 4);
    tc.true(entry.featured);
    tc.is(entry._count, 2);
    tc.deepEqual(entry.topics, [{ title: 'Harbour life', groupHandle: 'topics' }]);
    tc.deepEqual(
      entry.contentBlocks.map((b: any) => b.__typename),
      ['contentBlocks_text_BlockType', 'contentBlocks_quote_BlockType', 'contentBlocks_image_BlockType'],
    );
    tc.deepEqual(entry.contentBlocks[1], {
      __typename: 'contentBlocks_quote_BlockType',
      typeHandle: 'quote',
      sortOrder: 2,
      quote: 'A harbour for everyone.',
      attribution: 'The mayor',
    });
    tc.deepEqual(entry.contentBlocks[2].image, [{ filename: 'boats.png' }]);
  });

  t('assets, categories, tags and global sets with their own arguments', async (tc, f) => {
    const { body } = await f.query(`{
      wide: assets(width: ">= 600") { filename width height kind mimeType extension hasFocalPoint focalPoint size path }
      pngs: assets(filename: "*.png") { filename }
      folder: asset(volume: "images", filename: "ada.jpg") { folderId }
      cats: categories(group: "topics", level: 1) { title children { title } }
      cat: category(slug: "databases") { title parent { title } url }
      tags: tags(group: "blogTags", orderBy: "title DESC") { title }
      globals: globalSets { name handle ... on siteInfo_GlobalSet { tagline } }
      set: globalSet(handle: "siteInfo") { name }
    }`);
    tc.is(body.data.wide.length, 1);
    tc.like(body.data.wide[0], {
      filename: 'sunrise.jpg',
      width: 640,
      height: 400,
      kind: 'image',
      mimeType: 'image/jpeg',
      extension: 'jpg',
      hasFocalPoint: true,
      focalPoint: [0.7, 0.35],
      path: 'news/sunrise.jpg',
    });
    tc.true(Number(body.data.wide[0].size) > 1000);
    tc.deepEqual(body.data.pngs, [{ filename: 'boats.png' }]);
    tc.deepEqual(body.data.cats, [
      { title: 'Technology', children: [{ title: 'Databases' }, { title: 'Web' }] },
      { title: 'Harbour life', children: [] },
    ]);
    tc.deepEqual(body.data.cat, {
      title: 'Databases',
      parent: { title: 'Technology' },
      url: 'http://cms.test/topics/technology/databases',
    });
    tc.deepEqual(
      body.data.tags.map((x: any) => x.title),
      ['weather', 'sql', 'ships'],
    );
    tc.deepEqual(body.data.globals, [
      { name: 'Site information', handle: 'siteInfo', tagline: 'News from the harbour' },
    ]);
    tc.deepEqual(body.data.set, { name: 'Site information' });
    const folder = body.data.folder.folderId;
    const sub = await f.query(`{ a: assets(folderId: ${folder}) { filename } }`);
    tc.deepEqual(sub.body.data.a, [{ filename: 'ada.jpg' }]);
  });

  t('users need a schema that allows them; then users, user, photo and author work', async (tc, f) => {
    const hidden = await f.query('{ users { username } }');
    tc.regex(hidden.body.errors[0].message, /Cannot query field "users" on type "Query"/);
    const catalog = await f.service.store.catalog();
    const schema = await f.service.access.createSchema(
      'Users reader',
      expandScope(['usergroups.everyone', 'sections.news', 'volumes.images'], catalog),
    );
    const { token } = await f.service.access.createToken({ name: 'users-token', schemaId: schema.id });
    const auth = `Bearer ${token}`;
    const { body } = await f.query(
      `{
      users { username fullName friendlyName name }
      editors: users(group: "editors") { username email photo { filename } }
      byId: users(groupId: ${[...catalog.userGroupsById.values()].find((g) => g.handle === 'authors')!.id}) { username }
      named: user(firstName: "Grace") { lastName preferences }
      authored: entries(authorGroup: "editors", section: "news", level: 1) { title author { username } }
    }`,
      { authorization: auth },
    );
    tc.deepEqual(
      body.data.users.map((u: any) => u.username),
      ['ada', 'grace', 'linus'],
    );
    tc.deepEqual(body.data.users[2], { username: 'linus', fullName: null, friendlyName: 'linus', name: 'linus' });
    tc.deepEqual(body.data.editors, [{ username: 'ada', email: 'ada@example.com', photo: { filename: 'ada.jpg' } }]);
    tc.deepEqual(body.data.byId, [{ username: 'grace' }]);
    tc.deepEqual(body.data.named, { lastName: 'Hopper', preferences: '{}' });
    tc.true(body.data.authored.length > 0);
    tc.true(body.data.authored.every((e: any) => e.author.username === 'ada'));
  });

  t('bad arguments give a clear GraphQL error, never a crash', async (tc, f) => {
    const cases: Array<[string, RegExp]> = [
      ['{ entries(id: "abc") { id } }', /Invalid value "abc" for argument "id"/],
      ['{ entries(status: "sleeping") { id } }', /Invalid status "sleeping"/],
      ['{ entries(offset: -1) { id } }', /Invalid offset/],
      ['{ entry { _count(field: "nope") } }', /no field "nope"/],
      ['{ assets { url(width: 100000) } }', /Invalid transform width/],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await f.query(query);
      tc.is(status, 200);
      tc.regex(body.errors[0].message, message, query);
    }
  });

  test.serial.after.always(`${dialect}: close`, async () => {
    await fixture?.close();
  });
}
