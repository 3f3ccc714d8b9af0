import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresForTests } from 'app-support';
import { startContentServer, type RunningContentServer } from '../src/server';
import { createClient } from './generated/api-client';
import { DIALECTS } from './helpers/content-fixture';

const KEY = 'admin-key-for-tests-0123456789';

for (const dialect of DIALECTS) {
  let server: RunningContentServer;
  let dir: string;
  let pg: Awaited<ReturnType<typeof postgresForTests>> | null = null;
  test.serial.before(`${dialect}: start`, async () => {
    dir = await mkdtemp(join(tmpdir(), 'content-admin-'));
    pg = dialect === 'postgres' ? await postgresForTests('content_admin') : null;
    server = await startContentServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: pg?.url ?? join(dir, 'c.db'),
      assetsRoot: join(dir, 'assets'),
      adminKey: KEY,
      settings: { changePollMs: 0 },
    });
  });
  test.serial.after.always(`${dialect}: stop`, async () => {
    await server?.close();
    await pg?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The admin API through the client generated from the app's OpenAPI document, with a key (or none). */
  const adminWith = (key: string | null) =>
    createClient({ baseUrl: server.url, headers: key ? { 'X-Admin-Key': key } : {} }).Admin;
  const admin = () => adminWith(KEY);

  test.serial(`${dialect}: the admin API needs its key`, async (t) => {
    const missing = await adminWith(null).AdminResource_schemas();
    t.is(missing.status, 401);
    t.like(missing.data, { message: 'Missing X-Admin-Key header', code: 'CG_ADMIN_KEY_MISSING' });
    const wrong = await adminWith('nope').AdminResource_schemas();
    t.is(wrong.status, 403);
    t.like(wrong.data, { message: 'Invalid X-Admin-Key header' });
    t.is(
      (await adminWith('nope').AdminResource_setScope({ path: { id: '1' }, body: { scope: [] } })).status,
      403,
      'nothing is read or written before the key is checked',
    );
    t.is((await admin().AdminResource_schemas()).status, 200);
  });

  test.serial(`${dialect}: without a configured key the admin API does not exist`, async (t) => {
    const closed = await startContentServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: pg ? await pg.freshDatabase('content_admin_off') : join(dir, 'off.db'),
      assetsRoot: join(dir, 'assets-off'),
      settings: { changePollMs: 0 },
    });
    try {
      for (const key of [KEY, null]) {
        const client = createClient({ baseUrl: closed.url, headers: key ? { 'X-Admin-Key': key } : {} });
        const response = await client.Admin.AdminResource_schemas();
        t.is(response.status, 404);
        t.like(response.data, { message: 'The admin API is not enabled (set CONTENT_GRAPHQL_ADMIN_KEY)' });
      }
    } finally {
      await closed.close();
    }
  });

  test.serial(`${dialect}: schemas and tokens are created, used, disabled and deleted over HTTP`, async (t) => {
    const created = await admin().AdminResource_createSchema({
      body: { name: 'Mobile app', scope: ['sections.news', 'usergroups.everyone'] },
    });
    if (created.status !== 201) return t.fail(JSON.stringify(created.data));
    const schema = created.data;
    t.is(created.headers.get('location'), `/admin/schemas/${schema.id}`);
    t.true(schema.scope.some((s) => s.startsWith('sections.')));
    const tokenResponse = await admin().AdminResource_createToken({ body: { name: 'mobile', schemaId: schema.id } });
    if (tokenResponse.status !== 201) return t.fail(JSON.stringify(tokenResponse.data));
    const token = tokenResponse.data;
    const id = String(token.id);
    const query = (auth: string) =>
      fetch(`${server.url}/api?query=${encodeURIComponent('{ users { username } }')}`, {
        headers: { Authorization: `Bearer ${auth}` },
      });
    t.deepEqual(await (await query(token.token)).json(), {
      data: { users: [{ username: 'ada' }, { username: 'grace' }, { username: 'linus' }] },
    });
    t.is((await admin().AdminResource_disable({ path: { id } })).status, 200);
    t.is((await query(token.token)).status, 400);
    t.is((await admin().AdminResource_enable({ path: { id } })).status, 200);
    t.is((await query(token.token)).status, 200);
    const listed = await admin().AdminResource_tokens();
    t.is(listed.status, 200);
    t.false(JSON.stringify(listed.data).includes(token.token));
    t.is((await admin().AdminResource_deleteToken({ path: { id } })).status, 204);
    t.is((await query(token.token)).status, 400);
    t.is((await admin().AdminResource_deleteSchema({ path: { id: String(schema.id) } })).status, 204);
  });

  test.serial(`${dialect}: bad admin input gets 4xx with a message`, async (t) => {
    const badScope = await admin().AdminResource_createSchema({ body: { name: 'X', scope: ['planets.mars'] } });
    t.is(badScope.status, 400);
    t.like(badScope.data, {
      status: 400,
      message:
        'Unknown scope "planets.mars": use sections, entrytypes, volumes, globalsets, categorygroups, taggroups or usergroups',
    });
    t.is((await admin().AdminResource_createSchema({ body: { name: 'Public Schema', scope: [] } })).status, 409);
    t.is((await admin().AdminResource_createToken({ body: { name: 'x', schemaId: 'one' } })).status, 400);
    t.is((await admin().AdminResource_deleteToken({ path: { id: '99999' } })).status, 404);
    t.is((await admin().AdminResource_enable({ path: { id: 'abc' } })).status, 400);
  });

  test.serial(
    `${dialect}: admin bodies must be JSON objects: others get 415 or 400 with a message and change nothing`,
    async (t) => {
      const before = (await admin().AdminResource_schemas()).data;
      // Plain fetch: these bodies and media types are deliberately not what the operations document, which the
      // typed client would not send.
      const send = (method: string, path: string, body: string, type: string | null) =>
        fetch(`${server.url}/admin${path}`, {
          method,
          headers: { 'X-Admin-Key': KEY, ...(type ? { 'Content-Type': type } : {}) },
          body,
        });
      for (const [method, path] of [
        ['PUT', '/elements/1'],
        ['POST', '/schemas'],
        ['PUT', '/schemas/1/scope'],
        ['POST', '/tokens'],
      ]) {
        for (const body of ['null', 'true', '0', '[]', '"text"']) {
          const response = await send(method, path, body, 'application/json');
          t.is(response.status, 400, `${method} ${path} ${body}`);
          t.like(await response.json(), { message: 'The body must be a JSON object' });
        }
        const text = await send(method, path, '{"name":"x","scope":[]}', 'text/plain');
        t.is(text.status, 415, `${method} ${path} as text/plain`);
        t.is(
          (await send(method, path, '{"name":"x","scope":[]}', null)).status,
          415,
          `${method} ${path} without a Content-Type`,
        );
      }
      t.deepEqual((await admin().AdminResource_schemas()).data, before);
    },
  );

  test.serial(
    `${dialect}: content edits through the admin API change answers at once and refuse bad input`,
    async (t) => {
      const ask = async (query: string) =>
        (await (await fetch(`${server.url}/api?query=${encodeURIComponent(query)}`)).json()) as any;
      const { id } = (await ask('{ entry(slug: "harbour-traffic-doubles") { id } }')).data.entry;
      const query = `{ entry(id: ${id}) { title ... on news_article_Entry { readingTime summary } } }`;
      t.like((await ask(query)).data.entry, { title: 'Harbour traffic doubles', readingTime: 3 });
      const edit = { title: 'Harbour traffic triples', fields: { readingTime: 6, summary: 'Tripled.' } };
      t.is((await admin().AdminResource_updateElement({ path: { id }, body: edit })).status, 204);
      t.deepEqual(
        (await ask(query)).data.entry,
        { title: 'Harbour traffic triples', readingTime: 6, summary: 'Tripled.' },
        'the cached answer was dropped',
      );
      t.is((await admin().AdminResource_disableElement({ path: { id } })).status, 204);
      t.deepEqual((await ask(query)).data, { entry: null });
      t.is((await admin().AdminResource_enableElement({ path: { id } })).status, 204);
      t.truthy((await ask(query)).data.entry);

      const refused = async (
        answer: Promise<{ status: number; data?: { message: string } }>,
        status: number,
        message: RegExp,
      ) => {
        const response = await answer;
        t.is(response.status, status, message.source);
        t.regex(response.data?.message ?? '', message);
      };
      const update = (elementId: string, body: unknown) =>
        admin().AdminResource_updateElement({ path: { id: elementId }, body });
      await refused(update('99999', { title: 'x' }), 404, /No element 99999/);
      await refused(admin().AdminResource_disableElement({ path: { id: '99999' } }), 404, /No element 99999/);
      await refused(update(id, { title: '' }), 400, /"title" must be a non-empty string/);
      await refused(update(id, { fields: [1] }), 400, /"fields" must be an object/);
      await refused(update(id, { fields: { colour: 'red' } }), 400, /has no field "colour"; its fields: summary, body/);
      await refused(update(id, { fields: { tags: [1] } }), 400, /Field "tags" \(Tags\) cannot be edited here/);
      await refused(update(id, { fields: { readingTime: 'soon' } }), 400, /Field "readingTime" takes a number/);
      await refused(update(id, { fields: { featured: 'yes' } }), 400, /Field "featured" takes true or false/);
      t.like(
        (await ask(query)).data.entry,
        { title: 'Harbour traffic triples', readingTime: 6 },
        'refused edits changed nothing',
      );
    },
  );
}
