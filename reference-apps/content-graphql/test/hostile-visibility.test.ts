import test from 'ava';
import fc from 'fast-check';
import { DIALECTS, openContentFixture, type ContentFixture } from './helpers/content-fixture';
import { expandScope } from '../src/domain/access/scope';

// A public schema that may read the blog section and the images volume, nothing else; a private schema that may
// read everything. Every type, field, query and filtering argument is tried with the public token: nothing private
// may show, neither in the schema (introspection) nor in answers. Everything the public client is told is kept
// and searched at the end for every private text the private client can read.

const PUBLIC_SECTIONS = new Set(['blog']);
const PUBLIC_VOLUMES = new Set(['images']);
const NEVER_PUBLIC = new Set([
  'User',
  'UserInterface',
  'CategoryInterface',
  'TagInterface',
  'GlobalSetInterface',
  'MatrixBlockInterface',
]);

/** Whether the public schema may hold a type, decided from the scope alone (not from what the app builds). */
function publicMaySee(typeName: string): boolean {
  const entry = /^([A-Za-z0-9]+)_([A-Za-z0-9]+)_Entry$/.exec(typeName);
  if (entry) return PUBLIC_SECTIONS.has(entry[1]!);
  const asset = /^([A-Za-z0-9]+)_Asset$/.exec(typeName);
  if (asset) return PUBLIC_VOLUMES.has(asset[1]!);
  if (/_(Category|Tag|GlobalSet|BlockType)$/.test(typeName)) return false;
  return !NEVER_PUBLIC.has(typeName);
}

const TYPES_QUERY = `{ __schema { queryType { name } types { name kind
  fields { name args { name } type { name kind ofType { name kind ofType { name kind ofType { name kind } } } } }
  interfaces { name } possibleTypes { name } } } }`;

interface IntrospectedType {
  name: string;
  kind: string;
  fields: Array<{ name: string; args: Array<{ name: string }>; type: TypeRef }> | null;
  interfaces: Array<{ name: string }> | null;
  possibleTypes: Array<{ name: string }> | null;
}
interface TypeRef {
  name: string | null;
  kind: string;
  ofType?: TypeRef | null;
}
const namedType = (ref: TypeRef): string => (ref.ofType ? namedType(ref.ofType) : ref.name!);

for (const dialect of DIALECTS) {
  let f: ContentFixture;
  let privateToken: string;
  const publicAnswers: string[] = [];
  const ids: Record<string, number> = {};

  /** Asks with the public token (no header) and keeps the answer for the final leak check. */
  const asPublic = async (query: string) => {
    const answer = await f.query(query);
    publicAnswers.push(JSON.stringify(answer.body));
    return answer;
  };
  const asPrivate = (query: string) => f.query(query, { authorization: `Bearer ${privateToken}` });

  test.serial.before(`${dialect}: a narrow public schema and a private schema that reads everything`, async () => {
    f = await openContentFixture(dialect);
    const catalog = await f.service.store.catalog();
    const publicSchema = (await f.service.access.publicSchema())!;
    await f.service.access.updateSchemaScope(
      publicSchema.id,
      expandScope(['sections.blog', 'volumes.images'], catalog),
    );
    const everything = await f.service.access.createSchema(
      'Everything',
      expandScope(
        ['sections.*', 'volumes.*', 'usergroups.everyone', 'categorygroups.*', 'taggroups.*', 'globalsets.*'],
        catalog,
      ),
    );
    privateToken = (await f.service.access.createToken({ name: 'everything', schemaId: everything.id })).token;
    // A private tag whose title appears nowhere else, on the public blog post: search and relations must not reveal it.
    ids.zeppelin = await f.service.store.saveTag({ group: 'blogTags', title: 'Zeppelin' });
    const post = (await asPrivate('{ entry(section: "blog") { id ... on blog_post_Entry { tags { id } } } }')).body.data
      .entry;
    ids.blogPost = Number(post.id);
    ids.ships = Number(post.tags[0].id);
    await f.service.store.updateFields(ids.blogPost, {
      tags: [...post.tags.map((t: { id: string }) => Number(t.id)), ids.zeppelin],
    });
    ids.newsEntry = Number((await asPrivate('{ entry(slug: "the-new-harbour-opens") { id } }')).body.data.entry.id);
    ids.document = Number((await asPrivate('{ asset(volume: "documents") { id } }')).body.data.asset.id);
    ids.category = Number((await asPrivate('{ category { id } }')).body.data.category.id);
    ids.user = Number((await asPrivate('{ user(username: "ada") { id } }')).body.data.user.id);
  });
  test.serial.after.always(`${dialect}: close`, async () => {
    await f?.close();
  });

  test.serial(
    `${dialect}: every type of the full schema is in the public schema exactly when the scope allows it`,
    async (t) => {
      const full = (await asPrivate(TYPES_QUERY)).body.data.__schema.types as IntrospectedType[];
      const publicTypes = new Map(
        ((await asPublic(TYPES_QUERY)).body.data.__schema.types as IntrospectedType[]).map((type) => [type.name, type]),
      );
      const content = full.filter((type) => !type.name.startsWith('__'));
      t.true(
        content.some((type) => !publicMaySee(type.name)),
        'the full schema has private types to hide',
      );
      for (const type of content) {
        const single = (await asPublic(`{ __type(name: ${JSON.stringify(type.name)}) { name } }`)).body.data.__type;
        t.is(
          single?.name ?? null,
          publicTypes.has(type.name) ? type.name : null,
          `__type(name: "${type.name}") agrees with __schema.types`,
        );
        if (!publicMaySee(type.name)) t.false(publicTypes.has(type.name), `${type.name} is private`);
        // The concrete types of what the scope allows must all be there (scalars and interfaces only when something uses them).
        else if (/_(Entry|Asset)$/.test(type.name)) t.true(publicTypes.has(type.name), `${type.name} is public`);
      }
      for (const type of publicTypes.values())
        t.true(type.name.startsWith('__') || publicMaySee(type.name), `public type ${type.name}`);
    },
  );

  test.serial(
    `${dialect}: public types have every field whose type is public and none whose type is not`,
    async (t) => {
      const full = new Map(
        ((await asPrivate(TYPES_QUERY)).body.data.__schema.types as IntrospectedType[]).map((type) => [
          type.name,
          type,
        ]),
      );
      const publicTypes = ((await asPublic(TYPES_QUERY)).body.data.__schema.types as IntrospectedType[]).filter(
        (type) => !type.name.startsWith('__'),
      );
      for (const type of publicTypes) {
        for (const field of type.fields ?? [])
          t.true(publicMaySee(namedType(field.type)), `${type.name}.${field.name} returns ${namedType(field.type)}`);
        for (const related of [...(type.interfaces ?? []), ...(type.possibleTypes ?? [])])
          t.true(publicMaySee(related.name), `${type.name} relates to ${related.name}`);
        const fullType = full.get(type.name)!;
        const publicFields = new Set((type.fields ?? []).map((field) => field.name));
        for (const field of fullType.fields ?? []) {
          if (type.name === 'Query') continue;
          t.is(publicFields.has(field.name), publicMaySee(namedType(field.type)), `${type.name}.${field.name}`);
        }
      }
      const text = JSON.stringify((await asPublic(TYPES_QUERY)).body);
      for (const name of full.keys())
        if (!name.startsWith('__') && !publicMaySee(name))
          t.false(text.includes(`"${name}"`), `${name} named anywhere in the public introspection`);
    },
  );

  const QUERIES = [
    ['entries', 'entry', 'entry', true],
    ['assets', 'asset', 'asset', true],
    ['users', 'user', 'user', false],
    ['tags', 'tag', 'tag', false],
    ['categories', 'category', 'category', false],
    ['globalSets', 'globalSet', 'globalset', false],
  ] as const;
  for (const [list, single, kind, readable] of QUERIES) {
    test.serial(
      `${dialect}: the ${list} and ${single} queries ${readable ? 'return only what the scope allows' : 'do not exist for the public schema'}`,
      async (t) => {
        for (const name of [list, single]) {
          const field = `${name}(status: null, site: "*") { id }`;
          const answer = await asPublic(`{ ${field} }`);
          if (!readable) {
            t.is(answer.body.data, undefined);
            t.regex(answer.body.errors[0].message, new RegExp(`^Cannot query field "${name}" on type "Query"\\.`));
            t.truthy((await asPrivate(`{ ${field} }`)).body.data[name], 'the private schema has it');
          }
        }
        if (!readable) return;
        const detail = kind === 'entry' ? 'sectionHandle' : 'volumeId';
        const query = `{ ${list}(status: null, site: "*", unique: true) { id ${detail} } }`;
        const publicIds = (await asPublic(query)).body.data[list] as Array<Record<string, unknown>>;
        const everything = (await asPrivate(query)).body.data[list] as Array<Record<string, unknown>>;
        const volumes = new Map(
          (
            (await asPrivate('{ assets(volume: "images", limit: 1) { volumeId } }')).body.data.assets as Array<{
              volumeId: number;
            }>
          ).map((a) => [a.volumeId, 'images']),
        );
        const allowed = everything.filter((row) =>
          kind === 'entry' ? PUBLIC_SECTIONS.has(String(row.sectionHandle)) : volumes.has(Number(row.volumeId)),
        );
        t.true(everything.length > allowed.length, 'there is private content of this kind');
        t.deepEqual(publicIds.map((row) => row.id).sort(), allowed.map((row) => row.id).sort());
      },
    );
  }

  test.serial(`${dialect}: arguments that point at private elements find nothing`, async (t) => {
    const cases: Array<[string, string, unknown]> = [
      ['section handle', '{ entries(section: "news", status: null) { id } }', { entries: [] }],
      ['ids', `{ entries(id: [${ids.newsEntry}], status: null) { id } }`, { entries: [] }],
      ['slug', '{ entry(slug: "about-us") { id } }', { entry: null }],
      [
        'ref',
        '{ entries(ref: ["entry:news/the-new-harbour-opens", "entry:' + ids.newsEntry + '"]) { id } }',
        { entries: [] },
      ],
      ['uri', '{ entries(uri: "news/the-new-harbour-opens") { id } }', { entries: [] }],
      ['volume', '{ assets(volume: "documents") { id } }', { assets: [] }],
      ['asset id', `{ asset(id: ${ids.document}) { id } }`, { asset: null }],
      ['file name', '{ assets(filename: "annual-report.txt") { id } }', { assets: [] }],
      ['relatedTo a private tag', `{ entries(relatedTo: [${ids.zeppelin}]) { id } }`, { entries: [] }],
      [
        'relatedTo a private entry',
        `{ entries(relatedTo: [${ids.newsEntry}]) { id } assets(relatedTo: [${ids.newsEntry}]) { id } }`,
        { entries: [], assets: [] },
      ],
      [
        'relatedToAll with a private element',
        `{ entries(relatedToAll: [${ids.zeppelin}, ${ids.ships}]) { id } }`,
        { entries: [] },
      ],
      ['search for a private tag title', '{ entries(search: "zeppelin") { id } }', { entries: [] }],
      ['search in a private relation field', '{ entries(search: "tags:ships") { id } }', { entries: [] }],
      ['search in a private entry', '{ entries(search: "lighthouse", status: null) { id } }', { entries: [] }],
      ['descendants of a private entry', `{ entries(descendantOf: ${ids.newsEntry}) { id } }`, { entries: [] }],
    ];
    for (const [name, query, expected] of cases) {
      const answer = await asPublic(query);
      t.deepEqual(answer.body, { data: expected }, name);
      const privately = await asPrivate(query);
      t.notDeepEqual(
        privately.body,
        { data: expected },
        `${name}: the private schema finds something, so the case is real`,
      );
    }
  });

  test.serial(`${dialect}: fields and arguments about private kinds do not exist or refuse`, async (t) => {
    const count = await asPublic(`{ entry(id: ${ids.blogPost}) { _count(field: "tags") } }`);
    t.is(count.body.errors?.[0]?.message, 'The element has no field "tags" to count relations of');
    t.is((await asPrivate(`{ entry(id: ${ids.blogPost}) { _count(field: "tags") } }`)).body.data.entry._count, 2);
    for (const query of [
      '{ entries(authorGroup: "editors") { id } }',
      '{ entries(authorGroupId: 1) { id } }',
      `{ entry(id: ${ids.blogPost}) { ... on blog_post_Entry { tags { id } } } }`,
      `{ entry(id: ${ids.blogPost}) { author { id } } }`,
      '{ entries { ... on news_article_Entry { id } } }',
    ]) {
      const answer = await asPublic(query);
      t.is(answer.body.data, undefined, query);
      t.regex(answer.body.errors[0].message, /^(Unknown argument|Cannot query field|Unknown type)/, query);
    }
  });

  test.serial(
    `${dialect}: property: for any scope, the schema and the answers hold only what the scope allows`,
    async (t) => {
      const catalog = await f.service.store.catalog();
      const sections = [...catalog.sectionsById.values()].map((section) => section.handle);
      const volumes = [...catalog.volumesById.values()].map((volume) => volume.handle);
      const groups = [...catalog.categoryGroupsById.values()].map((group) => `categorygroups.${group.handle}`);
      const tagGroups = [...catalog.tagGroupsById.values()].map((group) => `taggroups.${group.handle}`);
      const globalSets = [...catalog.globalSetsById.values()].map((set) => `globalsets.${set.handle}`);
      const items = [
        ...sections.map((h) => `sections.${h}`),
        ...volumes.map((h) => `volumes.${h}`),
        ...groups,
        ...tagGroups,
        ...globalSets,
        'usergroups.everyone',
      ];
      const schema = await f.service.access.createSchema('Random scope', []);
      const token = (await f.service.access.createToken({ name: 'random-scope', schemaId: schema.id })).token;
      const ask = (query: string) => f.query(query, { authorization: `Bearer ${token}` });
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(fc.subarray(items), async (chosen) => {
          runs++;
          await f.service.access.updateSchemaScope(schema.id, expandScope(chosen, catalog));
          const has = (item: string) => chosen.includes(item);
          const may = (typeName: string): boolean => {
            const entry = /^([A-Za-z0-9]+)_[A-Za-z0-9]+_Entry$/.exec(typeName);
            if (entry) return has(`sections.${entry[1]}`);
            const asset = /^([A-Za-z0-9]+)_Asset$/.exec(typeName);
            if (asset) return has(`volumes.${asset[1]}`);
            const category = /^([A-Za-z0-9]+)_Category$/.exec(typeName);
            if (category) return has(`categorygroups.${category[1]}`);
            const tag = /^([A-Za-z0-9]+)_Tag$/.exec(typeName);
            if (tag) return has(`taggroups.${tag[1]}`);
            const set = /^([A-Za-z0-9]+)_GlobalSet$/.exec(typeName);
            if (set) return has(`globalsets.${set[1]}`);
            if (typeName === 'User' || typeName === 'UserInterface') return has('usergroups.everyone');
            if (typeName === 'CategoryInterface') return groups.some(has);
            if (typeName === 'TagInterface') return tagGroups.some(has);
            if (typeName === 'GlobalSetInterface') return globalSets.some(has);
            return true;
          };
          const types = (await ask('{ __schema { types { name } } }')).body.data.__schema.types as Array<{
            name: string;
          }>;
          for (const type of types)
            if (!may(type.name)) throw new Error(`scope ${JSON.stringify(chosen)} shows type ${type.name}`);
          const readableSections = sections.filter((h) => has(`sections.${h}`));
          if (readableSections.length) {
            const entries = (await ask('{ entries(status: null, site: "*") { sectionHandle } }')).body.data
              .entries as Array<{ sectionHandle: string }>;
            for (const entry of entries)
              if (!readableSections.includes(entry.sectionHandle))
                throw new Error(`scope ${JSON.stringify(chosen)} returned an entry of ${entry.sectionHandle}`);
          } else {
            const answer = await ask('{ entries { id } }');
            if (answer.body.data !== undefined) throw new Error(`scope ${JSON.stringify(chosen)} has an entries query`);
          }
        }),
        { numRuns: 25 },
      );
      t.is(runs, 25);
    },
  );

  test.serial(`${dialect}: no public answer contains any private text`, async (t) => {
    const privateTexts = new Set<string>();
    const collect = (value: unknown) => {
      if (typeof value === 'string' && value.length >= 4 && !/^\d/.test(value)) privateTexts.add(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(
      (
        await asPrivate(`{
      entries(section: ["news", "about"], status: null, site: "*") { title slug uri ... on news_article_Entry { summary body } }
      assets(volume: "documents") { title filename url }
      users(status: null) { username email fullName }
      categories { title slug }
      tags(title: "Zeppelin") { title }
      globalSets { name handle ... on siteInfo_GlobalSet { tagline footerText } }
    }`)
      ).body.data,
    );
    // Texts the blog or the images share with private content are not private.
    const publicData = (
      await asPublic('{ entries(status: null, site: "*") { title slug uri } assets { title filename } }')
    ).body.data;
    const shared = new Set<string>();
    (function gather(value: unknown) {
      if (typeof value === 'string') shared.add(value);
      else if (Array.isArray(value)) value.forEach(gather);
      else if (value && typeof value === 'object') Object.values(value).forEach(gather);
    })(publicData);
    const secrets = [...privateTexts].filter((text) => !shared.has(text));
    t.true(secrets.length > 20, `private texts to look for: ${secrets.length}`);
    // Every string a public client was told (values and keys); long private texts are also looked for inside them.
    const told = new Set<string>();
    const tell = (value: unknown) => {
      if (typeof value === 'string') told.add(value);
      else if (Array.isArray(value)) value.forEach(tell);
      else if (value && typeof value === 'object')
        for (const [key, inner] of Object.entries(value)) {
          told.add(key);
          tell(inner);
        }
    };
    publicAnswers.forEach((answer) => tell(JSON.parse(answer)));
    t.true(publicAnswers.length > 40);
    const everything = [...told].join('\n');
    for (const secret of secrets) {
      t.false(told.has(secret), `private text ${JSON.stringify(secret)} reached a public client`);
      if (secret.length >= 10)
        t.false(
          everything.includes(secret),
          `private text ${JSON.stringify(secret)} reached a public client inside another text`,
        );
    }
  });
}
