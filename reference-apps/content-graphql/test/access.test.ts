import test from 'ava';
import { expandScope } from '../src/domain/access/scope';
import { hashToken } from '../src/storage/access-store';
import { DIALECTS, openContentFixture, type ContentFixture } from './helpers/content-fixture';

for (const dialect of DIALECTS) {
  let f: ContentFixture;
  test.serial.before(`${dialect}: open`, async () => {
    f = await openContentFixture(dialect);
  });
  test.serial.after.always(`${dialect}: close`, async () => {
    await f?.close();
  });

  test.serial(`${dialect}: tokens are stored hashed and pick their schema`, async (t) => {
    const catalog = await f.service.store.catalog();
    const schema = await f.service.access.createSchema('Blog only', expandScope(['entrytypes.blog.post'], catalog));
    const { token, record } = await f.service.access.createToken({ name: 'blog-app', schemaId: schema.id });
    t.regex(token, /^[A-Za-z0-9_-]{32}$/);
    const rows = await f.database.db.selectFrom('gqltokens').selectAll().execute();
    t.false(JSON.stringify(rows).includes(token), 'the secret is not in the database');
    t.true(rows.some((r) => r.accessTokenHash === hashToken(token)));
    t.is(record.tokenPrefix, token.slice(0, 4));

    const { body } = await f.query('{ entries { title __typename } }', { authorization: `Bearer ${token}` });
    t.deepEqual(body.data.entries, [{ title: 'Why we write about ships', __typename: 'blog_post_Entry' }]);
    // Case-insensitive scheme, and the token may be one of several comma-separated credentials.
    const other = await f.query('{ entries { title } }', { authorization: `Basic abc, bearer ${token}` });
    t.is(other.body.data.entries.length, 1);
  });

  test.serial(`${dialect}: the schema a token sees holds only what its scope allows`, async (t) => {
    const catalog = await f.service.store.catalog();
    const schema = await f.service.access.createSchema(
      'News articles',
      expandScope(['entrytypes.news.article'], catalog),
    );
    const { token } = await f.service.access.createToken({ name: 'news-app', schemaId: schema.id });
    const introspect = '{ __schema { queryType { fields { name } } types { name } } }';
    const { body } = await f.query(introspect, { authorization: `Bearer ${token}` });
    const queries = body.data.__schema.queryType.fields.map((x: any) => x.name).sort();
    const types = body.data.__schema.types.map((x: any) => x.name);
    t.deepEqual(queries, ['entries', 'entry', 'ping']);
    t.true(types.includes('news_article_Entry'));
    t.false(types.includes('news_link_Entry'));
    t.false(types.includes('blog_post_Entry'));
    t.false(types.includes('UserInterface'));
    const publicTypes = (await f.query(introspect)).body.data.__schema.types.map((x: any) => x.name);
    t.true(publicTypes.includes('blog_post_Entry'));
    t.true(publicTypes.includes('images_Asset'));
    t.false(publicTypes.includes('documents_Asset'));
    t.false(publicTypes.includes('User'));
    // Relation fields to kinds the scope hides are left out.
    const fields = (
      await f.query('{ __type(name: "news_article_Entry") { fields { name } } }', { authorization: `Bearer ${token}` })
    ).body.data.__type.fields.map((x: any) => x.name);
    t.true(fields.includes('relatedArticles'));
    t.false(fields.includes('featuredImage'));
    t.false(fields.includes('contributors'));
  });

  test.serial(`${dialect}: unknown, disabled and expired tokens get 400 Invalid Authorization header`, async (t) => {
    const invalid = { errors: [{ message: 'Invalid Authorization header' }] };
    const unknown = await f.query('{ ping }', { authorization: 'Bearer not-a-real-token' });
    t.is(unknown.status, 400);
    t.deepEqual(unknown.body, invalid);

    const schema = await f.service.access.getSchema('News articles');
    const { token, record } = await f.service.access.createToken({ name: 'to-disable', schemaId: schema.id });
    t.is((await f.query('{ ping }', { authorization: `Bearer ${token}` })).status, 200);
    await f.service.access.setTokenEnabled(record.id, false);
    t.deepEqual(await f.query('{ ping }', { authorization: `Bearer ${token}` }), {
      status: 400,
      body: invalid,
      cached: false,
      phase: 'authorization',
    });
    await f.service.access.setTokenEnabled(record.id, true);
    t.is((await f.query('{ ping }', { authorization: `Bearer ${token}` })).status, 200);

    const expiring = await f.service.access.createToken({
      name: 'expired',
      schemaId: schema.id,
      expiryDate: '2001-01-01T00:00:00Z',
    });
    t.is((await f.query('{ ping }', { authorization: `Bearer ${expiring.token}` })).status, 400);
    await f.service.access.setTokenExpiry(expiring.record.id, '2999-01-01T00:00:00Z');
    t.is((await f.query('{ ping }', { authorization: `Bearer ${expiring.token}` })).status, 200);

    await f.service.access.deleteToken(record.id);
    t.is((await f.query('{ ping }', { authorization: `Bearer ${token}` })).status, 400);
  });

  test.serial(
    `${dialect}: a malformed header counts as no token; no usable public schema gives Missing Authorization header`,
    async (t) => {
      const malformed = await f.query('{ ping }', { authorization: 'Bearer: abc' });
      t.deepEqual(malformed.body, { data: { ping: 'pong' } });
      const publicToken = (await f.service.access.listTokens()).find((x) => x.isPublic)!;
      await f.service.access.setTokenEnabled(publicToken.id, false);
      const missing = await f.query('{ ping }');
      t.is(missing.status, 400);
      t.deepEqual(missing.body, { errors: [{ message: 'Missing Authorization header' }] });
      await f.service.access.setTokenExpiry(publicToken.id, '2001-01-01T00:00:00Z');
      await f.service.access.setTokenEnabled(publicToken.id, true);
      t.is((await f.query('{ ping }')).status, 400, 'an expired public token is not used either');
      await f.service.access.setTokenExpiry(publicToken.id, null);
      t.is((await f.query('{ ping }')).status, 200);
    },
  );

  test.serial(`${dialect}: schema and token management refuses bad input clearly`, async (t) => {
    const catalog = await f.service.store.catalog();
    t.throws(() => expandScope(['sections.nope'], catalog), {
      message: 'Unknown sections "nope" in scope "sections.nope"',
    });
    t.throws(() => expandScope(['planets.*'], catalog), { message: /Unknown scope "planets\.\*"/ });
    await t.throwsAsync(f.service.access.createSchema('News articles', []), {
      message: 'A schema named "News articles" exists already',
    });
    const publicSchema = (await f.service.access.publicSchema())!;
    await t.throwsAsync(f.service.access.deleteSchema(publicSchema.id), { message: /cannot be deleted/ });
    await t.throwsAsync(f.service.access.createToken({ name: 'x', schemaId: publicSchema.id }), {
      message: 'The public schema has no secret token',
    });
    await t.throwsAsync(f.service.access.createToken({ name: 'y', schemaId: 9999 }), {
      message: 'No GraphQL schema 9999',
    });
    await t.throwsAsync(
      f.service.access.createToken({ name: 'z', schemaId: publicSchema.id + 1, expiryDate: 'soon' }),
      { message: 'Invalid expiry date "soon"' },
    );
  });
}
