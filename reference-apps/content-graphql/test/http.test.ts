import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { auditServer } from 'graphql-http';
import { postgresForTests } from 'app-support';
import { startContentServer, type RunningContentServer } from '../src/server';
import { DIALECTS } from './helpers/content-fixture';

for (const dialect of DIALECTS) {
  let server: RunningContentServer;
  let dir: string;
  let pg: Awaited<ReturnType<typeof postgresForTests>> | null = null;

  test.serial.before(`${dialect}: start`, async () => {
    dir = await mkdtemp(join(tmpdir(), 'content-http-'));
    pg = dialect === 'postgres' ? await postgresForTests('content_http') : null;
    server = await startContentServer({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: pg?.url ?? join(dir, 'content.db'),
      assetsRoot: join(dir, 'assets'),
      graphqlPath: '/graphql',
      settings: { changePollMs: 0 },
    });
  });
  test.serial.after.always(`${dialect}: stop`, async () => {
    await server?.close();
    await pg?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test.serial(`${dialect}: passes the graphql-http server audits with no error and no warning`, async (t) => {
    const results = await auditServer({ url: `${server.url}/graphql` });
    const problems = results
      .filter((r) => r.status === 'error' || r.status === 'warn')
      .map((r) => `${r.status} ${r.name}: ${'reason' in r ? r.reason : ''}`);
    t.deepEqual(problems, []);
    t.true(results.length > 50);
  });

  test.serial(`${dialect}: the three request forms, on the configured path`, async (t) => {
    const get = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ping}')}`);
    t.is(get.status, 200);
    t.is(get.headers.get('content-type'), 'application/json; charset=utf-8');
    t.deepEqual(await get.json(), { data: { ping: 'pong' } });
    const json = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: 'query One($slug: [String]) { entry(slug: $slug) { title } } query Two { ping }',
        variables: { slug: 'about-us' },
        operationName: 'One',
      }),
    });
    t.deepEqual(await json.json(), { data: { entry: { title: 'About us' } } });
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/graphql' },
      body: '{ globalSet { name } }',
    });
    t.deepEqual(await graphql.json(), { data: { globalSet: { name: 'Site information' } } });
    t.is((await fetch(`${server.url}/api?query={ping}`)).status, 404);
  });

  test.serial(`${dialect}: errors have the right status and a body that says what was wrong`, async (t) => {
    const post = (body: string, headers: Record<string, string>) =>
      fetch(`${server.url}/graphql`, { method: 'POST', headers, body });
    const badJson = await post('{"query": ', { 'Content-Type': 'application/json' });
    t.is(badJson.status, 400);
    t.deepEqual(await badJson.json(), { errors: [{ message: 'The request body is not valid JSON' }] });
    const noType = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      body: new Uint8Array(Buffer.from('{ping}')),
    });
    t.is(noType.status, 415);
    const invalid = await fetch(`${server.url}/graphql?query={ping}`, { headers: { Authorization: 'Bearer wrong' } });
    t.is(invalid.status, 400);
    t.deepEqual(await invalid.json(), { errors: [{ message: 'Invalid Authorization header' }] });
    const validation = await fetch(`${server.url}/graphql?query={nope}`);
    t.is(validation.status, 200, 'the CMS answers 200 with errors for application/json clients');
    const strict = await fetch(`${server.url}/graphql?query={nope}`, {
      headers: { Accept: 'application/graphql-response+json' },
    });
    t.is(strict.status, 400);
    t.is(strict.headers.get('content-type'), 'application/graphql-response+json; charset=utf-8');
    const badVariables = await fetch(`${server.url}/graphql?query={ping}&variables=not-json`);
    t.is(badVariables.status, 400);
    t.deepEqual(await badVariables.json(), { errors: [{ message: 'The variables param must be valid JSON' }] });
    const preflight = await fetch(`${server.url}/graphql`, { method: 'OPTIONS' });
    t.is(preflight.status, 200);
    t.is(preflight.headers.get('access-control-allow-origin'), '*');
  });

  test.serial(
    `${dialect}: a repeated JSON body is answered from the cache, never past a change or a disabled token`,
    async (t) => {
      const graphql = server.service.graphql;
      const body = JSON.stringify({
        query: 'query Title($slug: [String]) { entry(slug: $slug) { title } }',
        variables: { slug: 'harbour-traffic-doubles' },
      });
      const send = (headers: Record<string, string> = {}, path = '/graphql') =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body,
        });
      graphql.cache.clear();
      t.deepEqual(await (await send()).json(), { data: { entry: { title: 'Harbour traffic doubles' } } });
      t.is(graphql.cache.size, 1, 'kept under its query');
      t.is(graphql.cache.rawBodyUsage.entries, 1, 'and under the bytes of the body');
      t.deepEqual(await (await send()).json(), { data: { entry: { title: 'Harbour traffic doubles' } } });
      const { id } = (
        (await (
          await fetch(
            `${server.url}/graphql?query=${encodeURIComponent('{ entry(slug: "harbour-traffic-doubles") { id } }')}`,
          )
        ).json()) as any
      ).data.entry;
      await server.service.store.updateFields(Number(id), {}, 'Harbour traffic doubles again');
      t.deepEqual(
        await (await send()).json(),
        { data: { entry: { title: 'Harbour traffic doubles again' } } },
        'a change empties the cache',
      );
      const overridden = await send({}, `/graphql?query=${encodeURIComponent('{ ping }')}`);
      t.deepEqual(
        await overridden.json(),
        { data: { ping: 'pong' } },
        'query-string parameters still supersede the cached body',
      );

      const schema = await server.service.access.createSchema(
        'HTTP cache',
        (await server.service.access.publicSchema())!.scope,
      );
      const { token, record } = await server.service.access.createToken({ name: 'http-cache', schemaId: schema.id });
      t.is((await send({ Authorization: `Bearer ${token}` })).status, 200);
      t.is((await send({ Authorization: `Bearer ${token}` })).status, 200);
      await server.service.access.setTokenEnabled(record.id, false);
      const refused = await send({ Authorization: `Bearer ${token}` });
      t.is(refused.status, 400);
      t.deepEqual(await refused.json(), { errors: [{ message: 'Invalid Authorization header' }] });
      await server.service.access.deleteToken(record.id);
      await server.service.access.deleteSchema(schema.id);
    },
  );

  test.serial(`${dialect}: a transform URL from a query is served as a resized image`, async (t) => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/graphql' },
      body: '{ asset(filename: "sunrise.jpg") { url(width: 120, height: 120) } }',
    });
    const url = ((await response.json()) as any).data.asset.url as string;
    t.true(url.startsWith(`${server.url}/assets/images/news/_120x120_crop_center-center_none/`));
    const image = await fetch(url);
    t.is(image.status, 200);
    t.is(image.headers.get('content-type'), 'image/jpeg');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    t.like(meta, { width: 120, height: 120, format: 'jpeg' });
    t.is((await fetch(`${server.url}/assets/images/news/nothing.jpg`)).status, 404);
  });

  test.serial(`${dialect}: a lazy transform in another format is made on the first request of its URL`, async (t) => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/graphql' },
      body: `{ asset(filename: "sunrise.jpg") {
        png: url @transform(width: 130, format: "png")
        webp: url(width: 90, height: 60, format: "webp")
        jpeg: url(width: 70, format: "jpeg")
      } }`,
    });
    const urls = ((await response.json()) as any).data.asset as Record<string, string>;
    t.is(urls.png, `${server.url}/assets/images/news/_130xAUTO_crop_center-center_none/sunrise.png`);
    t.is(urls.webp, `${server.url}/assets/images/news/_90x60_crop_center-center_none/sunrise.webp`);
    const expected = {
      png: { type: 'image/png', width: 130, format: 'png' },
      webp: { type: 'image/webp', width: 90, height: 60, format: 'webp' },
      jpeg: { type: 'image/jpeg', width: 70, format: 'jpeg' },
    };
    for (const [name, want] of Object.entries(expected)) {
      const image = await fetch(urls[name]!);
      t.is(image.status, 200, `${name}: ${urls[name]}`);
      t.is(image.headers.get('content-type'), want.type);
      const { type: _type, ...meta } = want;
      t.like(await sharp(Buffer.from(await image.arrayBuffer())).metadata(), meta, name);
    }
    // The format comes from the file's extension: one no transform writes, or another file's name, is not served.
    const folder = `${server.url}/assets/images/news/_130xAUTO_crop_center-center_none`;
    t.is((await fetch(`${folder}/sunrise.bmp`)).status, 404);
    t.is((await fetch(`${folder}/sunset.png`)).status, 404);
  });
}
