/**
 * The typed client end to end: a client generated (`rest-uws client --url`) from a running app with a route of every
 * parameter kind and a WebSocket endpoint; a program written against it type-checks under strict tsc, then calls every
 * route and the endpoint over the real server. Then one route's parameter type changes on the server: the client
 * generated again makes the same program fail to type-check, with the error a user would see.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateClient } from '../../src/index';
import { runClientCli } from '../../src/features/client/client-cli';
import { listen } from '../support/server';
import { clientApp } from './fixtures/client-app';
import { Items as ItemsV1 } from './fixtures/items-v1';
import { Items as ItemsV2 } from './fixtures/items-v2';

const FIXTURES = path.resolve(__dirname, '../../../test/client/fixtures');
const PROJECTS = path.resolve(__dirname, '../../client-projects');
const TSC = require.resolve('typescript/bin/tsc');

/** A folder inside the repository (so `ws` and its types resolve) with the caller and a strict tsconfig. */
function project(name: string): string {
  const dir = path.join(PROJECTS, `${name}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, 'caller.ts.txt'), path.join(dir, 'caller.ts'));
  const compilerOptions = {
    strict: true,
    target: 'es2022',
    module: 'commonjs',
    lib: ['es2022', 'dom'],
    types: ['node'],
    esModuleInterop: true,
    skipLibCheck: true,
    rootDir: '.',
    outDir: 'out',
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['caller.ts'] }));
  return dir;
}

function tsc(dir: string, ...flags: string[]) {
  const run = spawnSync(process.execPath, [TSC, '-p', dir, ...flags], { encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

async function generate(items: Function, dir: string) {
  const server = await listen(clientApp(items).build());
  const code = await runClientCli(['client', '--url', server.url, '--out', path.join(dir, 'api-client.ts')]);
  return { server, code };
}

test.serial(
  'a client generated from the app type-checks and calls every route and the WebSocket endpoint',
  async (t) => {
    t.timeout(120_000);
    const dir = project('v1');
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { server, code } = await generate(ItemsV1, dir);
    t.teardown(server.close);
    t.is(code, 0);
    const source = fs.readFileSync(path.join(dir, 'api-client.ts'), 'utf8');
    t.notRegex(source, /^import /m, 'the client imports nothing: no server code');
    t.notRegex(source, /rest\.uws'|class-validator|uWebSockets/);

    const compiled = tsc(dir);
    t.is(compiled.code, 0, compiled.output);
    const caller = require(path.join(dir, 'out', 'caller.js')) as {
      main(url: string): Promise<Record<string, unknown>>;
    };
    const out = await caller.main(server.url);
    t.deepEqual(out, {
      found: [200, 'Ada', 2],
      missing: [404, false, 'no booking nope'],
      created: [201, 'b2', 3],
      refused: [400, 'RU_ERR_VALIDATION'],
      removed: [204, undefined],
      listed: 'page 2 size 5',
      items: 'number 5 a,b',
      header: 'abc',
      cookie: 'dark mode',
      form: 'ada 36',
      upload: 'notes: doc=blob text/plain 5',
      text: 'HELLO',
      socket: ['lobby', 'ada joined', 'hi', 1000],
    });
  },
);

test.serial(
  "after a route's parameter type changes on the server, the same caller no longer type-checks",
  async (t) => {
    t.timeout(120_000);
    const dir = project('v2');
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { server, code } = await generate(ItemsV2, dir);
    t.teardown(server.close);
    t.is(code, 0);
    t.regex(fs.readFileSync(path.join(dir, 'api-client.ts'), 'utf8'), /query: \{ limit: string; tag: Array<string> \}/);
    const checked = tsc(dir, '--noEmit');
    t.not(checked.code, 0);
    t.regex(checked.output, /caller\.ts\(\d+,\d+\): error TS2322: Type 'number' is not assignable to type 'string'\./);
    // Only that call fails: everything else the caller does still fits the server.
    t.is(checked.output.match(/error TS/g)?.length, 1, checked.output);
  },
);

test('the generator refuses documents it cannot read, with RU_ERR_CLIENT', (t) => {
  for (const documents of [{}, { openapi: { swagger: '2.0' } }, { asyncapi: { asyncapi: '2.6.0' } }]) {
    const error = t.throws(() => generateClient(documents as never));
    t.is((error as { code?: string }).code, 'RU_ERR_CLIENT');
  }
  const error = t.throws(() =>
    generateClient({
      openapi: {
        openapi: '3.1.0',
        paths: {
          '/x': {
            get: {
              responses: {
                200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Nowhere' } } } },
              },
            },
          },
        },
      },
    }),
  );
  t.regex(error!.message, /Nowhere is not a schema/);
});
