/**
 * create-rest-uws as an adopter meets it: `npm pack -w create-rest-uws` run with `npm exec` (what
 * `npm create rest-uws` does once it is published), in a fresh folder outside this repository, with the
 * packed rest.uws as its rest.uws; the project it writes installed, built, tested, started and requested,
 * as CommonJS and as ES modules, and its dev script seen recompiling and restarting.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { UWS_CURRENT_PACKAGE, UWS_NODE20_PACKAGE, uwsBuildFor, type Machine } from '../../src/adapter/uws-builds';
import {
  cleanEnvironment,
  npmInstall,
  packFramework,
  packWorkspace,
  run,
  startApp,
  temporaryFolder,
  UWS_SPEC,
  type PackedFramework,
} from './support/adopter-project';

const SLOW = 240_000;

let workspace = '';
let restUws: PackedFramework;
let create: PackedFramework;

test.before(async (t) => {
  t.timeout(SLOW);
  workspace = temporaryFolder('create-rest-uws');
  restUws = await packFramework(workspace);
  create = await packWorkspace('create-rest-uws', workspace);
});

test.after.always(() => {
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `npm create rest-uws <args>`, from the packed create-rest-uws. */
const createProject = (args: string[], cwd = workspace) =>
  run('npm', ['exec', '--yes', `--package=${create.tarball}`, '--', 'create-rest-uws', ...args], cwd);

test.serial('the create-rest-uws tarball holds its command and the template, no sources or tests', (t) => {
  const files = create.files.slice().sort();
  t.true(files.includes('dist/src/cli.js'));
  t.true(files.includes('template/src/todo-resource.ts'));
  t.true(files.includes('template/gitignore'));
  t.deepEqual(
    files.filter((f) => !/^(dist\/src\/[\w-]+\.js|template\/.+|package\.json|README\.md|LICENSE)$/.test(f)),
    [],
  );
});

for (const esm of [false, true]) {
  const kind = esm ? 'ES modules (--esm)' : 'CommonJS';
  test.serial(`${kind}: the generated project installs, builds, passes its tests, starts and answers`, async (t) => {
    t.timeout(SLOW);
    const name = esm ? 'esm-api' : 'cjs-api';
    const created = await createProject([name, ...(esm ? ['--esm'] : []), '--rest-uws', restUws.tarball]);
    t.is(created.code, 0, created.output);
    t.true(created.stdout.includes(`Next:\n  cd ${name}\n  npm install\n  npm run dev\n`), created.stdout);
    const project = path.join(workspace, name);
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
    t.is(manifest.type, esm ? 'module' : 'commonjs');
    t.is(manifest.dependencies['uWebSockets.js'], UWS_SPEC, 'the build for this Node and platform');
    t.deepEqual(Object.keys(manifest.scripts).sort(), [
      'build',
      'client',
      'dev',
      'format',
      'lint',
      'start',
      'test',
      'typecheck',
    ]);
    t.is(manifest.dependencies.zod, '^4.6.7', 'the Standard Schema route validates with Zod');
    t.deepEqual(Object.keys(manifest.devDependencies).sort(), [
      '@biomejs/biome',
      '@swc/core',
      '@types/node',
      '@types/ws',
      'typescript',
      'ws',
    ]);
    const tsconfig = JSON.parse(fs.readFileSync(path.join(project, 'tsconfig.json'), 'utf8'));
    t.true(tsconfig.compilerOptions.experimentalDecorators && tsconfig.compilerOptions.emitDecoratorMetadata);
    t.true(fs.existsSync(path.join(project, '.gitignore')));
    t.true(fs.existsSync(path.join(project, 'biome.json')));
    t.false(fs.existsSync(path.join(project, 'biome.template.json')));

    const installed = await npmInstall(project, []);
    t.notRegex(installed.output, /install scripts/, 'npm asks about no install script (allowScripts)');
    // ws comes with the v20.30 build, pinned at 8.13.0 (a published denial-of-service advisory, fixed in 8.17.1).
    const ws = path.join(project, 'node_modules', 'ws', 'package.json');
    if (fs.existsSync(ws)) {
      const [wsMajor, wsMinor] = (JSON.parse(fs.readFileSync(ws, 'utf8')).version as string).split('.').map(Number);
      t.true(wsMajor! > 8 || (wsMajor === 8 && wsMinor! >= 17), 'ws is past the advisory (>= 8.17.1)');
    }
    const built = await run('npm', ['run', 'build'], project);
    t.is(built.code, 0, built.output);
    t.is(
      /^import .* from 'rest\.uws';$/m.test(fs.readFileSync(path.join(project, 'dist', 'src', 'main.js'), 'utf8')),
      esm,
      'ES imports stay ES imports, CommonJS requires',
    );
    const tested = await run('npm', ['test'], project);
    t.is(tested.code, 0, tested.output);
    t.regex(tested.output, /ℹ pass 9\nℹ fail 0/);
    for (const name of [
      'a new todo is announced on the event stream',
      'the live socket adds a todo from a message',
      'a change the Zod schema refuses answers 400 with the violation',
      'the typed client creates a todo, reads it back and tells a 404 by its status',
      'the typed client sends a todo on the live socket and receives the todos added',
    ])
      t.true(tested.output.includes(`✔ ${name}`), `${name}: ${tested.output}`);
    // A test file removed is no longer run: its compiled JavaScript goes with it.
    const liveTest = path.join(project, 'test', 'todo-live.test.ts');
    const liveSource = fs.readFileSync(liveTest, 'utf8');
    fs.rmSync(liveTest);
    const fewer = await run('npm', ['test'], project);
    t.is(fewer.code, 0, fewer.output);
    t.regex(fewer.output, /ℹ pass 8\nℹ fail 0/);
    t.false(fs.existsSync(path.join(project, 'dist', 'test', 'todo-live.test.js')));
    fs.writeFileSync(liveTest, liveSource);
    // The committed typed client is what npm run client writes from the app: the template and the generator agree.
    const clientFile = path.join(project, 'src', 'api-client.ts');
    const committedClient = fs.readFileSync(clientFile, 'utf8');
    const generated = await run('npm', ['run', 'client'], project);
    t.is(generated.code, 0, generated.output);
    t.is(fs.readFileSync(clientFile, 'utf8'), committedClient, 'npm run client rewrites the same client');
    const typecheck = await run('npm', ['run', 'typecheck'], project);
    t.is(typecheck.code, 0, typecheck.output);
    const lint = await run('npm', ['run', 'lint'], project);
    t.is(lint.code, 0, lint.output);

    // npm start, run as its script says (npm does not pass the stop signal on to the server).
    t.is(manifest.scripts.start, 'node dist/src/main.js');
    const app = await startApp(process.execPath, ['dist/src/main.js'], project, { PORT: '0' });
    try {
      const created = await fetch(`${app.url}/todos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Ship it' }),
      });
      t.is(created.status, 201);
      t.is(created.headers.get('location'), '/todos/1');
      t.deepEqual(await created.json(), { id: 1, title: 'Ship it', done: false });
      const invalid = await fetch(`${app.url}/todos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 42 }),
      });
      t.is(invalid.status, 400);
      t.is(((await invalid.json()) as { violations: Array<{ path: string }> }).violations[0]!.path, 'title');
      const missing = await fetch(`${app.url}/todos/9`);
      t.is(missing.status, 404);
      t.deepEqual(await missing.json(), { status: 404, message: 'No todo 9' });
      // The documents the typed client is generated from.
      const openapi = (await (await fetch(`${app.url}/openapi.json`)).json()) as { paths: object };
      t.true('/todos/{id}' in openapi.paths);
      const asyncapi = (await (await fetch(`${app.url}/asyncapi.json`)).json()) as { channels: object };
      t.deepEqual(Object.keys(asyncapi.channels), ['TodoLive']);
    } finally {
      t.is(await app.stop(), 0, app.output());
    }
    t.notRegex(app.output(), /unhandled error/);
  });
}

test.serial('npm run dev serves, and each saved change is compiled and served again', async (t) => {
  t.timeout(SLOW);
  const project = path.join(workspace, 'cjs-api');
  // A fixed port: the restarted server listens where the first one did (with PORT=0 each would pick its own).
  const port = await freePort();
  const dev = spawn('npm', ['run', 'dev'], {
    cwd: project,
    env: cleanEnvironment({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const listening = new Promise<void>((resolve, reject) => {
    dev.stdout!.on('data', () => output.includes(`listening on http://127.0.0.1:${port}/todos`) && resolve());
    dev.once('exit', (code) => reject(new Error(`npm run dev exited with ${code}:\n${output}`)));
  });
  /** GETs until the body holds `text` (the old server answers until the new one takes over). */
  const served = async (url: string, text: string): Promise<void> => {
    for (;;) {
      const body = await fetch(url).then(
        (r) => r.text(),
        () => '',
      );
      if (body.includes(text)) return;
      if (dev.exitCode !== null) throw new Error(`npm run dev exited:\n${output}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** Resolves once npm run dev has printed `text`. */
  const printed = (text: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = () => output.includes(text) && resolve();
      dev.stdout!.on('data', check);
      dev.once('exit', () => reject(new Error(`npm run dev exited:\n${output}`)));
      check();
    });
  try {
    await listening;
    const url = `http://127.0.0.1:${port}`;
    t.is((await fetch(`${url}/todos`)).status, 200);
    t.deepEqual(await (await fetch(`${url}/todos/9`)).json(), { status: 404, message: 'No todo 9' });
    const source = path.join(project, 'src', 'todo.ts');
    const saved = Date.now();
    fs.writeFileSync(
      source,
      fs.readFileSync(source, 'utf8').replace('super(`No todo ${id}`);', 'super(`No such todo ${id}`);'),
    );
    await served(`${url}/todos/9`, 'No such todo 9');
    t.log(`the change was served ${Date.now() - saved} ms after the save`);
    t.deepEqual(await (await fetch(`${url}/todos/9`)).json(), { status: 404, message: 'No such todo 9' });
    // The new server can answer before the dev script has printed its line about the restart: wait for the line.
    await printed('[dev] src/todo.ts changed: restarted in ');
    t.regex(output, /\[dev\] src\/todo\.ts changed: restarted in \d+ ms/);

    // Saved as some editors save (a copy renamed over the file), then written in place: both are served. Node's
    // recursive watch on Linux lost the file at the rename and missed the second save.
    const copy = path.join(project, 'src', '.todo.ts.swp');
    fs.writeFileSync(copy, fs.readFileSync(source, 'utf8').replace('No such todo', 'Renamed: no todo'));
    fs.renameSync(copy, source);
    await served(`${url}/todos/9`, 'Renamed: no todo 9');
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace('Renamed: no todo', 'Written: no todo'));
    await served(`${url}/todos/9`, 'Written: no todo 9');
    // A file in a folder made while the server runs is compiled too.
    fs.mkdirSync(path.join(project, 'src', 'extra'));
    fs.writeFileSync(path.join(project, 'src', 'extra', 'hello.ts'), 'export const hello = 1;\n');
    await printed('[dev] src/extra/hello.ts changed: restarted');
    t.true(fs.existsSync(path.join(project, 'dist', 'src', 'extra', 'hello.js')));
  } finally {
    if (dev.pid !== undefined && dev.exitCode === null) process.kill(-dev.pid, 'SIGINT');
    await new Promise((resolve) => (dev.exitCode !== null ? resolve(undefined) : dev.once('exit', resolve)));
  }
});

test.serial('a folder that is taken, or an unknown option: exit 1 with the reason, nothing written', async (t) => {
  const taken = path.join(workspace, 'taken');
  fs.mkdirSync(taken);
  fs.writeFileSync(path.join(taken, 'notes.txt'), 'mine');
  const refused = await createProject(['taken']);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /create-rest-uws: taken already exists and is not an empty folder: choose another name\./);
  t.deepEqual(fs.readdirSync(taken), ['notes.txt']);
  const unknown = await createProject(['other', '--typescript-please']);
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /unexpected argument --typescript-please/);
  t.false(fs.existsSync(path.join(workspace, 'other')));
});

test('create-rest-uws picks the build rest.uws recommends, on every kind of machine', (t) => {
  // The package is compiled beside the framework in this repository; its module is loaded from there.
  const { pickUws } = require(
    path.resolve(__dirname, '..', '..', '..', '..', 'packages', 'create-rest-uws', 'dist', 'src', 'uws-build.js'),
  ) as {
    pickUws(machine: Machine): { spec: string; warning?: string };
  };
  const machines: Machine[] = [];
  for (const nodeVersion of ['18.20.0', '20.19.0', '22.20.0', '24.12.0', '25.1.0', '26.0.0']) {
    for (const glibc of ['2.31', '2.36', '2.38', '2.41', undefined])
      machines.push({ nodeVersion, platform: 'linux', arch: 'x64', glibc });
    machines.push({ nodeVersion, platform: 'linux', arch: 'arm64', glibc: '2.39' });
    for (const arch of ['x64', 'arm64'])
      machines.push(
        { nodeVersion, platform: 'darwin', arch, glibc: undefined },
        { nodeVersion, platform: 'win32', arch, glibc: undefined },
      );
  }
  for (const machine of machines) {
    const recommended = uwsBuildFor(machine);
    const picked = pickUws(machine);
    const label = JSON.stringify(machine);
    if (recommended.spec !== undefined) {
      t.is(picked.spec, recommended.spec, label);
      t.is(picked.warning, undefined, label);
    } else {
      t.true([UWS_NODE20_PACKAGE, UWS_CURRENT_PACKAGE].includes(picked.spec), label);
      t.truthy(picked.warning, `${label}: no build loads there, and the user is told`);
    }
  }
});
