import test from 'ava';
import { getIntrospectionQuery } from 'graphql';
import { DIALECTS, everythingToken, openContentFixture, type ContentFixture } from './helpers/content-fixture';

// The compiled executor (graphql-jit, the default) and graphql-js's execute (the debugging switch) must give the same
// answers byte for byte: data, errors with their messages, locations and paths, and statuses.

const EXAMPLE = `query NewsFront($limit: Int) {
  entries(section: "news", level: 1, limit: $limit) {
    id title url postDate @formatDateTime(format: "Y-m-d")
    ... on news_article_Entry { summary featuredImage { url @transform(width: 300, height: 200) width height } }
    children { title url }
  }
}`;

const CASES: Array<{
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  token?: boolean;
}> = [
  { name: 'the docs example', query: EXAMPLE, variables: { limit: 5 }, operationName: 'NewsFront' },
  { name: 'introspection', query: getIntrospectionQuery() },
  {
    name: 'abstract types, fragments, matrix blocks, _count',
    query: `{ entry(slug: "the-new-harbour-opens") { __typename ...F } } fragment F on news_article_Entry {
    readingTime featured _count(field: "tags") topics { title groupHandle } tags { title }
    contentBlocks { __typename typeHandle sortOrder ... on contentBlocks_quote_BlockType { quote attribution } ... on contentBlocks_image_BlockType { image { filename } } } }`,
  },
  {
    name: 'directives',
    query: `{ entry(slug: "storm-warning-for-the-weekend") { atom: postDate @formatDateTime ny: postDate @formatDateTime(format: "D, d M Y H:i T", timezone: "America/New_York")
    ... on news_article_Entry { body @markdown inline: body @markdown(inlineOnly: true) } } assets { url @transform(width: 100) filename @transform(width: 5) } }`,
  },
  {
    name: 'directive arguments from variables',
    query:
      'query($f: String, $w: Int) { entries(limit: 2) { postDate @formatDateTime(format: $f) } assets { url @transform(width: $w) } }',
    variables: { f: 'Y', w: 120 },
  },
  {
    name: 'structures and every kind',
    query: `{ entries(section: "news", level: 1) { title level children { title parent { title } } }
    categories(group: "topics", level: 1) { title children { title } } tags(orderBy: "title DESC") { title } globalSets { name ... on siteInfo_GlobalSet { tagline } } }`,
  },
  {
    name: 'search with scores, aliases, skip and include',
    query:
      'query($yes: Boolean!) { a: entries(search: "harbour") { title searchScore } b: entries(limit: 1) { id @skip(if: $yes) title @include(if: $yes) } }',
    variables: { yes: true },
  },
  {
    name: 'an argument error in one field',
    query: '{ ok: entries(limit: 1) { title } bad: entries(status: "sleeping") { id } }',
  },
  {
    name: 'an error deep in a list',
    query: '{ entries(section: "news") { title postDate @formatDateTime(timezone: "Mars/Olympus") } }',
  },
  {
    name: 'variables of the wrong type',
    query: 'query($v: Int) { entries(limit: $v) { id } }',
    variables: { v: 'many' },
  },
  { name: 'a missing required variable', query: 'query($v: Boolean!) { entries { id @skip(if: $v) } }' },
  { name: 'an unknown operation name', query: 'query A { ping } query B { ping }', operationName: 'C' },
  { name: 'several operations, none named', query: 'query A { ping } query B { ping }' },
  {
    name: 'a private schema with users',
    query:
      '{ users { username fullName email photo { filename } } entries(authorGroup: "editors", level: 1) { title author { username } } }',
    token: true,
  },
];

for (const dialect of DIALECTS) {
  let f: ContentFixture;
  let token = '';
  test.serial.before(`${dialect}: open`, async () => {
    f = await openContentFixture(dialect, { enableGraphQlCaching: false });
    token = await everythingToken(f);
  });
  test.serial.after.always(`${dialect}: close`, async () => {
    await f?.close();
  });

  test.serial(`${dialect}: graphql-jit and graphql-js's execute give the same answers, byte for byte`, async (t) => {
    const settings = f.service.graphql.settings;
    const ask = ({ query, variables, operationName, token: useToken }: (typeof CASES)[number]) =>
      f.service.graphql.execute({
        query,
        variables,
        operationName,
        authorization: useToken ? `Bearer ${token}` : undefined,
      });
    for (const item of CASES) {
      settings.executor = 'graphql-js';
      const reference = await ask(item);
      settings.executor = 'jit';
      const compiled = await ask(item);
      const again = await ask(item);
      t.is(compiled.body, reference.body, item.name);
      t.is(again.body, reference.body, `${item.name}, compiled query reused`);
      t.is(compiled.status, reference.status, item.name);
      t.is(compiled.phase, reference.phase, item.name);
    }
    // The corpus reaches what it claims to: data, execution errors and request errors.
    const bodies = await Promise.all(CASES.map(async (item) => JSON.parse((await ask(item)).body)));
    t.true(bodies[0].data.entries.length === 4 && bodies[1].data.__schema.types.length > 20);
    t.regex(bodies[7].errors[0].message, /Invalid status "sleeping"/);
    t.deepEqual(bodies[7].errors[0].path, ['bad']);
    t.true(
      bodies[8].errors.length > 1 && bodies[8].data.entries.every((e: { postDate: unknown }) => e.postDate === null),
    );
    t.regex(
      bodies[9].errors[0].message,
      /Variable "\$v" got invalid value "many"; Int cannot represent non-integer value/,
    );
    t.is(bodies[11].errors[0].message, 'Unknown operation named "C".');
    t.true(bodies[13].data.users.length === 3);
  });
}
