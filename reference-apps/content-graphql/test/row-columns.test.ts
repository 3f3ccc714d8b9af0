import test from 'ava';
import { isInterfaceType, isLeafType, getNamedType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { DIALECTS, everythingToken, openContentFixture, type ContentFixture } from './helpers/content-fixture';

// Element queries read only the essential columns when every field selected under them is marked as reading only
// those (row-columns.ts). Each marked field, on every type, must answer exactly as it does when all columns are read.

const ROOTS = ['entries', 'assets', 'users', 'categories', 'tags', 'globalSets'];

/** The marked fields of a type that need no argument: leaves as they are, element fields with `{ id }`. */
function markedSelection(type: GraphQLObjectType): string {
  return Object.values(type.getFields())
    .filter(
      (field) =>
        field.extensions?.essentialColumns === true && field.args.every((arg) => arg.type.toString().slice(-1) !== '!'),
    )
    .map((field) => (isLeafType(getNamedType(field.type)) ? field.name : `${field.name} { id }`))
    .join(' ');
}

/** The root fields with every possible type's marked fields, through inline fragments (or named ones); `extra` at every element level. */
function queryOf(schema: GraphQLSchema, extra: string, named: boolean): string {
  const fragments: string[] = [];
  const roots = ROOTS.filter((root) => schema.getQueryType()!.getFields()[root]).map((root) => {
    const type = getNamedType(schema.getQueryType()!.getFields()[root]!.type);
    if (!isInterfaceType(type)) throw new Error(`${root} does not list an interface`);
    const parts = schema.getPossibleTypes(type).map((concrete) => {
      const selection = markedSelection(concrete).replace(/\{ id \}/g, `{ id ${extra} }`);
      if (!named) return `... on ${concrete.name} { ${selection} }`;
      fragments.push(`fragment F_${concrete.name} on ${concrete.name} { ${selection} }`);
      return `...F_${concrete.name}`;
    });
    return `${root}(status: null, site: "*") { __typename ${extra} ${parts.join(' ')} }`;
  });
  return `{ ${roots.join(' ')} } ${fragments.join(' ')}`;
}

function withoutKey(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutKey(item, key));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => name !== key)
      .map(([name, item]) => [name, withoutKey(item, key)]),
  );
}

for (const dialect of DIALECTS) {
  let f: ContentFixture;
  let authorization = '';
  test.serial.before(`${dialect}: open`, async () => {
    f = await openContentFixture(dialect, { enableGraphQlCaching: false });
    authorization = `Bearer ${await everythingToken(f)}`;
  });
  test.serial.after.always(`${dialect}: close`, async () => {
    await f?.close();
  });

  for (const named of [false, true]) {
    test.serial(
      `${dialect}: every field marked as reading essential columns answers as with all columns (${named ? 'named' : 'inline'} fragments)`,
      async (t) => {
        const prepared = await f.service.graphql.prepareExecution(authorization);
        if (!('schema' in prepared)) throw new Error('no schema');
        const essentialQuery = queryOf(prepared.schema, '', named);
        const allQuery = queryOf(prepared.schema, 'uid', named);
        const selectsBefore = f.counter.compiledSelections.length;
        const essential = await f.service.graphql.execute({ query: essentialQuery, authorization });
        const compiled = f.counter.compiledSelections.slice(selectsBefore).filter((names) => names.includes('title'));
        const all = await f.service.graphql.execute({ query: allQuery, authorization });
        const essentialBody = JSON.parse(essential.body);
        t.falsy(essentialBody.errors, JSON.stringify(essentialBody.errors));
        t.true(
          essentialBody.data.entries.length >= 10 &&
            essentialBody.data.assets.length >= 3 &&
            essentialBody.data.users.length >= 2,
          'the demo content is there',
        );
        t.deepEqual(essentialBody, withoutKey(JSON.parse(all.body), 'uid'));
        // The essential path was taken (when compiled now: statements are kept per shape): no uid, slug or dates read.
        if (!named) {
          t.true(compiled.length >= 6, `element statements compiled: ${compiled.length}`);
          for (const names of compiled)
            t.false(
              names.some((name) => ['uid', 'slug', 'dateCreated', 'expiryDate', 'size'].includes(name)),
              names.join(','),
            );
        }
      },
    );
  }

  test.serial(`${dialect}: a field that reads other columns makes the query read all of them`, async (t) => {
    const selectsBefore = f.counter.compiledSelections.length;
    const { body } = await f.query(
      '{ entries(section: "news", level: 1, limit: 5) { title ... on news_article_Entry { featuredImage { filename kind } } children { title } } }',
      { authorization },
    );
    t.falsy(body.errors);
    const compiled = f.counter.compiledSelections.slice(selectsBefore).filter((names) => names.includes('title'));
    // The entries and children statements read essential columns; the images' one (kind) reads all.
    t.is(compiled.filter((names) => names.includes('kindOfFile')).length, 1, JSON.stringify(compiled));
    t.is(compiled.filter((names) => !names.includes('uid')).length, 2, JSON.stringify(compiled));
  });
}
