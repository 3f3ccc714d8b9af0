/**
 * A project built by esbuild (no decorator metadata) runs when every argument names its type, and one whose
 * argument names none is refused at registration with the class, method, parameter and the decorator form to write.
 */
import test from 'ava';
import { transformSync } from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inject, RegistrationError, type RestBuilder } from '../../src/index';
import { fixturesDir, temporaryFolder } from './support/adopter-project';

interface Built {
  buildApp(): RestBuilder;
  buildBare(name: string): RestBuilder;
}

const source = fs.readFileSync(path.join(fixturesDir, 'explicit-types.ts.txt'), 'utf8');
const compile = (compilerOptions: { experimentalDecorators: boolean; emitDecoratorMetadata?: boolean }) =>
  transformSync(source, { loader: 'ts', format: 'cjs', target: 'es2022', tsconfigRaw: { compilerOptions } }).code;

/**
 * The fixture compiled by esbuild as a project without emitDecoratorMetadata (what a tsx or esbuild-built project
 * runs), linked to this checkout's rest.uws.
 */
function buildWithEsbuild(): { module: Built; code: string } {
  const code = compile({ experimentalDecorators: true });
  const linked = code
    .replace(/require\("rest\.uws"\)/g, `require(${JSON.stringify(require.resolve('../../src/index'))})`)
    .replace(/require\("class-validator"\)/g, `require(${JSON.stringify(require.resolve('class-validator'))})`)
    .replace(/require\("zod"\)/g, `require(${JSON.stringify(require.resolve('zod'))})`);
  const folder = temporaryFolder('without-metadata');
  const file = path.join(folder, 'app.js');
  fs.writeFileSync(file, linked);
  try {
    return { module: require(file) as Built, code };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const { module: app, code } = buildWithEsbuild();

test('esbuild writes no decorator metadata, even with emitDecoratorMetadata in its tsconfig', (t) => {
  t.false(code.includes('design:paramtypes'));
  t.true(code.includes('__decorateClass'), 'the decorators themselves are there');
  t.false(compile({ experimentalDecorators: true, emitDecoratorMetadata: true }).includes('design:'));
});

test('path and query values are converted to the types their decorators name', async (t) => {
  const r = await inject(app.buildApp(), '/items/7?verbose=yes');
  t.is(r.statusCode, 200, r.body);
  t.deepEqual(r.json(), { id: 7, type: 'number', verbose: true });
  const wrong = await inject(app.buildApp(), '/items/7?verbose=perhaps');
  t.is(wrong.statusCode, 400);
  t.is(wrong.json().code, 'RU_ERR_CONVERSION');
});

test('a @BeanParam(Type) is built from its fields, each with its named type', async (t) => {
  const r = await inject(app.buildApp(), { url: '/items?page=2&tags=a&tags=b', headers: { 'x-tenant': 'acme' } });
  t.is(r.statusCode, 200, r.body);
  t.deepEqual(r.json(), { isPaging: true, page: 2, tags: ['a', 'b'], tenant: 'acme' });
});

test('a @Valid body of the named class is an instance of it, and its constraints are checked', async (t) => {
  const ok = await inject(app.buildApp(), { method: 'POST', url: '/items', body: { name: 'bolt', count: 3 } });
  t.is(ok.statusCode, 200, ok.body);
  t.deepEqual(ok.json(), { isItem: true, name: 'bolt', count: 3 });
  const bad = await inject(app.buildApp(), { method: 'POST', url: '/items', body: { name: '', count: 0 } });
  t.is(bad.statusCode, 400);
  t.deepEqual((bad.json().violations as Array<{ path: string }>).map((v) => v.path).sort(), ['count', 'name']);
});

test('@Valid(schema) needs no type: a Zod body and query arrive as the schema output, failures are 400', async (t) => {
  const built = app.buildApp();
  const note = await inject(built, { method: 'POST', url: '/notes', body: { title: 'milk' } });
  t.is(note.statusCode, 200, note.body);
  t.deepEqual(note.json(), { title: 'milk', tags: [] }, 'the default applied');
  const limit = await inject(built, '/notes?limit=7');
  t.deepEqual(limit.json(), { limit: 7, type: 'number' }, 'coerced by the schema');
  t.deepEqual((await inject(built, '/notes')).json(), { limit: 20, type: 'number' });
  const bad = await inject(built, { method: 'POST', url: '/notes', body: { title: '', tags: [1] } });
  t.is(bad.statusCode, 400);
  t.deepEqual((bad.json().violations as Array<{ path: string }>).map((v) => v.path).sort(), ['tags[0]', 'title']);
  const over = await inject(built, '/notes?limit=500');
  t.is(over.statusCode, 400);
  t.is(over.json().violations[0].path, 'limit');
});

test('@Context(Type) gives the context value', async (t) => {
  t.deepEqual((await inject(app.buildApp(), '/items/where')).json(), { path: '/items/where' });
});

// The same routes without the types: each refused when the app is built, naming the class, method, parameter and
// decorator, and the decorator form that names the type.
const refusals: Array<[string, string, string]> = [
  ['BarePath', 'BarePath.get() parameter 0 (@PathParam("id"))', '@PathParam("id", { type: Number })'],
  ['BareQuery', 'BareQuery.get() parameter 0 (@QueryParam("verbose"))', '@QueryParam("verbose", { type: Number })'],
  ['BareBean', 'BareBean.list() parameter 0 (@BeanParam)', '@BeanParam(TheClass)'],
  ['BareBody', 'BareBody.create() parameter 0 (@BodyParam)', '@BodyParam({ type: TheClass })'],
  ['BareValid', 'BareValid.create() parameter 0 (@BodyParam)', '@BodyParam({ type: TheClass })'],
  ['BareContext', 'BareContext.where() parameter 0 (@Context)', '@Context(TheType)'],
];
for (const [name, where, form] of refusals)
  test(`${name}: an argument without a type is refused at registration, naming it and the form that gives the type`, (t) => {
    const error = t.throws(() => app.buildBare(name).build(), { instanceOf: RegistrationError });
    t.is((error as RegistrationError).code, 'RU_ERR_NO_DECORATOR_METADATA');
    t.true(
      error!.message.startsWith(`${where}: its type is unknown, as this build emitted no decorator metadata`),
      error!.message,
    );
    t.true(error!.message.includes(`name the type in the decorator: ${form}`), error!.message);
  });
